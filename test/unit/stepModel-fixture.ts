// The fixture of stepModel.test.ts: a small benchmark on disk (two weibo users, one douban user, one run) and the
// step model of one of its steps.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBenchmark, readPostsText } from '../../src/core/spb/format/load';
import { buildStepModel, type StepModel } from '../../src/core/spb/view/stepModel';
import type { Benchmark, Platform } from '../../src/core/spb/types';

const meta = {
  T_keep: ['#旅行#', '#摄影#'],
  T_new: ['#咖啡#'],
  D_decay: ['#考研#', '#期末#'],
  D_cluster: ['#风光摄影#', '#手冲#'],
  D_viral: ['#春晚#', '#热搜#'],
  D_random: ['#汽车#', '#股票#', '#宠物#'],
};
const pool = Object.values(meta).flat().reverse();
const posts =
  '[1] Content: 今天去拍了日落\nTags: #摄影# #日落#\n[2] Title: 周末\nContent: 第一行\n第二行\nTags: #旅行#';

function task(stepId: number, extra: Record<string, unknown> = {}) {
  return {
    step_id: stepId,
    total_steps: 3,
    date_input: `2024-03-0${stepId}`,
    date_target: `2024-03-1${stepId}`,
    posts_text: posts,
    candidate_pool: pool,
    meta,
    ground_truth: {},
    ...extra,
  };
}
function userLine(platform: Platform, userId: string, steps: unknown[], extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    user_id: userId,
    platform,
    username: 'U_0a1b2c3d',
    bio: '爱拍照',
    total_steps: steps.length,
    prediction_tasks: steps,
    ...extra,
  });
}
const result = (stepId: number, prediction: unknown[], persona: string, extra: Record<string, unknown> = {}) => ({
  step_id: stepId,
  prediction,
  ground_truth: [],
  metrics: null,
  reasoning: `reason ${stepId}`,
  persona_summary: persona,
  ...extra,
});

export async function fixture(): Promise<Benchmark> {
  const root = mkdtempSync(join(tmpdir(), 'pl-stepmodel-'));
  mkdirSync(join(root, 'data'));
  mkdirSync(join(root, 'results', 'run-a'), { recursive: true });
  const noPositives = { ...meta, T_keep: [], T_new: [] };
  writeFileSync(
    join(root, 'data', 'weibo_inference_tasks.jsonl'),
    [
      userLine('weibo', 'we_0000000001', [task(1), task(2), task(3)]),
      userLine(
        'weibo',
        'we_0000000002',
        [task(1, { meta: noPositives, candidate_pool: Object.values(noPositives).flat() })],
        { bio: '' },
      ),
      userLine('weibo', 'we_0000000003', []),
    ].join('\n') + '\n',
  );
  writeFileSync(
    join(root, 'data', 'douban_inference_tasks.jsonl'),
    userLine('douban', 'do_0000000001', [task(1), task(2)]) + '\n',
  );
  writeFileSync(
    join(root, 'results', 'run-a', 'inference_results_weibo.jsonl'),
    JSON.stringify({
      user_id: 'we_0000000001',
      platform: 'weibo',
      username: 'U_0a1b2c3d',
      steps: [
        // hit T_keep, hit T_new, wrong pick D_cluster, out of pool, duplicate, non-string
        result(1, ['#旅行#', '#咖啡#', '#手冲#', '#不存在#', '#旅行#', 7], '该用户是一名热爱摄影的大学生，关注旅行。', {
          metrics: {
            Recall: 0.5,
            Recall_Novelty: 1,
            Recall_Stability: 0.5,
            Error_Decay: 0,
            Error_Peer: 0.5,
            Error_Viral: 0,
            Error_Random: 0,
          },
        }),
        result(2, [], '', { reasoning: 'Error: timeout' }), // runner failure: no persona
        result(3, ['#摄影#'], '该用户是一名热爱风光摄影的研究生，关注旅行。', {
          metrics: {
            Recall: 0.9,
            Recall_Novelty: 0,
            Recall_Stability: 0.5,
            Error_Decay: 0,
            Error_Peer: 0,
            Error_Viral: 0,
            Error_Random: 0,
          },
        }),
      ],
    }) + '\n',
  );
  return loadBenchmark(root);
}

export function model(
  bench: Benchmark,
  platform: Platform,
  userId: string,
  stepId: number,
  runName: string | null = 'run-a',
): StepModel {
  const user = bench.users.get(platform)!.get(userId)!;
  const step = user.steps.find((s) => s.stepId === stepId)!;
  const run = runName ? bench.runs.get(runName) : undefined;
  return buildStepModel({ bench, user, step, run, postsText: readPostsText(user, step) });
}
