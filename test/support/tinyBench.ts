// A tiny StreamProfileBench on disk for the runner tests and the extension e2e (writeTinyBench), and the results
// rows a run writes, read back (readResultRows). Re-exported by scriptedServer.ts, where they used to live.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pyJsonLoads } from '../../src/core/io/pyjson';

export interface TinyBenchOptions {
  /** users per platform, default { weibo: 3, xiaohongshu: 2 } */
  users?: Partial<Record<string, number>>;
  /** steps per user, default 4 */
  steps?: number;
}

/**
 * A small benchmark in the official layout: relative path (data/<platform>_inference_tasks.jsonl) -> text.
 * Usernames are unique across platforms (U_<platform index><user index>), so a prompt names its user.
 * Pools of 8 tags (k = 2); step 2 has no viral distractor (Error_Viral NaN) and step 3 no positives (metrics null).
 */
export function tinyBenchLines(opts: TinyBenchOptions = {}): Map<string, string> {
  const users = opts.users ?? { weibo: 3, xiaohongshu: 2 };
  const nSteps = opts.steps ?? 4;
  const files = new Map<string, string>();
  for (const [p, [platform, count]] of Object.entries(users).entries()) {
    const prefix = platform.slice(0, 2);
    const lines: string[] = [];
    for (let u = 0; u < (count ?? 0); u++) {
      const userId = `${prefix}_${String(u).padStart(10, '0')}`;
      const tasks = [];
      for (let s = 1; s <= nSteps; s++) {
        const t = (name: string) => `#${name}${u}${s}#`;
        const meta =
          s === 3
            ? {
                T_keep: [],
                T_new: [],
                D_decay: [t('d1'), t('d2')],
                D_cluster: [t('c1'), t('c2')],
                D_viral: [t('v1'), t('v2')],
                D_random: [t('r1'), t('r2')],
              }
            : s === 2
              ? {
                  T_keep: [t('k')],
                  T_new: [t('n')],
                  D_decay: [t('d')],
                  D_cluster: [t('c1'), t('c2')],
                  D_viral: [],
                  D_random: [t('r1'), t('r2'), t('r3')],
                }
              : {
                  T_keep: [t('k')],
                  T_new: [t('n')],
                  D_decay: [t('d')],
                  D_cluster: [t('c1'), t('c2')],
                  D_viral: [t('v')],
                  D_random: [t('r1'), t('r2')],
                };
        // Rotate so that "the first k pool tags" hit different classes at different steps.
        const all = Object.values(meta).flat();
        const pool = [...all.slice(s % all.length), ...all.slice(0, s % all.length)];
        tasks.push({
          step_id: s,
          total_steps: nSteps,
          date_input: `2024-01-0${s}`,
          date_target: `2024-01-1${s}`,
          posts_text: `[1] Content: 用户${u}的第${s}批\nTags: ${t('k')}`,
          candidate_pool: pool,
          ground_truth: { all_tags: [...meta.T_new, ...meta.T_keep], new_tags: meta.T_new, keep_tags: meta.T_keep },
          meta,
        });
      }
      lines.push(
        JSON.stringify({
          user_id: userId,
          platform,
          username: `U_${p}${String(u).padStart(7, '0')}`,
          bio: u === 0 ? '' : `bio ${u}`,
          total_steps: nSteps,
          prediction_tasks: tasks,
        }),
      );
    }
    files.set(`data/${platform}_inference_tasks.jsonl`, lines.join('\n') + '\n');
  }
  return files;
}

/** Writes tinyBenchLines() into a new temp folder and returns it. */
export function writeTinyBench(opts: TinyBenchOptions = {}, prefix = 'tiny-bench-'): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  for (const [rel, text] of tinyBenchLines(opts)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

export interface ResultStepRow {
  step_id: number;
  prediction: unknown[];
  ground_truth: string[];
  metrics: Record<string, number> | null;
  reasoning: string;
  persona_summary: string;
}

export interface ResultUserRow {
  user_id: string;
  platform: string;
  username: string;
  steps: ResultStepRow[];
}

/** The rows of a results file (NaN tokens allowed); throws on a line that is not JSON. */
export function readResultRows(path: string): ResultUserRow[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const r = pyJsonLoads(l);
      if (!r.ok) throw new Error(`${path}: ${r.error}`);
      return r.value as ResultUserRow;
    });
}
