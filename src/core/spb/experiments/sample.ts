// Samples: a seeded, stratified draw of users (strata.ts), so that every try of a template runs on the same steps. Strata are
// the platforms, or the platforms crossed with a failure signature read off a base run's per-step scores (the core
// scoring, scoreStepOfRun). Pure: the file side is sampleFile.ts.
import { drawStrata } from '../../experiments/strata';
import { scoreStepOfRun } from '../score/run';
import { scoreStep } from '../score/step';
import { PLATFORMS, type Benchmark, type Platform, type Run, type User } from '../types';

export type SampleBy = 'platform' | 'signature';
export const SAMPLE_BY: readonly SampleBy[] = ['platform', 'signature'];

/**
 * A user's failure signature in the base run: some scored step picked a decay distractor (Error_Decay > 0), some
 * scored step has Recall 0, both, neither ("clean"), or the base run scores none of the user's steps ("unscored").
 */
export const SIGNATURES = ['decay+r0', 'decay', 'r0', 'clean', 'unscored'] as const;
export type Signature = (typeof SIGNATURES)[number];

export interface SampleStratum {
  /** "weibo" or "weibo/decay" */
  key: string;
  platform: Platform;
  signature?: Signature;
  /** eligible users in the stratum */
  population: number;
  drawn: number;
}

export interface SampleDraw {
  seed: number;
  by: SampleBy;
  /** users asked for */
  requested: number;
  /** the run whose scores gave the signatures (by = signature), else null */
  baseRun: string | null;
  strata: SampleStratum[];
  /** drawn user ids per platform, in file order */
  users: Partial<Record<Platform, string[]>>;
}

export interface DrawOptions {
  users: number;
  seed: number;
  by?: SampleBy;
  /** needed for by = signature */
  baseRun?: Run;
}

export function userSignature(run: Run, user: User): Signature {
  let scored = false;
  let decay = false;
  let r0 = false;
  for (const step of user.steps) {
    const m = scoreStepOfRun(run, user, step).metrics;
    if (!m) continue;
    scored = true;
    if (m.Error_Decay > 0) decay = true;
    if (m.Recall === 0) r0 = true;
  }
  if (!scored) return 'unscored';
  return decay && r0 ? 'decay+r0' : decay ? 'decay' : r0 ? 'r0' : 'clean';
}

/** Users with at least one scored step (T_new ∪ T_keep not empty): the others add nothing to a comparison. */
function eligible(user: User): boolean {
  return user.steps.some((s) => scoreStep(s.split, []) !== null);
}

/** Draws the sample. Same benchmark, options and seed: the same users. Throws on options it cannot use. */
export function drawSample(bench: Benchmark, opts: DrawOptions): SampleDraw {
  const by = opts.by ?? 'platform';
  if (!Number.isInteger(opts.users) || opts.users < 1) throw new Error(`users: expected a whole number ≥ 1`);
  if (!Number.isInteger(opts.seed) || opts.seed < 0) throw new Error(`seed: expected a whole number ≥ 0`);
  const run = opts.baseRun;
  if (by === 'signature' && !run) throw new Error('a sample by signature needs a base run to read the signatures from');
  const groups: { stratum: SampleStratum; users: User[] }[] = [];
  for (const platform of PLATFORMS) {
    const users = [...(bench.users.get(platform)?.values() ?? [])].filter(eligible);
    if (users.length === 0) continue;
    if (by === 'platform' || !run) {
      groups.push({ stratum: { key: platform, platform, population: users.length, drawn: 0 }, users });
      continue;
    }
    const bySig = new Map<Signature, User[]>();
    for (const u of users) {
      const sig = userSignature(run, u);
      bySig.set(sig, [...(bySig.get(sig) ?? []), u]);
    }
    for (const signature of SIGNATURES) {
      const us = bySig.get(signature);
      if (!us) continue;
      const stratum = { key: `${platform}/${signature}`, platform, signature, population: us.length, drawn: 0 };
      groups.push({ stratum, users: us });
    }
  }
  if (groups.length === 0) throw new Error('the benchmark has no user with a scored step');
  const { drawn, chosen } = drawStrata(
    groups.map((g) => ({ key: g.stratum.key, units: g.users })),
    opts.users,
    opts.seed,
  );
  groups.forEach((g, i) => (g.stratum.drawn = drawn[i]));
  const users: Partial<Record<Platform, string[]>> = {};
  for (const platform of PLATFORMS) {
    const ids = [...(bench.users.get(platform)?.values() ?? [])].filter((u) => chosen.has(u)).map((u) => u.userId);
    if (ids.length) users[platform] = ids;
  }
  return {
    seed: opts.seed,
    by,
    requested: opts.users,
    baseRun: by === 'signature' && run ? run.name : null,
    strata: groups.map((g) => g.stratum),
    users,
  };
}

/** Users and steps of a sample (scored or not), for summaries. */
export function sampleSize(bench: Benchmark, users: Partial<Record<Platform, readonly string[]>>) {
  let n = 0;
  let steps = 0;
  for (const [platform, ids] of Object.entries(users) as [Platform, string[]][]) {
    for (const id of ids) {
      const u = bench.users.get(platform)?.get(id);
      if (!u) continue;
      n++;
      steps += u.steps.length;
    }
  }
  return { users: n, steps };
}

export { allocate } from '../../experiments/strata';
