// The long-context baseline (paper, appendix E) against the scripted server: the concatenated posts under date
// headers, users with fewer than four steps left out, one request per user with no persona on the last step's pool,
// a results folder the loader reads cleanly, a stopped run resumed without re-asking, and the Table-7 figures equal
// to the paired summary computed directly on the same last steps.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLongContextCommand } from '../../src/cli/formats/spb/longContext';
import { runExperimentsCommand } from '../../src/cli/formats/spb/experiment';
import { runRunCommand, type RunCliIo } from '../../src/cli/run';
import { EXPERIMENTS_DB, ExperimentLog } from '../../src/core/spb/experiments/log';
import {
  LONG_CONTEXT_READING,
  longContextBench,
  longContextPosts,
  longContextReader,
  longContextRunName,
  longContextTable,
  longContextUsers,
} from '../../src/core/spb/experiments/longContext';
import { drawSample } from '../../src/core/spb/experiments/sample';
import { writeSample } from '../../src/core/experiments/sampleFile';
import { newSample } from '../../src/core/spb/experiments/sampleFile';
import { readJournalSteps } from '../../src/core/runner/journal';
import { JOURNAL_FILE } from '../../src/core/runner/runFolder';
import { renderStepRequest } from '../../src/core/spb/run/step';
import { readPostsText, loadBenchmark } from '../../src/core/spb/format/load';
import { COMPARE_RESAMPLES, COMPARE_SEED, pairedSummary } from '../../src/core/spb/score/pairedSummary';
import { compareRuns } from '../../src/core/spb/score/runCompare';
import { scoreStep } from '../../src/core/spb/score/step';
import { isPlatform, type Run, type UserResult } from '../../src/core/spb/types';
import {
  MARKER_TEMPLATE,
  reply,
  smartBody,
  startScriptedServer,
  writeTinyBench,
  type ScriptedServer,
} from '../support/scriptedServer';

let server: ScriptedServer;
let root: string;
const SHORT = 'we_0000000000'; // cut to three steps below

beforeAll(async () => {
  // Long-context prompts (they hold a date header) pick the kept and new tags (#k…#, #n…#), the streaming ones the
  // first k of the pool: a real difference between the two rows.
  server = await startScriptedServer((req) => {
    if (!req.prompt.includes('--- 2024-01-0')) return reply.smart();
    const pool = req.info.pool ?? [];
    return reply.json({ ...smartBody(req.info), predicted_tags: pool.filter((t) => /^#[kn]\d/.test(t)) });
  });
  root = writeTinyBench({ users: { weibo: 4, xiaohongshu: 3 }, steps: 5 }, 'longctx-');
  const file = join(root, 'data', 'weibo_inference_tasks.jsonl');
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  const first = JSON.parse(lines[0]) as { user_id: string; total_steps: number; prediction_tasks: unknown[] };
  expect(first.user_id).toBe(SHORT);
  first.total_steps = 3;
  first.prediction_tasks = (first.prediction_tasks as { total_steps: number }[])
    .slice(0, 3)
    .map((t) => ({ ...t, total_steps: 3 }));
  lines[0] = JSON.stringify(first);
  writeFileSync(file, lines.join('\n') + '\n');
  writeFileSync(join(root, 't.plprompt'), MARKER_TEMPLATE);
  const { sink } = io();
  const base = { out: 'stream', template: join(root, 't.plprompt'), 'base-url': server.baseURL, model: 'm' };
  expect(await runRunCommand([root], base, sink)).toBe(0);
  const bench = await loadBenchmark(root);
  writeSample(root, newSample(bench, 's', drawSample(bench, { users: 7, seed: 1 })));
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

function io(signal?: AbortSignal): { out: { stdout: string; stderr: string }; sink: RunCliIo } {
  const out = { stdout: '', stderr: '' };
  const env = { OPENAI_API_KEY: '', PERSONA_LAB_RETRY_BASE_MS: '1' };
  const sink = { stdout: (t: string) => void (out.stdout += t), stderr: (t: string) => void (out.stderr += t), env };
  return { out, sink: { ...sink, signal } };
}

const opts = (extra: Record<string, string | boolean> = {}) => ({
  template: join(root, 't.plprompt'),
  'base-url': server.baseURL,
  model: 'm',
  'base-run': 'stream',
  concurrency: '1',
  ...extra,
});

describe('long-context baseline (core)', () => {
  it('joins the posts of the steps before the last under their date_input headers', async () => {
    const bench = await loadBenchmark(root);
    const user = bench.users.get('weibo')!.get('we_0000000001')!;
    expect(user.steps).toHaveLength(5);
    expect(longContextPosts(user, readPostsText)).toBe(
      [1, 2, 3, 4].map((s) => `--- 2024-01-0${s} ---\n[1] Content: 用户1的第${s}批\nTags: #k1${s}#`).join('\n\n'),
    );
  });

  it('leaves out users with fewer than four steps', async () => {
    const bench = await loadBenchmark(root);
    const users = longContextUsers(bench);
    expect(users.weibo).toEqual(['we_0000000001', 'we_0000000002', 'we_0000000003']);
    expect(users.xiaohongshu).toHaveLength(3);
    expect(longContextUsers(bench, { weibo: [SHORT, 'we_0000000002'] })).toEqual({ weibo: ['we_0000000002'] });
    const view = longContextBench(bench, { weibo: [SHORT, 'we_0000000002'] });
    expect([...view.users.get('weibo')!.keys()]).toEqual(['we_0000000002']);
    expect(
      view.users
        .get('weibo')!
        .get('we_0000000002')!
        .steps.map((s) => s.stepId),
    ).toEqual([5]);
  });
});

describe('persona-lab long-context', () => {
  it('prints the estimate and sends nothing on --dry-run', async () => {
    const before = server.requests.length;
    const { out, sink } = io();
    expect(await runLongContextCommand([root], opts({ sample: 's', 'dry-run': true }), sink, false)).toBe(0);
    expect(server.requests.length).toBe(before);
    expect(out.stderr).toContain('6 users with ≥ 4 steps of sample s');
    expect(out.stderr).toMatch(/estimate: 6 requests, ~[\d,]+ prompt tokens/);
  });

  it('needs --base-run and refuses --persona', async () => {
    const { out, sink } = io();
    expect(await runLongContextCommand([root], { ...opts(), 'base-run': undefined }, sink, false)).toBe(2);
    expect(await runLongContextCommand([root], opts({ persona: 'full' }), sink, false)).toBe(2);
    expect(out.stderr).toContain('long-context needs --base-run RUN');
    expect(out.stderr).toContain('--persona does not apply');
  });

  it('runs one request per user, resumes without re-asking, and prints Table 7 equal to the paired summary', async () => {
    const template = MARKER_TEMPLATE;
    const name = longContextRunName('s', template);
    const controller = new AbortController();
    const first = io(controller.signal);
    const start = server.requests.length;
    void server.waitForRequests(start + 2).then(() => controller.abort());
    expect(await runLongContextCommand([root], opts({ sample: 's' }), first.sink, false)).toBe(130);
    const journal = () => [...readJournalSteps(join(root, 'results', name, JOURNAL_FILE), isPlatform).values()];
    const done = journal().map((e) => e.user);
    expect(done.length).toBeGreaterThan(0);
    expect(done.length).toBeLessThan(6);

    const mid = server.requests.length;
    const second = io();
    expect(await runLongContextCommand([root], opts({ sample: 's' }), second.sink, false)).toBe(0);
    const bench = await loadBenchmark(root, { runs: ['stream', name] });
    const byName = new Map(
      [...bench.users.values()].flatMap((m) => [...m.values()]).map((u) => [u.username, u] as const),
    );
    const asked = server.requests.slice(mid).map((r) => byName.get(r.info.user ?? '')!.userId);
    expect(asked.filter((id) => done.includes(id))).toEqual([]);
    expect(asked).toHaveLength(6 - done.length);
    expect(journal().map((e) => e.step)).toEqual([5, 5, 5, 5, 5, 5]);

    // Each request: the last step's pool, no persona (the renderer's cold-start text), the earlier posts.
    const users = longContextUsers(bench);
    const view = longContextBench(bench, users);
    for (const r of server.requests.slice(start)) {
      const original = byName.get(r.info.user ?? '')!;
      expect(original.userId).not.toBe(SHORT);
      const last = original.steps[4];
      expect(r.info.step).toBe(5);
      expect(r.info.pool).toEqual(last.pool);
      expect(r.prompt).toContain('--- 2024-01-04 ---');
      expect(r.prompt).not.toContain('--- 2024-01-05 ---');
      const expected = renderStepRequest({
        user: view.users.get(original.platform)!.get(original.userId)!,
        step: last,
        personaIn: null,
        template,
        readPosts: longContextReader(bench),
      });
      expect(r.prompt).toBe(expected.prompt);
    }

    // A normal results folder: the loader reads it without a problem, one step per user.
    const run = bench.runs.get(name)!;
    expect(bench.diagnostics.filter((d) => d.file.includes(name))).toEqual([]);
    expect([...run.results.values()].flatMap((m) => [...m.values()].map((u) => [...u.steps.keys()]))).toEqual(
      Array(6).fill([5]),
    );

    // Table 7: the paired summary computed directly on the same last steps.
    const stream = bench.runs.get('stream')!;
    const lastOnly = (r: Run): Run => ({
      ...r,
      results: new Map(
        [...r.results].map(([p, m]) => [
          p,
          new Map(
            [...m]
              .filter(([id]) => id !== SHORT)
              .map(([id, u]): [string, UserResult] => [id, { ...u, steps: new Map([[5, u.steps.get(5)!]]) }]),
          ),
        ]),
      ),
    });
    const cmp = compareRuns(bench, lastOnly(stream), lastOnly(run));
    const table = longContextTable(bench, stream, run, users);
    expect(table.pairedSteps).toBe(6);
    expect(table.onlyBase + table.onlyRun).toBe(0);
    expect(table.scopes.map((s) => s.scope)).toEqual(['weibo', 'xiaohongshu', 'all']);
    for (const { scope, rows } of table.scopes) {
      const direct = pairedSummary(cmp, scope, { resamples: COMPARE_RESAMPLES, seed: COMPARE_SEED });
      expect(rows).toEqual(direct.filter((r) => r.metric !== 'F1NS'));
    }
    // ... and the streaming row is the streaming run's last-step Recall (mean over users, then over platforms).
    const recall = (p: 'weibo' | 'xiaohongshu') => {
      const ids = users[p]!;
      const vals = ids.map((id) => {
        const u = bench.users.get(p)!.get(id)!;
        return scoreStep(u.steps[4].split, stream.results.get(p)!.get(id)!.steps.get(5)!.prediction)!.Recall;
      });
      return vals.reduce((a, b) => a + b, 0) / vals.length;
    };
    const avg = table.scopes.find((s) => s.scope === 'all')!.rows.find((r) => r.metric === 'Recall')!;
    expect(avg.meanA).toBeCloseTo((recall('weibo') + recall('xiaohongshu')) / 2, 12);
    expect(avg.meanB).toBe(1);
    expect(avg.meanA).toBeLessThan(1);
    expect(second.out.stdout).toMatch(/Avg\. \(6\)\s+streaming/);
    expect(second.out.stdout).toContain('long-context');
    expect(second.out.stdout).toContain('F1^NS is left out');
    expect(second.out.stdout).toMatch(/weibo: Recall 100\.0 \| 3 users/);
    expect(second.out.stdout).not.toContain('F1NS');
    expect(second.out.stdout).toContain(`${LONG_CONTEXT_READING}.`);

    // The experiment log's row (recordLongContext, as the extension records it): Table 7's rows and the cost.
    expect(second.out.stdout).toContain(`logged in ${join(root, EXPERIMENTS_DB)}`);
    const log = ExperimentLog.open(join(root, EXPERIMENTS_DB), { mustExist: true });
    const rows = log.list();
    log.close();
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({
      kind: 'long-context',
      run: name,
      baseRun: 'stream',
      sample: { name: 's', users: 6 },
      personaMode: 'none',
      endpoint: { model: 'm' },
    });
    expect(row.scopes).toEqual(table.scopes);
    expect(row.figures?.summary).toEqual(table.scopes.find((x) => x.scope === 'all')!.rows);
    expect(row.figures?.pairedSteps).toBe(6);
    const tokens = journal().reduce((n, e) => n + (e.prompt_tokens ?? 0), 0);
    expect(row.cost).toMatchObject({ requests: 6, steps: 6, promptTokens: tokens });
    expect(tokens).toBeGreaterThan(0);
    const listed = io();
    expect(await runExperimentsCommand([root], { json: true }, listed.sink)).toBe(0);
    expect((JSON.parse(listed.out.stdout) as { kind: string }[]).map((r) => r.kind)).toEqual(['long-context']);
  });
});
