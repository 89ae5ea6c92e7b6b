import { describe, expect, it } from 'vitest';
import {
  describeFilter,
  findStep,
  isFilterActive,
  matchesFilter,
  normalizeFilter,
  orderedSteps,
  signaturesOf,
  type FilterSource,
} from '../../src/core/spb/labels/filter';
import type { LabelRow } from '../../src/core/labels/model';
import { StepLabelIndex } from '../../src/core/labels/stepIndex';
import type { Benchmark, Platform, PoolSplit, Step, StepResult, User } from '../../src/core/spb/types';

const split = (s: Partial<PoolSplit>): PoolSplit => ({
  tKeep: [],
  tNew: [],
  dDecay: [],
  dPeer: [],
  dViral: [],
  dRandom: [],
  ...s,
});
// |C| = 8, k = 2: two positives, six distractors.
const eight = split({
  tKeep: ['k1'],
  tNew: ['n1'],
  dDecay: ['d1', 'd2'],
  dPeer: ['p1'],
  dViral: ['v1'],
  dRandom: ['r1', 'r2'],
});

function mkStep(stepId: number, s: PoolSplit = eight): Step {
  return {
    stepId,
    totalSteps: 3,
    dateInput: '2024-01-01',
    dateTarget: '2024-01-08',
    pool: Object.values(s).flat(),
    split: s,
    index: stepId - 1,
  };
}
function mkUser(platform: Platform, userId: string, n: number): User {
  return {
    userId,
    platform,
    username: 'U_00000000',
    bio: '',
    totalSteps: n,
    steps: Array.from({ length: n }, (_, i) => mkStep(i + 1)),
    file: `data/${platform}_inference_tasks.jsonl`,
    ref: { file: '/x', offset: 0, length: 0, line: 1 },
  };
}
const result = (prediction: unknown[], reasoning = ''): StepResult => ({
  stepId: 1,
  prediction,
  storedMetrics: undefined,
  reasoning,
  personaSummary: '',
  line: 1,
});

describe('failure signatures', () => {
  const step = mkStep(1);
  it('finds a decay pick, R = 0 and format errors in a result', () => {
    expect([...signaturesOf(step, result(['k1', 'n1']))]).toEqual([]);
    expect([...signaturesOf(step, result(['k1', 'd2']))]).toEqual(['decayPick']);
    expect([...signaturesOf(step, result(['d1', 'p1']))].sort()).toEqual(['decayPick', 'recallZero']);
    // Three picks where k = 2, one out of the pool.
    expect([...signaturesOf(step, result(['k1', 'n1', 'zz']))]).toEqual(['formatError']);
    // The runner's error record: no picks, R = 0, a format error and a failed request.
    expect([...signaturesOf(step, result([], 'Error: timeout'))].sort()).toEqual([
      'failedRequest',
      'formatError',
      'recallZero',
    ]);
    // An empty reply that is no error record is not a failed request.
    expect(signaturesOf(step, result([], 'nothing fits')).has('failedRequest')).toBe(false);
  });

  it('has none without a result, and no R = 0 on an unscored step', () => {
    expect(signaturesOf(step, undefined).size).toBe(0);
    const unscored = mkStep(1, split({ dDecay: ['d1'], dRandom: ['r1', 'r2', 'r3'] }));
    expect([...signaturesOf(unscored, result(['r1']))]).toEqual([]);
  });
});

describe('matchesFilter', () => {
  const u = mkUser('weibo', 'we_0000000001', 3);
  const row = (stepId: number, label: string, run = 'gpt'): LabelRow => ({
    benchmark: 'b',
    platform: 'weibo',
    userId: u.userId,
    stepId,
    run,
    author: 'me',
    target: { kind: 'step' },
    label,
    note: '',
    createdAt: '',
    contentHash: '',
  });
  const indexes = new Map([
    ['gpt', new StepLabelIndex([row(1, 'decay-error'), row(1, 'format-error'), row(2, 'peer-confusion')])],
    ['llama', new StepLabelIndex([row(3, 'decay-error', 'llama')])],
  ]);
  const results = new Map<string, Map<number, StepResult>>([
    [
      'gpt',
      new Map([
        [1, result(['d1', 'k1'])],
        [2, result(['p1', 'r1'])],
        [3, result(['k1', 'n1'])],
      ]),
    ],
    [
      'llama',
      new Map([
        [1, result(['k1', 'n1'])],
        [3, result(['d1', 'd2'])],
      ]),
    ],
  ]);
  const src: FilterSource = {
    selectedRun: 'gpt',
    labelsOf: (run, user, step) =>
      (indexes.get(run) ?? StepLabelIndex.empty).labelsOf(user.platform, user.userId, step.stepId),
    resultOf: (run, _user, step) => results.get(run)?.get(step.stepId),
  };
  const which = (f: object) => u.steps.filter((s) => matchesFilter(normalizeFilter(f), src, u, s)).map((s) => s.stepId);

  it('ORs inside a group and ANDs across groups, in the selected run by default', () => {
    expect(which({})).toEqual([1, 2, 3]);
    expect(which({ labels: ['decay-error'] })).toEqual([1]);
    expect(which({ labels: ['decay-error', 'peer-confusion'] })).toEqual([1, 2]);
    expect(which({ unlabelled: true })).toEqual([3]);
    expect(which({ unlabelled: true, labels: ['peer-confusion'] })).toEqual([2, 3]);
    expect(which({ signatures: ['decayPick'] })).toEqual([1]);
    expect(which({ signatures: ['recallZero'] })).toEqual([2]);
    expect(which({ signatures: ['recallZero', 'decayPick'] })).toEqual([1, 2]);
    expect(which({ labels: ['decay-error'], signatures: ['recallZero'] })).toEqual([]);
  });

  it('judges labels and results in the runs named, a step matching in any of them', () => {
    expect(which({ runs: ['llama'], labels: ['decay-error'] })).toEqual([3]);
    expect(which({ runs: ['llama'], signatures: ['recallZero'] })).toEqual([3]);
    expect(which({ runs: ['gpt', 'llama'], labels: ['decay-error'] })).toEqual([1, 3]);
    // No result in the run: no signature.
    expect(which({ runs: ['llama'], signatures: ['decayPick'] })).toEqual([3]);
  });

  it('normalizes, describes and knows when it is active', () => {
    expect(
      normalizeFilter({ labels: ['a', 'a', 3, ''], signatures: ['nope', 'recallZero'], unlabelled: 'yes' }),
    ).toEqual({ labels: ['a'], unlabelled: false, signatures: ['recallZero'], runs: [] });
    expect(isFilterActive(normalizeFilter(undefined))).toBe(false);
    expect(isFilterActive(normalizeFilter({ runs: ['gpt'] }))).toBe(true);
    const names = new Map([['decay-error', 'D_decay pick']]);
    expect(
      describeFilter(
        normalizeFilter({ labels: ['decay-error'], unlabelled: true, signatures: ['recallZero'], runs: ['gpt'] }),
        names,
      ),
    ).toBe('label D_decay pick or unlabelled · R = 0 · run gpt');
    expect(describeFilter(normalizeFilter({ unlabelled: true }))).toBe('unlabelled');
  });
});

describe('step order', () => {
  const a = mkUser('weibo', 'we_a', 2);
  const b = mkUser('weibo', 'we_b', 1);
  const c = mkUser('zhihu', 'zh_c', 2);
  const bench: Benchmark = {
    root: '/b',
    runs: new Map(),
    diagnostics: [],
    taskFiles: new Map(),
    // Inserted out of platform order: the tree's order is the spec's platform order.
    users: new Map<Platform, Map<string, User>>([
      ['zhihu', new Map([[c.userId, c]])],
      [
        'weibo',
        new Map([
          [a.userId, a],
          [b.userId, b],
        ]),
      ],
    ]),
  };
  const order = orderedSteps(bench);
  const name = (o: { user: User; step: Step } | undefined) => (o ? `${o.user.userId}#${o.step.stepId}` : 'none');

  it('lists platforms, users and steps in tree order', () => {
    expect(order.map(name)).toEqual(['we_a#1', 'we_a#2', 'we_b#1', 'zh_c#1', 'zh_c#2']);
  });

  it('follows the users order the tree is sorted in, leaving out ids it does not know', () => {
    const sorted = orderedSteps(bench, (p) => (p === 'weibo' ? ['we_b', 'we_x', 'we_a'] : ['zh_c']));
    expect(sorted.map(name)).toEqual(['we_b#1', 'we_a#1', 'we_a#2', 'zh_c#1', 'zh_c#2']);
  });

  it('finds the next and previous matching step across users, with or without going round', () => {
    const all = () => true;
    const at = (userId: string, stepId: number) => ({
      platform: (userId.startsWith('zh') ? 'zhihu' : 'weibo') as Platform,
      userId,
      stepId,
    });
    expect(name(findStep(order, at('we_a', 2), 1, all, false))).toBe('we_b#1');
    expect(name(findStep(order, at('we_b', 1), -1, all, false))).toBe('we_a#2');
    expect(name(findStep(order, at('zh_c', 2), 1, all, false))).toBe('none');
    expect(name(findStep(order, at('zh_c', 2), 1, all, true))).toBe('we_a#1');
    expect(name(findStep(order, undefined, 1, all, false))).toBe('we_a#1');
    expect(name(findStep(order, undefined, -1, all, false))).toBe('zh_c#2');
    const onlyFirst = (o: { step: Step }) => o.step.stepId === 1;
    expect(name(findStep(order, at('we_b', 1), 1, onlyFirst, true))).toBe('zh_c#1');
    // Going round, the start comes last.
    expect(name(findStep(order, at('we_a', 2), 1, (o) => o.user.userId === 'we_a' && o.step.stepId === 2, true))).toBe(
      'we_a#2',
    );
    expect(name(findStep(order, at('we_a', 1), 1, () => false, true))).toBe('none');
  });
});

describe('StepLabelIndex', () => {
  it('counts labelled steps per user and platform, with distinct labels per step', () => {
    const r = (platform: string, userId: string, stepId: number, label: string, tag?: string): LabelRow => ({
      benchmark: 'b',
      platform,
      userId,
      stepId,
      run: 'r',
      author: 'a',
      target: tag ? { kind: 'tag', tag } : { kind: 'step' },
      label,
      note: '',
      createdAt: '',
      contentHash: '',
    });
    const idx = new StepLabelIndex([
      r('weibo', 'u1', 1, 'x'),
      r('weibo', 'u1', 1, 'x', '#t#'),
      r('weibo', 'u1', 1, 'y'),
      r('weibo', 'u1', 2, 'x'),
      r('weibo', 'u2', 1, 'z'),
      r('zhihu', 'u3', 4, 'x'),
    ]);
    expect(idx.labelsOf('weibo', 'u1', 1)).toEqual(['x', 'y']);
    expect(idx.labelsOf('weibo', 'u1', 3)).toEqual([]);
    expect(idx.labelledStepsOfUser('weibo', 'u1')).toBe(2);
    expect(idx.labelledStepsOfPlatform('weibo')).toBe(3);
    expect(idx.labelledStepsOfPlatform('douban')).toBe(0);
    expect(idx.labelledSteps).toBe(4);
  });
});
