// The Label Agreement does not compute the gold report (bootstrap intervals) on every label change: a burst of
// requests runs once (core/coalesce.ts, counted with a hand-driven scheduler, no timer), and GoldTablesMemo computes
// again only when the labels, the decisions or the names changed (its computations counted).
import { describe, expect, it } from 'vitest';
import { coalesce, type Schedule } from '../../src/core/coalesce';
import type { Adjudication } from '../../src/core/labels/gold';
import type { LabelRow } from '../../src/core/labels/model';
import { goldTables, GoldTablesMemo } from '../../src/extension/labels/agreement/gold';
import { labelRow } from './labelStore-fixture';

/** A scheduler that runs what is due only when the test says so. */
function handScheduler() {
  const due: (() => void)[] = [];
  const schedule: Schedule = (run) => {
    due.push(run);
    return { cancel: () => due.splice(due.indexOf(run), 1) };
  };
  return { schedule, flush: () => due.splice(0).forEach((run) => run()), due };
}

describe('coalesce', () => {
  it('runs once for a burst of requests, and again for a request made after the run', () => {
    const s = handScheduler();
    let runs = 0;
    const c = coalesce(() => runs++, s.schedule);
    for (let i = 0; i < 20; i++) c.request();
    expect(s.due).toHaveLength(1);
    expect(runs).toBe(0);
    s.flush();
    expect(runs).toBe(1);
    c.request();
    c.request();
    s.flush();
    expect(runs).toBe(2);
  });

  it('asks for one more run when a request comes while it runs', () => {
    const s = handScheduler();
    let runs = 0;
    const c = coalesce(() => {
      runs++;
      if (runs === 1) c.request();
    }, s.schedule);
    c.request();
    s.flush();
    expect(s.due).toHaveLength(1);
    s.flush();
    expect(runs).toBe(2);
  });

  it('drops a scheduled run once disposed', () => {
    const s = handScheduler();
    let runs = 0;
    const c = coalesce(() => runs++, s.schedule);
    c.request();
    c.dispose();
    c.request();
    s.flush();
    expect(runs).toBe(0);
  });
});

describe('GoldTablesMemo', () => {
  const row = (author: string, stepId: number, label: string): LabelRow =>
    labelRow({ author, stepId, label, run: 'gpt', benchmark: 'spb' });
  const rows = [row('ann', 1, 'A'), row('bob', 1, 'A'), row('ann', 2, 'A'), row('bob', 2, 'B')];
  const decision: Adjudication = {
    ref: { benchmark: 'spb', platform: 'weibo', userId: 'we_0000000001', stepId: 2, run: 'gpt' },
    labels: ['B'],
    adjudicator: 'carol',
    createdAt: '2026-12-06T00:00:00.000Z',
  };

  it('computes the report again only when its inputs change', () => {
    let computed = 0;
    const memo = new GoldTablesMemo((...args) => (computed++, goldTables(...args)));
    const names = new Map<string, string>();
    const first = memo.tables(rows, [], names);
    // The same labels read again (new row objects, as each read gives): no new computation.
    expect(
      memo.tables(
        rows.map((r) => ({ ...r })),
        [],
        new Map(),
      ),
    ).toBe(first);
    expect(computed).toBe(1);
    const decided = memo.tables(rows, [decision], names);
    expect(computed).toBe(2);
    expect(decided[0].counts).toMatchObject({ adjudicated: 1, unanimous: 1, open: 0 });
    memo.tables([...rows, row('cat', 1, 'A')], [decision], names);
    expect(computed).toBe(3);
    memo.tables([...rows, row('cat', 1, 'A')], [decision], new Map([['A', 'Alpha']]));
    expect(computed).toBe(4);
    expect(first[0].counts).toMatchObject({ adjudicated: 0, unanimous: 1, open: 1 });
  });
});
