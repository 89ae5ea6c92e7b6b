import { describe, expect, it } from 'vitest';
import { scoreRun } from '../../src/core/spb/score/run';
import { METRIC_NAMES } from '../../src/core/spb/names';
import type { Benchmark, Platform, PoolSplit, Run, Step, StepResult, User, UserResult } from '../../src/core/spb/types';
import { sortSpbUsers } from '../../src/core/spb/view/userOrder';
import {
  benchmarkDescription,
  figuresTable,
  findUser,
  nodeId,
  orderNote,
  parseUserQuery,
  pct,
  platformRows,
  shownFigure,
  stepDates,
  stepRows,
  stepStatus,
  userFigures,
  userRows,
} from '../../src/extension/benchmarks/spb/treeModel';

const split = (s: Partial<PoolSplit>): PoolSplit => ({
  tKeep: [],
  tNew: [],
  dDecay: [],
  dPeer: [],
  dViral: [],
  dRandom: [],
  ...s,
});

function mkStep(stepId: number, s: PoolSplit, dates: [string, string] = ['2024-01-01', '2024-01-08']): Step {
  const pool = Object.values(s).flat();
  return { stepId, totalSteps: 3, dateInput: dates[0], dateTarget: dates[1], pool, split: s, index: stepId - 1 };
}

function mkUser(platform: Platform, userId: string, steps: Step[]): User {
  return {
    userId,
    platform,
    username: 'U_00000000',
    bio: '',
    totalSteps: steps.length,
    steps,
    file: `data/${platform}_inference_tasks.jsonl`,
    ref: { file: '/x', offset: 0, length: 0, line: 1 },
  };
}

function mkResult(stepId: number, prediction: string[]): StepResult {
  return { stepId, prediction, storedMetrics: undefined, reasoning: '', personaSummary: '', line: 1 };
}

const both = split({
  tKeep: ['k1', 'k2'],
  tNew: ['n1', 'n2'],
  dDecay: ['d1'],
  dPeer: ['p1'],
  dViral: ['v1'],
  dRandom: ['r1'],
});
const empty = split({ dDecay: ['d1'], dRandom: ['r1'] });

/** weibo: u1 (3 steps: all hit, some hit, unscored), u2 (1 step, no result); zhihu: u3 (no results file). */
function fixture(): { bench: Benchmark; run: Run } {
  const u1 = mkUser('weibo', 'we_0000000001', [
    mkStep(1, both),
    mkStep(2, both, ['2024-02-01', '2024-02-01']),
    mkStep(3, empty),
  ]);
  const u2 = mkUser('weibo', 'we_0000000002', [mkStep(1, both)]);
  const u3 = mkUser('zhihu', 'zh_0000000003', [mkStep(1, both)]);
  const bench: Benchmark = {
    root: '/bench',
    users: new Map([
      [
        'weibo',
        new Map([
          [u1.userId, u1],
          [u2.userId, u2],
        ]),
      ],
      ['zhihu', new Map([[u3.userId, u3]])],
    ]),
    runs: new Map(),
    diagnostics: [],
    taskFiles: new Map(),
  };
  const r1: UserResult = {
    userId: u1.userId,
    platform: 'weibo',
    username: '',
    file: 'r',
    line: 1,
    steps: new Map([
      [1, mkResult(1, ['k1', 'k2', 'n1', 'n2'])],
      [2, mkResult(2, ['k1', 'd1', 'x-outside', 'k1'])],
      [3, mkResult(3, ['d1'])],
    ]),
  };
  const run: Run = {
    name: 'm1',
    results: new Map([['weibo', new Map([[u1.userId, r1]])]]),
    files: new Map([['weibo', 'results/m1/inference_results_weibo.jsonl']]),
  };
  bench.runs.set(run.name, run);
  return { bench, run };
}

describe('pct', () => {
  it('formats fractions as percent with one decimal and undefined as a dash', () => {
    expect(pct(0.4567)).toBe('45.7%');
    expect(pct(1)).toBe('100.0%');
    expect(pct(0)).toBe('0.0%');
    expect(pct(NaN)).toBe('—');
    expect(pct(undefined)).toBe('—');
  });
});

describe('tree rows', () => {
  it('platform rows: the user count and the Recall of the run (steps without a run), or a note without results', () => {
    const { bench, run } = fixture();
    const rows = platformRows(bench, scoreRun(bench, run));
    expect(rows.map((r) => [r.label, r.description])).toEqual([
      // u1: step 1 R=1 (nov 1, stab 1), step 2 R=0.25 (nov 0, stab 0.5) -> R 0.625; a=0.5, b=0.75 -> F1 0.6
      // we_0000000002 has no result: the figure is over one of the two users and 3 of the 4 steps, and says so in the
      // core's coverage words.
      ['Weibo', 'R 62.5% over 1 of 2 users, 3 of 4 steps'],
      ['Zhihu', '1 user · no results in run'],
    ]);
    expect(rows[0].score?.f1ns).toBeCloseTo(0.6, 12);
    expect(platformRows(bench, undefined).map((r) => r.description)).toEqual(['2 users · 4 steps', '1 user · 1 step']);
  });

  it('the run row says what a partial run covers, right after its figure; a whole run says nothing more', () => {
    const { bench, run } = fixture();
    expect(benchmarkDescription(run, scoreRun(bench, run))).toBe(
      'Avg. R 62.5% over 1 of 3 users, 3 of 5 steps · run: m1',
    );
    // the same picks for every step of every user: whole, no note
    const whole: Run = {
      name: 'all',
      results: new Map(
        [...bench.users].map(([p, users]) => [
          p,
          new Map(
            [...users.values()].map((u) => [
              u.userId,
              {
                userId: u.userId,
                platform: p,
                username: '',
                file: 'r',
                line: 1,
                steps: new Map(u.steps.map((s) => [s.stepId, mkResult(s.stepId, ['k1'])])),
              },
            ]),
          ),
        ]),
      ),
      files: new Map(),
    };
    expect(benchmarkDescription(whole, scoreRun(bench, whole))).toBe('Avg. R 25.0% · run: all');
    expect(platformRows(bench, scoreRun(bench, whole)).map((r) => r.description)).toEqual([
      '2 users · R 25.0%',
      '1 user · R 25.0%',
    ]);
  });

  it('user rows: one figure of the user score looked up from the run score (R unless another is asked for)', () => {
    const { bench, run } = fixture();
    const score = scoreRun(bench, run).platforms.get('weibo');
    const users = bench.users.get('weibo')!;
    expect(userRows(users, score, true).map((r) => [r.user.userId, r.description])).toEqual([
      ['we_0000000001', 'R 62.5%'],
      ['we_0000000002', 'not scored'],
    ]);
    expect(userRows(users, score, true, 'F1NS')[0].description).toBe('F1^NS 60.0%');
    expect(userRows(users, score, true, 'Recall_Novelty')[0].description).toBe('R_nov 50.0%');
    // D_decay {d1}: step 1 picks none of it (0), step 2 picks d1 (1), step 3 is not scored: Err_decay 0.5
    expect(userRows(users, score, true, 'Error_Decay')[0].description).toBe('Err_decay 50.0%');
    expect(userRows(users, undefined, false)[0].description).toBe('3 steps');
  });

  it('the shown figure and the platform note follow the order', () => {
    expect(shownFigure({ key: 'file', direction: 'ascending' })).toBe('Recall');
    expect(shownFigure({ key: 'id', direction: 'ascending' })).toBe('Recall');
    expect(shownFigure({ key: 'labelled', direction: 'descending' })).toBe('Recall');
    expect(shownFigure({ key: 'Error_Peer', direction: 'descending' })).toBe('Error_Peer');
    expect(orderNote({ key: 'file', direction: 'ascending' })).toBeUndefined();
    expect(orderNote({ key: 'file', direction: 'descending' })).toBe('file order reversed');
    expect(orderNote({ key: 'id', direction: 'ascending' })).toBe('by id A → Z');
    expect(orderNote({ key: 'id', direction: 'descending' })).toBe('by id Z → A');
    expect(orderNote({ key: 'labelled', direction: 'descending' })).toBe('labelled first');
    expect(orderNote({ key: 'F1NS', direction: 'ascending' })).toBe('by F1^NS ↑');
    expect(orderNote({ key: 'Error_Viral', direction: 'descending' })).toBe('by Err_viral ↓');
  });

  it('figures table: every figure named in words and by symbol with its definition, undefined as a dash, absent keys left out', () => {
    const { bench, run } = fixture();
    const u1 = scoreRun(bench, run).platforms.get('weibo')!.userScores.get('we_0000000001')!;
    const table = figuresTable(userFigures(u1)).split('\n');
    const def = (key: keyof typeof METRIC_NAMES) => METRIC_NAMES[key].definition;
    expect(table).toEqual([
      '| Figure | Value | What it is |',
      '|---|---:|---|',
      `| Recall (R) | 62.5% | ${def('Recall')} |`,
      `| F1 of novelty and stability recall (F1^NS) | 60.0% | ${def('F1NS')} |`,
      `| Stability recall (R_stab) | 75.0% | ${def('Recall_Stability')} |`,
      `| Novelty recall (R_nov) | 50.0% | ${def('Recall_Novelty')} |`,
      `| Decay error rate (Err_decay) | 50.0% | ${def('Error_Decay')} |`,
      `| Peer error rate (Err_peer) | 0.0% | ${def('Error_Peer')} |`,
      `| Viral error rate (Err_viral) | 0.0% | ${def('Error_Viral')} |`,
      `| Random error rate (Err_random) | 0.0% | ${def('Error_Random')} |`,
    ]);
    expect(figuresTable({ Recall: NaN, Error_Peer: undefined }).split('\n').slice(2)).toEqual([
      `| Recall (R) | — | ${def('Recall')} |`,
      `| Peer error rate (Err_peer) | — | ${def('Error_Peer')} |`,
    ]);
  });

  it('step rows: label, Recall (dates without a run) and status', () => {
    const { bench, run } = fixture();
    const [u1, u2] = bench.users.get('weibo')!.values();
    expect(stepRows(run, u1).map((r) => [r.label, r.description, r.status])).toEqual([
      ['step 1', 'R 100.0%', 'all'],
      ['step 2', 'R 25.0%', 'some'],
      ['step 3', 'not scored', 'unscored'],
    ]);
    expect(stepRows(run, u2).map((r) => [r.description, r.status])).toEqual([['no result', 'unscored']]);
    expect(stepRows(undefined, u2)[0].description).toBe('2024-01-01 → 2024-01-08');
    expect(stepDates(u1.steps[1])).toBe('2024-02-01');
  });

  it('step status covers all four cases', () => {
    const m = (Recall: number) => ({
      Recall,
      Recall_Novelty: NaN,
      Recall_Stability: NaN,
      Error_Decay: NaN,
      Error_Peer: NaN,
      Error_Viral: NaN,
      Error_Random: NaN,
    });
    expect([
      stepStatus(m(1)),
      stepStatus(m(0.5)),
      stepStatus(m(0)),
      stepStatus(null),
      stepStatus(undefined),
      stepStatus(m(NaN)),
    ]).toEqual(['all', 'some', 'none', 'unscored', 'unscored', 'unscored']);
  });

  it('ids are stable strings per level', () => {
    expect([
      nodeId.benchmark(),
      nodeId.platform('weibo'),
      nodeId.user('weibo', 'we_1'),
      nodeId.step('weibo', 'we_1', 2),
    ]).toEqual(['benchmark', 'platform/weibo', 'user/weibo/we_1', 'step/weibo/we_1/2']);
  });

  it('builds the rows of a platform with 7,000 users from the Map and the precomputed user scores', () => {
    const users = new Map<string, User>();
    const results = new Map<string, UserResult>();
    for (let i = 0; i < 7000; i++) {
      const id = `xi_${i.toString(16).padStart(10, '0')}`;
      users.set(id, mkUser('xiaohongshu', id, [mkStep(1, both), mkStep(2, both)]));
      results.set(id, {
        userId: id,
        platform: 'xiaohongshu',
        username: '',
        file: 'r',
        line: i + 1,
        steps: new Map([[1, mkResult(1, i % 2 ? ['k1'] : [])]]),
      });
    }
    const bench: Benchmark = {
      root: '/b',
      users: new Map([['xiaohongshu', users]]),
      runs: new Map(),
      diagnostics: [],
      taskFiles: new Map(),
    };
    const run: Run = { name: 'm', results: new Map([['xiaohongshu', results]]), files: new Map() };
    const score = scoreRun(bench, run).platforms.get('xiaohongshu')!;
    const t0 = performance.now();
    const rows = userRows(users, score, true);
    const ms = performance.now() - t0;
    console.log(`userRows for 7,000 users: ${ms.toFixed(1)} ms`);
    expect(rows).toHaveLength(7000);
    expect(rows[0].description).toBe('R 0.0%');
    expect(rows[1].description).toBe('R 25.0%');
    expect(userRows(users, score, true, 'F1NS')[1].description).toBe('F1^NS 0.0%'); // a = 0, b = 0.5: counts, as 0
    expect(rows[6999].user.userId).toBe([...users.keys()][6999]);
    const t1 = performance.now();
    const sorted = sortSpbUsers(rows, { key: 'Recall', direction: 'descending' }, () => false);
    console.log(`sorting 7,000 users by R: ${(performance.now() - t1).toFixed(1)} ms`);
    // Odd users scored R 0.25, even ones R 0: the odd ones first, each half by id.
    expect(sorted.slice(0, 2).map((r) => r.user.userId)).toEqual(['xi_0000000001', 'xi_0000000003']);
    expect(sorted[3500].user.userId).toBe('xi_0000000000');
  });
});

describe('reveal helpers', () => {
  it('parses a user id with an optional step number', () => {
    expect(parseUserQuery('we_16d82b9a92')).toEqual({ userId: 'we_16d82b9a92' });
    expect(parseUserQuery('  we_16d82b9a92 3 ')).toEqual({ userId: 'we_16d82b9a92', stepId: 3 });
    expect(parseUserQuery('we_16d82b9a92#12')).toEqual({ userId: 'we_16d82b9a92', stepId: 12 });
    expect(parseUserQuery('we_16d82b9a92:2')).toEqual({ userId: 'we_16d82b9a92', stepId: 2 });
    expect(parseUserQuery('we_16d82b9a92 step 2')).toEqual({ userId: 'we_16d82b9a92', stepId: 2 });
    expect(parseUserQuery('')).toBeUndefined();
    expect(parseUserQuery('a b c')).toBeUndefined();
  });

  it('finds a user on any platform', () => {
    const { bench } = fixture();
    expect(findUser(bench, 'zh_0000000003')?.platform).toBe('zhihu');
    expect(findUser(bench, 'nope')).toBeUndefined();
  });
});
