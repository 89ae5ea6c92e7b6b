// The Experiments table's rows: names, deltas with their intervals, "CI n/a" where the bootstrap cannot vary, and the
// column sort (undefined deltas last in either direction).
import { describe, expect, it } from 'vitest';
import { benchmarkSize, elideMiddle, experimentTableRows, sortTableRows } from '../../src/core/spb/experiments/table';
import { coverageNote } from '../../src/core/coverage';
import { experimentsJson, experimentsTable } from '../../src/core/spb/experiments/text';
import type { Benchmark } from '../../src/core/spb/types';
import type { ExperimentRow } from '../../src/core/spb/experiments/log';
import { isExtensionToWebview } from '../../src/shared/spb/experimentTableProtocol';
import type { PairedSummaryRow } from '../../src/core/spb/score/pairedSummary';

const summary = (
  metric: PairedSummaryRow['metric'],
  diff: number,
  lo: number,
  hi: number,
  users = 4,
): PairedSummaryRow => ({
  metric,
  meanA: 0.4,
  meanB: 0.4 + diff,
  diff,
  ciLow: lo,
  ciHigh: hi,
  users,
  userWtl: { win: 1, tie: 1, loss: 1 },
  stepWtl: null,
});

function row(
  id: number,
  name: string,
  recall: PairedSummaryRow | null,
  byPlatform: Record<string, number>,
): ExperimentRow {
  return {
    id,
    kind: 'template',
    createdAt: `2026-12-0${id}T10:00:00.000Z`,
    author: 'a',
    run: `exp-s-${id}`,
    baseRun: recall ? 'base' : '',
    sample: { name: 's', seed: 1, users: 5 },
    template: { id: `id${id}`, hash: 'h', text: 't', name },
    systemMessage: '',
    endpoint: { baseURL: 'http://127.0.0.1:1/v1', model: 'm', temperature: 0, maxTokens: null },
    personaMode: 'full',
    figures: recall
      ? {
          baseRun: 'base',
          run: `exp-s-${id}`,
          pairedSteps: 9,
          pairedUsers: 5,
          usersByPlatform: byPlatform,
          onlyBase: 0,
          onlyRun: 0,
          summary: [recall],
          flips: { gained: 0, lost: 0, newWrong: 0, droppedWrong: 0, top: [] },
        }
      : null,
    scopes: null,
    cost: { requests: 9, steps: 9, promptTokens: 900, completionTokens: 100, latencyMs: 1, unknownUsage: 0 },
  } as ExperimentRow;
}

describe('experiment table rows', () => {
  const rows = experimentTableRows(
    [
      row(1, 'shorter', summary('Recall', 0.02, -0.01, 0.05), { weibo: 2, zhihu: 3 }),
      row(2, '', summary('Recall', 0.011, 0.011, 0.011, 5), {
        weibo: 1,
        zhihu: 1,
        douban: 1,
        toutiao: 1,
        xiaohongshu: 1,
      }),
      row(3, 'no-base', null, {}),
    ],
    { users: 10, steps: 166 },
  );

  it('names each row, and says when an interval cannot vary', () => {
    expect(rows.map((r) => r.name)).toEqual(['shorter', 'id2', 'no-base']);
    expect(rows[0].deltas[0].text).toBe('+2.0 [−1.0, +5.0]');
    expect(rows[1].deltas[0]).toEqual({ diff: 0.011, ciLow: null, ciHigh: null, text: '+1.1 (CI n/a: 5 users)' });
    expect(rows[1].thin).toHaveLength(5);
    expect(rows[2].deltas.map((d) => d.text)).toEqual(['—', '—', '—', '—']);
    expect(rows[0].tokens).toBe(1000);
    expect(isExtensionToWebview({ type: 'show', model: { benchmark: 'b', rows } })).toBe(true);
    expect(isExtensionToWebview({ type: 'show', model: { benchmark: 'b', rows: [{ ...rows[0], deltas: 'x' }] } })).toBe(
      false,
    );
  });

  it('carries what its figures are over: the paired users and steps out of the benchmark’s', () => {
    expect(rows[0].coverage).toEqual({
      users: { covered: 5, total: 10 },
      items: { covered: 9, total: 166 },
      itemNoun: 'step',
    });
    expect(coverageNote(rows[0].coverage)).toBe('over 5 of 10 users, 9 of 166 steps');
    // Without a base run: the sample's users and the steps its run made.
    expect(coverageNote(rows[2].coverage)).toBe('over 5 of 10 users, 9 of 166 steps');
    // The run's own R beside the deltas.
    expect(rows[0].recall).toBeCloseTo(0.42);
    expect(rows[2].recall).toBeNull();
    // A sample of every user and step is the whole benchmark: no note.
    const [whole] = experimentTableRows([row(4, 'all', summary('Recall', 0, 0, 0), { weibo: 5 })], {
      users: 5,
      steps: 9,
    });
    expect(coverageNote(whole.coverage)).toBeUndefined();
    expect(
      isExtensionToWebview({ type: 'show', model: { benchmark: 'b', rows: [{ ...rows[0], coverage: 'all' }] } }),
    ).toBe(false);
  });

  it('exports carry it: the log’s text table says what each run’s figures are over, its JSON has a coverage block', () => {
    const logged = [row(1, 'shorter', summary('Recall', 0.02, -0.01, 0.05), { weibo: 2, zhihu: 3 })];
    const text = experimentsTable(logged, { users: 10, steps: 166 });
    expect(text).toContain('exp-s-1: figures over 5 of 10 users, 9 of 166 steps');
    const json = experimentsJson(logged, { users: 10, steps: 166 }) as { coverage: unknown }[];
    expect(json[0].coverage).toEqual({
      users: { covered: 5, total: 10 },
      steps: { covered: 9, total: 166 },
      whole: false,
    });
  });

  it('counts a benchmark’s users and steps', () => {
    const user = (n: number) => ({ steps: Array.from({ length: n }) });
    const bench = {
      users: new Map([
        [
          'weibo',
          new Map([
            ['a', user(3)],
            ['b', user(4)],
          ]),
        ],
        ['zhihu', new Map([['c', user(2)]])],
      ]),
    } as unknown as Benchmark;
    expect(benchmarkSize(bench)).toEqual({ users: 3, steps: 9 });
  });

  it('elides a long name in its middle, keeping both ends', () => {
    expect(elideMiddle('short', 32)).toBe('short');
    const long = 'default-template-prefer-the-latest-posts-with-three-examples';
    const cut = elideMiddle(long, 32);
    expect([...cut]).toHaveLength(32);
    expect(cut.startsWith('default-template')).toBe(true);
    expect(cut.endsWith('three-examples')).toBe(true);
    expect(cut).toContain('…');
  });

  it('sorts by a delta either way, rows without it last', () => {
    expect(sortTableRows(rows, 'delta0', true).map((r) => r.id)).toEqual([1, 2, 3]);
    expect(sortTableRows(rows, 'delta0', false).map((r) => r.id)).toEqual([2, 1, 3]);
    expect(sortTableRows(rows, 'createdAt', true).map((r) => r.id)).toEqual([3, 2, 1]);
    expect(sortTableRows(rows, 'name', false).map((r) => r.name)).toEqual(['id2', 'no-base', 'shorter']);
  });
});
