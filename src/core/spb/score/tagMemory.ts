// Persona memory (of a tag): why a step misses a T_keep tag or picks a D_decay one, read from the personas the run wrote.
// Our reading, stated in docs/scoring.md and never printed as the paper's figure. A step n ≥ 2 receives the last
// non-empty persona written before it (as the reference runner threads prev_persona); a tag appears in a persona when
// its text without the surrounding # is a substring of the persona, both NFKC-normalised and case-folded.
// A missed T_keep tag is `ignored` (in the received persona), `forgotten` (in an earlier written persona, but not the
// received one: dropped by the step that wrote the first persona without it) or `neverCaptured`; a D_decay pick is
// `carriedOver` (in the received persona) or `reInferred`. Failed requests and steps whose earlier steps the run does
// not hold are left out and counted.
import { isErrorRecord } from './failedRequests';
import type { UserSubset } from './userSubset';
import {
  PLATFORMS,
  type Benchmark,
  type Platform,
  type Run,
  type Step,
  type StepResult,
  type User,
  type UserResult,
} from '../types';

export const MEMORY_READING = "our reading of the written personas, not the paper's figure";

export type MissKind = 'forgotten' | 'ignored' | 'neverCaptured';
export type DecayKind = 'carriedOver' | 'reInferred';
export const MISS_KINDS: readonly MissKind[] = ['forgotten', 'ignored', 'neverCaptured'];
export const DECAY_KINDS: readonly DecayKind[] = ['carriedOver', 'reInferred'];

export interface MissedKeep {
  tag: string;
  kind: MissKind;
  /** forgotten: the step whose written persona first lacked the tag again */
  droppedAt?: number;
}

export interface DecayPick {
  tag: string;
  kind: DecayKind;
}

export type StepMemory =
  | { status: 'classified'; missed: MissedKeep[]; decayPicks: DecayPick[] }
  | { status: 'first' | 'failed' | 'unchained' };

export type MemoryCounts = Record<MissKind | DecayKind, number> & {
  /** steps n ≥ 2 classified */
  steps: number;
  /** failed requests left out */
  failed: number;
  /** steps left out because the run lacks one of the user's earlier steps */
  unchained: number;
  /** steps of the run (any n) that wrote a non-empty persona: 0 for a run that keeps none, e.g. a baseline */
  personasWritten: number;
};

export interface ForgottenTag {
  userId: string;
  stepId: number;
  tag: string;
  droppedAt: number;
}

export interface RunMemory {
  platforms: Map<Platform, { counts: MemoryCounts; forgotten: ForgottenTag[] }>;
  /** pooled over the run's platforms */
  total: MemoryCounts;
}

/** Python's str.casefold for the letters where it differs from lower-casing in text a persona holds. */
const FOLDS: Record<string, string> = { ß: 'ss', ẞ: 'ss', ς: 'σ' };

export function memoryText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[ßẞς]/g, (c) => FOLDS[c]);
}

/** The tag's text without its surrounding #, as memoryText. */
export function memoryTag(tag: string): string {
  return memoryText(tag.replace(/^#+/, '').replace(/#+$/, ''));
}

const appears = (tag: string, persona: string) => persona !== '' && persona.includes(memoryTag(tag));

/** Each step of `user` in `result` (file order), classified; steps the run does not hold are absent. */
export function userMemory(user: User, result: UserResult): Map<number, StepMemory> {
  return chainOf(user, result).memory;
}

function chainOf(user: User, result: UserResult) {
  const out = new Map<number, StepMemory>();
  const written: { stepId: number; persona: string }[] = [];
  let chained = true;
  for (const [i, step] of user.steps.entries()) {
    const r: StepResult | undefined = result.steps.get(step.stepId);
    if (!r) {
      chained = false;
      continue;
    }
    if (i === 0) out.set(step.stepId, { status: 'first' });
    else if (!chained) out.set(step.stepId, { status: 'unchained' });
    else if (isErrorRecord(r)) out.set(step.stepId, { status: 'failed' });
    else out.set(step.stepId, classify(step.split.tKeep, step.split.dDecay, r.prediction, written));
    if (r.personaSummary !== '') written.push({ stepId: step.stepId, persona: memoryText(r.personaSummary) });
  }
  return { memory: out, personasWritten: written.length };
}

function classify(
  tKeep: readonly string[],
  dDecay: readonly string[],
  prediction: readonly unknown[],
  written: readonly { stepId: number; persona: string }[],
): StepMemory {
  const picked = new Set(prediction.filter((t): t is string => typeof t === 'string'));
  const received = written.at(-1)?.persona ?? '';
  const missed: MissedKeep[] = [];
  for (const tag of new Set(tKeep)) {
    if (picked.has(tag)) continue;
    if (appears(tag, received)) {
      missed.push({ tag, kind: 'ignored' });
      continue;
    }
    let last = -1;
    for (let j = written.length - 1; j >= 0 && last < 0; j--) if (appears(tag, written[j].persona)) last = j;
    if (last < 0) missed.push({ tag, kind: 'neverCaptured' });
    else missed.push({ tag, kind: 'forgotten', droppedAt: written[last + 1].stepId });
  }
  const decayPicks: DecayPick[] = [...new Set(dDecay)]
    .filter((tag) => picked.has(tag))
    .map((tag) => ({ tag, kind: appears(tag, received) ? 'carriedOver' : 'reInferred' }));
  return { status: 'classified', missed, decayPicks };
}

/** What a tag's chip says of it in the step view: its memory kind, and for a forgotten tag the step that dropped it. */
export interface TagMemory {
  kind: MissKind | DecayKind;
  droppedAt?: number;
}

/** The kind of each missed T_keep tag and D_decay pick of `step` in `run`; empty when the step is not classified. */
export function stepMemoryOf(run: Run | undefined, user: User, step: Step): Map<string, TagMemory> {
  const result = run?.results.get(user.platform)?.get(user.userId);
  const m = result ? userMemory(user, result).get(step.stepId) : undefined;
  const out = new Map<string, TagMemory>();
  if (m?.status !== 'classified') return out;
  for (const x of m.missed) out.set(x.tag, x.droppedAt === undefined ? { kind: x.kind } : x);
  for (const x of m.decayPicks) out.set(x.tag, { kind: x.kind });
  return out;
}

export function emptyCounts(): MemoryCounts {
  return {
    forgotten: 0,
    ignored: 0,
    neverCaptured: 0,
    carriedOver: 0,
    reInferred: 0,
    steps: 0,
    failed: 0,
    unchained: 0,
    personasWritten: 0,
  };
}

function add(into: MemoryCounts, from: MemoryCounts): void {
  for (const k of Object.keys(into) as (keyof MemoryCounts)[]) into[k] += from[k];
}

/** The run's persona memory per platform (and pooled), over `subset`'s users when given. */
export function runMemory(bench: Benchmark, run: Run, subset?: UserSubset): RunMemory {
  const platforms: RunMemory['platforms'] = new Map();
  const total = emptyCounts();
  for (const platform of PLATFORMS) {
    const results = run.results.get(platform);
    const users = bench.users.get(platform);
    if (!results || !users) continue;
    const counts = emptyCounts();
    const forgotten: ForgottenTag[] = [];
    for (const [userId, result] of results) {
      const user = users.get(userId);
      if (!user || (subset && !subset.get(platform)?.has(userId))) continue;
      const chain = chainOf(user, result);
      counts.personasWritten += chain.personasWritten;
      for (const [stepId, m] of chain.memory) {
        if (m.status === 'failed' || m.status === 'unchained') counts[m.status]++;
        if (m.status !== 'classified') continue;
        counts.steps++;
        for (const x of m.missed) {
          counts[x.kind]++;
          if (x.droppedAt !== undefined) forgotten.push({ userId, stepId, tag: x.tag, droppedAt: x.droppedAt });
        }
        for (const x of m.decayPicks) counts[x.kind]++;
      }
    }
    platforms.set(platform, { counts, forgotten });
    add(total, counts);
  }
  return { platforms, total };
}

const share = (part: number, whole: number) => (whole > 0 ? part / whole : null);

/** Counts and shares (null where nothing was missed or picked), as score --json prints them. */
export function countsJson(c: MemoryCounts) {
  const missed = c.forgotten + c.ignored + c.neverCaptured;
  const decay = c.carriedOver + c.reInferred;
  return {
    ...c,
    missedTKeep: missed,
    dDecayPicks: decay,
    shares: {
      forgotten: share(c.forgotten, missed),
      ignored: share(c.ignored, missed),
      neverCaptured: share(c.neverCaptured, missed),
      carriedOver: share(c.carriedOver, decay),
      reInferred: share(c.reInferred, decay),
    },
  };
}

/** `score --json`'s `memory` block of a run. */
export function memoryJson(m: RunMemory) {
  return {
    platforms: Object.fromEntries(
      [...m.platforms].map(([p, x]) => [p, { ...countsJson(x.counts), forgottenTags: x.forgotten }]),
    ),
    total: countsJson(m.total),
    reading: MEMORY_READING,
  };
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${(100 * x).toFixed(1)} %`);

/** "missed T_keep 40: forgotten 25.0 %, ignored 50.0 %, never captured 25.0 %; D_decay picks 3: carried over …" */
export function memoryLine(c: MemoryCounts): string {
  const j = countsJson(c);
  return (
    `missed T_keep ${j.missedTKeep}: forgotten ${pct(j.shares.forgotten)}, ignored ${pct(j.shares.ignored)}, ` +
    `never captured ${pct(j.shares.neverCaptured)}; D_decay picks ${j.dDecayPicks}: carried over ` +
    `${pct(j.shares.carriedOver)}, re-inferred ${pct(j.shares.reInferred)} (${c.steps} steps n ≥ 2)`
  );
}

/** The lines under a text table: one per run with classified steps. */
export function memoryNotes(runs: readonly { name: string; memory: RunMemory }[]): string[] {
  const shown = runs.filter((r) => r.memory.total.steps > 0);
  if (shown.length === 0) return [];
  return [
    `Persona memory (${MEMORY_READING}):`,
    ...shown.map(({ name, memory }) =>
      memory.total.personasWritten === 0
        ? `  ${name}: wrote no persona, so every missed T_keep tag counts as never captured`
        : `  ${name}: ${memoryLine(memory.total)}`,
    ),
  ];
}
