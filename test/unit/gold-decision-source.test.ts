// Where the gold views read the adjudicators' decisions (src/extension/labels/gold/decisionSource.ts): with a label
// server, from the server (the replica has none), in the background: the last read is given, a read that finds them
// changed tells the views once, one that finds the same does not, and a failure is given as its reason.
import { describe, expect, it } from 'vitest';
import type { Adjudication } from '../../src/core/labels/gold';
import type { GoldBackend } from '../../src/extension/labels/adjudicate/goldBackend';
import { DecisionSource } from '../../src/extension/labels/gold/decisionSource';

const decision = (benchmark: string, stepId: number): Adjudication => ({
  ref: { benchmark, platform: 'weibo', userId: 'u1', stepId, run: 'r' },
  labels: ['a'],
  adjudicator: 'judy',
  createdAt: '2026-12-07T00:00:00.000Z',
});

describe('DecisionSource with a label server', () => {
  it('gives the last decisions read from the server, and tells the views only when they changed', async () => {
    let onServer: Adjudication[] | Error = [decision('sample', 1), decision('omnibehavior', 2)];
    let reads = 0;
    let changed = 0;
    const backend: GoldBackend = {
      adjudications: () => {
        reads++;
        return onServer instanceof Error ? Promise.reject(onServer) : Promise.resolve(onServer);
      },
      decide: () => Promise.resolve(),
      undo: () => Promise.resolve(false),
      close: () => undefined,
    };
    const source = new DecisionSource(
      () => ({ file: '/nowhere/labels.db', server: 'postgres://team@127.0.0.1/labels' }),
      () => Promise.resolve(undefined),
      () => changed++,
      () => backend,
    );
    expect(source.fromServer).toBe(true);
    // Nothing read yet: none, and a read begins; an ask made while it runs makes one more read after it.
    expect(source.read()).toEqual({ adjudications: [] });
    await source.refresh();
    expect(reads).toBe(2);
    expect(changed).toBe(1);
    expect(source.read('sample')).toEqual({ adjudications: [decision('sample', 1)] });
    // Asks made while a read runs make one more read, not one each.
    await Promise.all([source.refresh(), source.refresh(), source.refresh()]);
    expect(reads).toBe(4);
    expect(changed).toBe(1);
    onServer = [decision('sample', 1), decision('sample', 3)];
    await source.refresh();
    expect(changed).toBe(2);
    expect(source.read('sample')).toEqual({ adjudications: onServer });
    onServer = new Error('password authentication failed');
    await source.refresh();
    expect(source.read()).toEqual({ error: 'password authentication failed' });
    expect(changed).toBe(3);
  });
});
