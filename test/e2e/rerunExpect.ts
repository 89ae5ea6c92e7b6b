// Expectations for the re-run e2e tests, computed from the files and the spec independently of the extension.
import Database from 'better-sqlite3';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { kForPool, scoreStep } from '../../src/core/spb/score/step';
import {
  POOL_CLASSES,
  type Benchmark,
  type PoolClass,
  type Run,
  type Step,
  type StepResult,
  type User,
} from '../../src/core/spb/types';

export const POSITIVE = new Set<PoolClass>(['tKeep', 'tNew']);

export interface Target {
  user: User;
  step: Step;
  result: StepResult;
  /** the persona the selected run's step received (what "carried" sends) */
  carried: string;
  /** what the scripted server's smart reply picks: the first k pool tags */
  rerunPicks: string[];
  flips: [string, string][];
}

export const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
export const pp = (d: number) =>
  Math.abs(d) < 1e-12 ? '±0.0 pp' : `${d > 0 ? '+' : '−'}${Math.abs(d * 100).toFixed(1)} pp`;

/** Flips written out again from the spec: a positive miss → hit is gained, hit → miss lost; distractors likewise. */
export function flipsOf(step: Step, before: readonly unknown[], after: readonly unknown[]): [string, string][] {
  const b = new Set(before.filter((x) => typeof x === 'string'));
  const a = new Set(after.filter((x) => typeof x === 'string'));
  const out: [string, string][] = [];
  const seen = new Set<string>();
  for (const cls of POOL_CLASSES) {
    for (const tag of step.split[cls]) {
      if (seen.has(tag)) continue;
      seen.add(tag);
      if (b.has(tag) === a.has(tag)) continue;
      out.push([tag, POSITIVE.has(cls) ? (a.has(tag) ? 'gained' : 'lost') : a.has(tag) ? 'newWrong' : 'fixedWrong']);
    }
  }
  return out;
}

/** A weibo step after step 1 with a carried persona where the smart reply gains one positive and loses another. */
export function findTarget(bench: Benchmark, run: Run): Target {
  for (const user of bench.users.get('weibo')!.values()) {
    let carried = '';
    for (const step of user.steps) {
      const result = run.results.get('weibo')?.get(user.userId)?.steps.get(step.stepId);
      const rerunPicks = step.pool.slice(0, kForPool(step.pool.length));
      if (result && carried && user.steps.length >= 3 && scoreStep(step.split, result.prediction)) {
        const flips = flipsOf(step, result.prediction, rerunPicks);
        if (flips.some(([, k]) => k === 'gained') && flips.some(([, k]) => k === 'lost'))
          return { user, step, result, carried, rerunPicks, flips };
      }
      if (result?.personaSummary) carried = result.personaSummary;
    }
  }
  throw new Error('sample/ has no weibo step where the first k pool tags gain and lose a positive');
}

/** Regular files below `dir` (links skipped; files that vanish while we walk are ignored). */
export function filesUnder(dir: string): string[] {
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (!st) return [];
  if (!st.isDirectory()) return st.isFile() ? [dir] : [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    const st = lstatSync(p, { throwIfNoEntry: false });
    return !st ? [] : st.isDirectory() ? filesUnder(p) : st.isFile() ? [p] : [];
  });
}

/**
 * Where `key` shows up in what a workbench run wrote: files of the workspace and of the run's folder (user data with
 * settings, state and logs, extensions, HOME, XDG), and the extension host's console. Not the browser profile
 * under tmp/: in the web workbench that is where VS Code's SecretStorage itself keeps secrets.
 */
export function keyLeaks(
  ws: string,
  run: { dir: string; extensionHostLog: string[]; extensionHostFiles(): string },
  key: string,
): string[] {
  const files = [
    ...filesUnder(ws),
    ...readdirSync(run.dir)
      .filter((d) => d !== 'tmp')
      .flatMap((d) => filesUnder(join(run.dir, d))),
  ];
  if (!files.some((f) => f.endsWith('settings.json')))
    throw new Error(`no settings.json under ${run.dir}: the scan looks in the wrong place`);
  const leaks = files.filter((f) => readFileSync(f).includes(Buffer.from(key)));
  if (run.extensionHostLog.some((l) => l.includes(key))) leaks.push('extension host console');
  if (run.extensionHostFiles().includes(key)) leaks.push('extension host log files');
  return leaks;
}

export interface AttemptDbRow {
  id: number;
  run: string;
  model: string;
  base_url: string;
  meta: string | null;
}

/** The attempts table of the workspace's history database. */
export function historyRows(ws: string): AttemptDbRow[] {
  const h = new Database(join(ws, '.personalab', 'history.db'), { readonly: true, fileMustExist: true });
  try {
    return h.prepare('SELECT id, run, model, base_url, meta FROM attempts ORDER BY id').all() as AttemptDbRow[];
  } finally {
    h.close();
  }
}
