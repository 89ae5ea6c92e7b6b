import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BASELINES,
  countTags,
  runBaseline,
  safeRunName,
  writeBaselineRun,
  type BaselineMethod,
} from '../../src/core/spb/baselines/baselines';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { kForPool } from '../../src/core/spb/score/step';
import type { Benchmark, Platform, PoolSplit, Step, User } from '../../src/core/spb/types';

const POOL8 = ['#e#', '#d#', '#c#', '#a#', '#b#', '#f#', '#g#', '#h#'];
const POOL14 = ['#h#', '#a#', '#g#', '#c#', '#b#', '#f#', '#e#', '#d#', '#i#', '#j#', '#k#', '#l#', '#m#', '#n#'];
const SPLIT2: PoolSplit = {
  tKeep: ['#b#'],
  tNew: ['#f#'],
  dDecay: ['#a#'],
  dPeer: ['#c#'],
  dViral: ['#d#', '#e#'],
  dRandom: ['#g#', '#h#'],
};
const EMPTY: PoolSplit = { tKeep: [], tNew: [], dDecay: [], dPeer: [], dViral: [], dRandom: [] };

const POSTS = [
  '[1] Content: 一\nTags: #a# #b#\n[2] Content: 二\nTags: #b#', // a1 b2
  '[1] Content: 三\nTags: #c# #b#\n[2] Content: 四\nTags: #zzz#', // c1 b1
  '[1] Content: 五\nTags: #d# #d# #e#', // d2 e1
];

function mkStep(index: number, pool: string[], split: PoolSplit = EMPTY): Step {
  return { stepId: index + 1, totalSteps: 3, dateInput: '', dateTarget: '', pool, split, index };
}

function mkUser(userId: string, platform: Platform = 'weibo'): User {
  return {
    userId,
    platform,
    username: 'U_00000000',
    bio: '',
    totalSteps: 3,
    file: 'x',
    ref: { file: 'x', offset: 0, length: 0, line: 1 },
    steps: [mkStep(0, POOL8, SPLIT2), mkStep(1, POOL8, SPLIT2), mkStep(2, POOL14)],
  };
}

function mkBench(users: User[]): Benchmark {
  const map = new Map<Platform, Map<string, User>>();
  for (const u of users) {
    if (!map.has(u.platform)) map.set(u.platform, new Map());
    map.get(u.platform)!.set(u.userId, u);
  }
  return {
    root: mkdtempSync(join(tmpdir(), 'baselines-')),
    users: map,
    runs: new Map(),
    diagnostics: [],
    taskFiles: new Map(),
  };
}

const readPosts = (_user: User, step: Step) => POSTS[step.index];
const bench = mkBench([mkUser('we_0000000001'), mkUser('we_0000000002'), mkUser('xi_0000000003', 'xiaohongshu')]);
const picks = (method: BaselineMethod, seed?: string) =>
  [...runBaseline(bench, method, { readPosts, seed }).values()].flat().map((u) => u.steps.map((s) => s.prediction));

describe('countTags', () => {
  it('counts Tags: occurrences', () => {
    expect([...countTags(POSTS.slice(0, 2))]).toEqual([
      ['a', 1],
      ['b', 3],
      ['c', 1],
      ['zzz', 1],
    ]);
  });
});

describe('runBaseline', () => {
  it.each(Object.keys(BASELINES) as BaselineMethod[])(
    '%s picks exactly k distinct in-pool tags, deterministically',
    (method) => {
      const out = runBaseline(bench, method, { readPosts });
      expect([...out.keys()]).toEqual(['weibo', 'xiaohongshu']);
      for (const [platform, records] of out) {
        for (const rec of records) {
          const user = bench.users.get(platform)!.get(rec.user_id)!;
          rec.steps.forEach((s, i) => {
            const pool = user.steps[i].pool;
            expect(s.prediction).toHaveLength(kForPool(pool.length));
            expect(new Set(s.prediction).size).toBe(s.prediction.length);
            for (const t of s.prediction) expect(pool).toContain(t);
            expect(s.persona_summary).toContain(`Baseline ${method}`);
          });
        }
      }
      expect(picks(method)).toEqual(picks(method));
    },
  );

  it('history-frequency ranks by counts in earlier batches, ties in pool order', () => {
    const rec = runBaseline(bench, 'history-frequency', { readPosts }).get('weibo')![0];
    expect(rec.steps.map((s) => s.prediction)).toEqual([
      ['#e#', '#d#'], // no history: pool order
      ['#b#', '#a#'], // B1: b2 a1
      ['#b#', '#a#', '#c#', '#h#'], // B1+B2: b3, a1 and c1 (a first in this pool), then pool order; k = round(3.5) = 4
    ]);
    expect(rec.steps[2].reasoning).toContain('#b# x3');
  });

  it('recent-batch ranks by counts in the current batch', () => {
    const rec = runBaseline(bench, 'recent-batch', { readPosts }).get('weibo')![0];
    expect(rec.steps.map((s) => s.prediction)).toEqual([
      ['#b#', '#a#'],
      ['#c#', '#b#'], // c1 b1: tie, c comes first in the pool
      ['#d#', '#e#', '#h#', '#a#'],
    ]);
  });

  it('scores with the reference metrics and writes null for unscored steps', () => {
    const rec = runBaseline(bench, 'history-frequency', { readPosts }).get('weibo')![0];
    expect(rec.steps[1].ground_truth).toEqual(['#f#', '#b#']);
    expect(rec.steps[1].metrics).toEqual({
      Recall: 0.5,
      Recall_Novelty: 0,
      Recall_Stability: 1,
      Error_Decay: 1,
      Error_Peer: 0,
      Error_Viral: 0,
      Error_Random: 0,
    });
    expect(rec.steps[2].metrics).toBeNull();
  });

  it('random is independent of iteration order and depends on the seed', () => {
    const reversed = mkBench([
      mkUser('xi_0000000003', 'xiaohongshu'),
      mkUser('we_0000000002'),
      mkUser('we_0000000001'),
    ]);
    const a = runBaseline(bench, 'random', { readPosts, seed: 's' })
      .get('weibo')!
      .find((u) => u.user_id === 'we_0000000001');
    const b = runBaseline(reversed, 'random', { readPosts, seed: 's' })
      .get('weibo')!
      .find((u) => u.user_id === 'we_0000000001');
    expect(b!.steps.map((s) => s.prediction)).toEqual(a!.steps.map((s) => s.prediction));
    expect(picks('random', 's')).not.toEqual(picks('random', 't'));
  });

  it('copes with a duplicated or empty pool and a failing reader', () => {
    const u = mkUser('we_0000000009');
    u.steps = [mkStep(0, ['#a#', '#a#', '#b#', '#c#']), mkStep(1, [])];
    const out = runBaseline(mkBench([u]), 'history-frequency', {
      readPosts: () => {
        throw new Error('gone');
      },
    });
    expect(out.get('weibo')![0].steps.map((s) => s.prediction)).toEqual([['#a#'], []]);
    expect(runBaseline(bench, 'nope' as BaselineMethod).size).toBe(0);
  });
});

describe('writeBaselineRun', () => {
  it('writes one results file per platform under results/<name>/', async () => {
    const paths = await writeBaselineRun(bench, 'recent-batch', 'base/../line', { readPosts });
    expect(paths.map((p) => p.slice(bench.root.length))).toEqual([
      '/results/base_.._line/inference_results_weibo.jsonl',
      '/results/base_.._line/inference_results_xiaohongshu.jsonl',
    ]);
    const lines = readFileSync(paths[0], 'utf8').split('\n');
    expect(lines).toHaveLength(3); // two users and the final newline
    expect(lines[0]).toMatch(
      /^\{"user_id": "we_0000000001", "platform": "weibo", "username": "U_00000000", "steps": \[\{"step_id": 1, "prediction": \["#b#", "#a#"\]/,
    );
    expect(lines[0]).toContain('"metrics": {"Recall": 0.5, "Recall_Novelty": 0.0, "Recall_Stability": 1.0,');
    expect(safeRunName('..', 'random')).toBe('baseline-random');
  });

  it('works end to end with the loader reading posts from disk', async () => {
    const root = mkdtempSync(join(tmpdir(), 'baselines-disk-'));
    mkdirSync(join(root, 'data'));
    const meta = {
      T_keep: ['#b#'],
      T_new: ['#f#'],
      D_decay: ['#a#'],
      D_cluster: ['#c#'],
      D_viral: ['#d#', '#e#'],
      D_random: ['#g#', '#h#'],
    };
    const tasks = POSTS.slice(0, 2).map((posts_text, i) => ({
      step_id: i + 1,
      total_steps: 2,
      date_input: '2024-01-01',
      date_target: '2024-01-02',
      posts_text,
      candidate_pool: POOL8,
      meta,
    }));
    const line = {
      user_id: 'we_00000000aa',
      platform: 'weibo',
      username: 'U_00000000',
      bio: '',
      total_steps: 2,
      prediction_tasks: tasks,
    };
    writeFileSync(join(root, 'data', 'weibo_inference_tasks.jsonl'), JSON.stringify(line) + '\n');
    const loaded = await loadBenchmark(root);
    const rec = runBaseline(loaded, 'history-frequency').get('weibo')![0];
    expect(rec.steps.map((s) => s.prediction)).toEqual([
      ['#e#', '#d#'],
      ['#b#', '#a#'],
    ]);
  });
});
