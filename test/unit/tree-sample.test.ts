// Filter Tree to Sample in the tree's model: only the sample's users and the platforms that have some, the
// platform rows counting them against the platform, the benchmark row naming the sample its figure is over, and
// the view's message with the sample first and the step filter after it.
import { describe, expect, it } from 'vitest';
import { scoreRun } from '../../src/core/spb/score/run';
import type { Benchmark, Platform, Step, User } from '../../src/core/spb/types';
import { userSubset } from '../../src/core/spb/score/userSubset';
import { benchmarkDescription, platformRows, usersShown } from '../../src/extension/benchmarks/spb/treeModel';
import { TreeMessage } from '../../src/extension/tree/message';

const step = (stepId: number, hit: string): Step => {
  const split = { tKeep: ['k'], tNew: ['n'], dDecay: ['d'], dPeer: [], dViral: [], dRandom: [] };
  return {
    stepId,
    totalSteps: 1,
    dateInput: '2024-01-01',
    dateTarget: '',
    pool: ['k', 'n', 'd', hit],
    split,
    index: 0,
  };
};
const user = (platform: Platform, userId: string): User => ({
  userId,
  platform,
  username: '',
  bio: '',
  totalSteps: 1,
  steps: [step(1, 'x')],
  file: `data/${platform}_inference_tasks.jsonl`,
  ref: { file: '/x', offset: 0, length: 0, line: 1 },
});

/** weibo: w1 w2 w3 (w1 picks both positives, w2 one, w3 none); zhihu: z1 (one); douban: d1 (none). */
function fixture(): Benchmark {
  const users = new Map<Platform, Map<string, User>>();
  for (const [p, ids] of [
    ['weibo', ['w1', 'w2', 'w3']],
    ['zhihu', ['z1']],
    ['douban', ['d1']],
  ] as [Platform, string[]][])
    users.set(p, new Map(ids.map((id) => [id, user(p, id)])));
  const picks: Record<string, string[]> = {
    w1: ['k', 'n'],
    w2: ['k', 'd'],
    w3: ['d', 'x'],
    z1: ['n', 'x'],
    d1: ['x', 'd'],
  };
  const results = new Map(
    [...users].map(([p, us]) => [
      p,
      new Map(
        [...us.keys()].map((id) => [
          id,
          {
            userId: id,
            platform: p,
            username: '',
            file: 'r',
            line: 1,
            steps: new Map([
              [
                1,
                {
                  stepId: 1,
                  prediction: picks[id],
                  storedMetrics: undefined,
                  reasoning: '',
                  personaSummary: '',
                  line: 1,
                },
              ],
            ]),
          },
        ]),
      ),
    ]),
  );
  const bench: Benchmark = { root: '/b', users, runs: new Map(), diagnostics: [], taskFiles: new Map() };
  bench.runs.set('m', { name: 'm', results, files: new Map() });
  return bench;
}

describe('the tree filtered to a sample', () => {
  const bench = fixture();
  const run = bench.runs.get('m')!;
  const sample = userSubset({ weibo: ['w3', 'w1'], zhihu: ['z1'] });

  it('lists only the sample users, in file order, and no platform without one', () => {
    expect([...usersShown(bench, 'weibo', sample).keys()]).toEqual(['w1', 'w3']);
    expect([...usersShown(bench, 'douban', sample).keys()]).toEqual([]);
    expect([...usersShown(bench, 'weibo', undefined).keys()]).toEqual(['w1', 'w2', 'w3']);
    const rows = platformRows(bench, scoreRun(bench, run, sample), sample);
    expect(rows.map((r) => [r.platform, r.users, r.description])).toEqual([
      // w1 R = 1, w3 R = 0: the macro average over the sample's users (Avg. below tells it from the whole)
      ['weibo', 2, '2 of 3 users · R 50.0%'],
      ['zhihu', 1, '1 of 1 user · R 50.0%'],
    ]);
    expect(platformRows(bench, undefined, sample).map((r) => r.description)).toEqual([
      '2 of 3 users · 2 steps',
      '1 of 1 user · 1 step',
    ]);
    // without a sample: every platform, counted as before
    expect(platformRows(bench, undefined).map((r) => r.description)).toEqual([
      '3 users · 3 steps',
      '1 user · 1 step',
      '1 user · 1 step',
    ]);
  });

  it('names the sample on the benchmark row, whose Avg. is over its users', () => {
    const whole = scoreRun(bench, run);
    const onSample = scoreRun(bench, run, userSubset({ weibo: ['w1'], zhihu: ['z1'] }));
    expect(benchmarkDescription(run, whole)).toBe('Avg. R 33.3% · run: m');
    expect(benchmarkDescription(run, onSample, 'sample s (2 users)')).toBe(
      'Avg. R 75.0% on sample s (2 users) · run: m',
    );
    expect(benchmarkDescription(undefined, undefined, 'sample s (2 users)')).toBe('no run · sample s (2 users)');
  });
});

describe('TreeMessage', () => {
  it('shows the sample part first, then the step filter, and nothing when both are cleared', () => {
    const view: { message: string | undefined } = { message: undefined };
    const m = new TreeMessage(view);
    m.set('steps', 'Filter: R = 0 — 3 step(s) match.');
    expect(view.message).toBe('Filter: R = 0 — 3 step(s) match.');
    m.set('sample', 'Sample s · 2 users.');
    expect(view.message).toBe('Sample s · 2 users. Filter: R = 0 — 3 step(s) match.');
    m.set('steps', undefined);
    expect(view.message).toBe('Sample s · 2 users.');
    m.set('sample', undefined);
    expect(view.message).toBeUndefined();
  });
});
