// Expected Benchmarks-tree text for test/e2e/tree.test.ts, computed from the benchmark files and the spec's
// scoring rules written out again here, independently of the extension's code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLine } from '../../src/core/io/jsonl';
import type { Platform } from '../../src/core/spb/types';

export const pct = (x: number | null | undefined) =>
  x === null || x === undefined || !Number.isFinite(x) ? '—' : `${(100 * x).toFixed(1)}%`;
export const n = (k: number, one: string) => `${k.toLocaleString('en-US')} ${k === 1 ? one : one + 's'}`;

export interface CliScore {
  runs: {
    name: string;
    platforms: Record<string, { Recall: number | null; F1NS: number | null; users: number }>;
    avg: { Recall: number | null };
    failedRequests: { failed: number };
  }[];
}

/** The benchmark row's description for a run, as the CLI's JSON gives its figures: failed requests flagged. */
export function benchDescription(run: CliScore['runs'][number]): string {
  return `Avg. R ${pct(run.avg.Recall)} · run: ${run.name}${failedSuffix(run)}`;
}

/** A platform row's description: its users and R, or R over the users the run scores when that is not all of them. */
export function platformDescription(
  users: number,
  s: CliScore['runs'][number]['platforms'][string] | undefined,
): string {
  if (!s) return `${n(users, 'user')} · no results in run`;
  return s.users < users
    ? `R ${pct(s.Recall)} over ${s.users} of ${n(users, 'user')}`
    : `${n(users, 'user')} · R ${pct(s.Recall)}`;
}

/** " · N failed requests" when the CLI counts any for the run, else ''. */
export function failedSuffix(run: { failedRequests: { failed: number } }): string {
  const f = run.failedRequests.failed;
  return f > 0 ? ` · ${n(f, 'failed request')}` : '';
}
export interface TaskStep {
  step_id: number;
  date_input: string;
  date_target: string;
  meta: Record<string, string[]>;
}
export interface TaskUser {
  user_id: string;
  bio?: string;
  prediction_tasks: TaskStep[];
}

export function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const parsed = parseLine(Buffer.from(l));
      if (!parsed.ok) throw new Error(`${file}: ${parsed.message}`);
      return parsed.value as T;
    });
}

export const tasksFile = (root: string, p: Platform) => join(root, 'data', `${p}_inference_tasks.jsonl`);
export const resultsFile = (root: string, run: string, p: Platform) =>
  join(root, 'results', run, `inference_results_${p}.jsonl`);

/** Predictions of a run, userId -> stepId -> prediction. */
export function predictions(root: string, run: string, p: Platform): Map<string, Map<number, unknown[]>> {
  const out = new Map<string, Map<number, unknown[]>>();
  let rows: { user_id: string; steps: { step_id: number; prediction: unknown[] }[] }[];
  try {
    rows = readJsonl(resultsFile(root, run, p));
  } catch {
    return out;
  }
  for (const r of rows) out.set(r.user_id, new Map(r.steps.map((s) => [s.step_id, s.prediction])));
  return out;
}

export interface StepFigures {
  r: number;
  nov: number;
  stab: number;
  decay: number;
  peer: number;
  viral: number;
  random: number;
}

/**
 * Spec section 5, written out again: Recall, R_nov, R_stab and the four error rates of one step (NaN for an empty
 * class), or null when it is not scored. D_peer is stored as D_cluster.
 */
export function stepScore(meta: Record<string, string[]>, prediction: unknown[]): StepFigures | null {
  const picks = new Set(prediction.filter((x) => typeof x === 'string'));
  const set = (k: string) => new Set(meta[k] ?? []);
  const keep = set('T_keep'),
    fresh = set('T_new');
  const g = new Set([...keep, ...fresh]);
  if (g.size === 0) return null;
  const rate = (s: Set<string>) => (s.size ? [...s].filter((t) => picks.has(t)).length / s.size : NaN);
  return {
    r: rate(g),
    nov: rate(fresh),
    stab: rate(keep),
    decay: rate(set('D_decay')),
    peer: rate(set('D_cluster')),
    viral: rate(set('D_viral')),
    random: rate(set('D_random')),
  };
}

export const mean = (xs: number[]) => {
  const ok = xs.filter((x) => !Number.isNaN(x));
  return ok.length ? ok.reduce((a, b) => a + b, 0) / ok.length : NaN;
};

/** A user's figures over the steps the run scores (NaN-skipping means, F1^NS of the two means); null: none scored. */
export function userFigures(
  user: TaskUser,
  preds: Map<number, unknown[]> | undefined,
): (StepFigures & { f1: number }) | null {
  const scored = user.prediction_tasks.flatMap((s) => {
    const p = preds?.get(s.step_id);
    const sc = p ? stepScore(s.meta, p) : null;
    return sc ? [sc] : [];
  });
  if (!scored.length) return null;
  const m = (k: keyof StepFigures) => mean(scored.map((s) => s[k]));
  const a = m('nov'),
    b = m('stab');
  const f1 = Number.isNaN(a) || Number.isNaN(b) || !(a + b > 0) ? NaN : (2 * a * b) / (a + b);
  return {
    r: m('r'),
    nov: a,
    stab: b,
    decay: m('decay'),
    peer: m('peer'),
    viral: m('viral'),
    random: m('random'),
    f1,
  };
}

/** The user row's description: its R in the run, or "not scored". */
export function expectedUser(user: TaskUser, preds: Map<number, unknown[]> | undefined): string {
  const f = userFigures(user, preds);
  return f ? `R ${pct(f.r)}` : 'not scored';
}

/** The step row with a run selected: its R (the dates are in the tooltip) and the icon of its hits. */
export function expectedStep(step: TaskStep, prediction: unknown[] | undefined): { description: string; icon: string } {
  if (!prediction) return { description: 'no result', icon: 'circle-outline' };
  const sc = stepScore(step.meta, prediction);
  if (!sc) return { description: 'not scored', icon: 'circle-outline' };
  const icon = sc.r >= 1 ? 'pass-filled' : sc.r > 0 ? 'pie-chart' : 'error';
  return { description: `R ${pct(sc.r)}`, icon };
}
