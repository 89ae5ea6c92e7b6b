// The data the step view shows, built from core types. Pure TS: everything here is plain JSON-safe data
// (numbers are finite or null, since webview messages are serialised), so the webview only renders it.
import { stepMemoryOf, type TagMemory } from '../score/tagMemory';
import { diffWords } from 'diff';
import { parsePosts } from '../format/posts';
import { personaReceived, scoreStepOfRun } from '../score/run';
import { kForPool } from '../score/step';
import { GROUP_LABELS, GROUP_TOOLTIPS, METRIC_INFO, METRIC_ORDER, formatMetric, type MetricCell } from './stepText';
export type { MetricCell, MetricGroup } from './stepText';
import {
  META_KEYS,
  METRIC_KEYS,
  PLATFORMS,
  POOL_CLASSES,
  type Benchmark,
  type MetricKey,
  type Platform,
  type PoolClass,
  type Run,
  type Step,
  type User,
} from '../types';

/** Where a step lives; structurally the same as the extension's StepRef. */
export interface StepLocation {
  platform: Platform;
  userId: string;
  stepId: number;
}

/**
 * hit: a positive the model picked; missed: a positive it did not pick; wrongPick: a distractor it picked;
 * avoided: a distractor it did not pick; none: no result row for this step in the run (nothing to judge).
 */
export type TagMark = 'hit' | 'missed' | 'wrongPick' | 'avoided' | 'none';

export interface PoolTag {
  tag: string;
  picked: boolean;
  mark: TagMark;
  /** How many times the prediction lists it (2+ is a duplicate pick). */
  count: number;
  /** A missed T_keep tag's or a D_decay pick's persona memory (our reading, score/tagMemory.ts). */
  memory?: TagMemory;
}

export interface PoolGroup {
  cls: PoolClass;
  /** The key under `meta` in the task file, e.g. D_cluster for the peer class. */
  metaKey: string;
  /** Display name, as in the paper: T_keep, T_new, D_decay, D_peer, D_viral, D_random. */
  label: string;
  positive: boolean;
  tooltip: string;
  tags: PoolTag[];
  /** Distinct picks in this group. */
  picked: number;
}

export interface PoolModel {
  groups: PoolGroup[];
  size: number;
  /** k the prompt asks for: max(1, round(0.25 |C|)). */
  k: number;
  /** Length of the prediction as returned, and its distinct string picks. */
  picks: number;
  distinctPicks: number;
  /** Picks that are neither in candidate_pool nor in any meta class (never matched). */
  outOfPool: string[];
  duplicates: { tag: string; count: number }[];
  /** Prediction entries that are not strings, as JSON text. */
  nonStrings: string[];
  /** Violations of the task file's invariants (disjoint classes, union = pool), flagged, not fatal. */
  invariants: string[];
}

export interface PostTagModel {
  tag: string;
  /** The pool group label when this batch tag is also in the candidate pool. */
  inPool: string | null;
}

export interface PostCard {
  index: number;
  content: string;
  /** Labelled lines other than Content and Tags (title, quoted text, ...). */
  fields: { label: string; value: string }[];
  tags: PostTagModel[];
}

export interface DiffPart {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

export interface PersonaModel {
  received: string;
  /** The step whose persona_summary was received; null at cold start or when no earlier step wrote one. */
  receivedFrom: number | null;
  written: string;
  /** Word-level diff received -> written; null when nothing was written (no result, runner error) or it timed out. */
  diff: DiffPart[] | null;
  added: number;
  removed: number;
}

export interface StepHeader {
  platform: Platform;
  userId: string;
  username: string;
  bio: string;
  stepId: number;
  totalSteps: number;
  dateInput: string;
  dateTarget: string;
  /** 1-based position of the user in its platform, and the platform's user count. */
  userIndex: number;
  userCount: number;
}

export interface StepModel {
  ref: StepLocation;
  header: StepHeader;
  run: string | null;
  /** The run has a result row for this step. */
  hasResult: boolean;
  /** The step has positives, so the reference scores it. */
  scored: boolean;
  posts: PostCard[];
  /** false when posts_text did not parse into `[n]` posts: show postsRaw instead. */
  postsOk: boolean;
  postsRaw: string;
  pool: PoolModel;
  persona: PersonaModel;
  reasoning: string;
  metrics: MetricCell[];
  /** Metrics stored in the results file that disagree with the recomputed ones. */
  storedMismatch: string[];
}

const POSITIVE: ReadonlySet<PoolClass> = new Set(['tKeep', 'tNew']);

function finite(v: number | undefined): number | null {
  return v !== undefined && Number.isFinite(v) ? v : null;
}

const segmenter =
  typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter('zh', { granularity: 'word' }) : undefined;

/**
 * Word-level diff. Chinese has no spaces, so the diff package's default tokenizer would split CJK text into single
 * characters; Intl.Segmenter ('word', ICU's dictionary) yields real words (大学生 -> 研究生 is one replaced word
 * rather than 大学 -> 研究 + a kept 生), and still splits Latin text on spaces and punctuation.
 */
export function wordDiff(before: string, after: string): DiffPart[] | null {
  const changes = diffWords(before, after, { intlSegmenter: segmenter, timeout: 1000 });
  if (!changes) return null;
  return changes.map((c) => ({ kind: c.added ? 'added' : c.removed ? 'removed' : 'same', text: c.value }));
}

function countWords(text: string): number {
  if (!segmenter) return text.split(/\s+/).filter(Boolean).length;
  let n = 0;
  for (const s of segmenter.segment(text)) if (s.isWordLike) n++;
  return n;
}

export interface BuildInput {
  bench?: Benchmark;
  user: User;
  step: Step;
  run: Run | undefined;
  /** posts_text of this step (read from disk by the caller: core/spb/format/load.ts readPostsText). */
  postsText: string;
}

export function buildStepModel({ bench, user, step, run, postsText }: BuildInput): StepModel {
  const score = scoreStepOfRun(run, user, step);
  const result = score.result;
  const prediction = result?.prediction ?? [];
  const pool = buildPool(step, prediction, result !== undefined);
  const memory = stepMemoryOf(run, user, step);
  for (const g of pool.groups) for (const t of g.tags) if (memory.has(t.tag)) t.memory = memory.get(t.tag);
  const parsed = parsePosts(postsText);
  const classOf = new Map<string, string>();
  for (const g of pool.groups) for (const t of g.tags) if (!classOf.has(t.tag)) classOf.set(t.tag, g.label);
  const platformUsers = bench?.users.get(user.platform);
  const userIndex = platformUsers ? [...platformUsers.keys()].indexOf(user.userId) + 1 : 1;
  return {
    ref: { platform: user.platform, userId: user.userId, stepId: step.stepId },
    header: {
      platform: user.platform,
      userId: user.userId,
      username: user.username,
      bio: user.bio,
      stepId: step.stepId,
      totalSteps: step.totalSteps || user.totalSteps || user.steps.length,
      dateInput: step.dateInput,
      dateTarget: step.dateTarget,
      userIndex,
      userCount: platformUsers?.size ?? 1,
    },
    run: run?.name ?? null,
    hasResult: result !== undefined,
    scored: step.split.tKeep.length + step.split.tNew.length > 0,
    posts: parsed.posts.map((p) => ({
      index: p.index,
      content: p.content,
      fields: p.fields
        .filter((f) => !/^(content|tags?)$/i.test(f.label))
        .map((f) => ({ label: f.label, value: f.value })),
      tags: p.tags.map((tag) => ({ tag, inPool: classOf.get(tag) ?? null })),
    })),
    postsOk: parsed.ok,
    postsRaw: parsed.ok ? '' : parsed.raw,
    pool,
    persona: buildPersona(run, user, step, result?.personaSummary),
    reasoning: result?.reasoning ?? '',
    metrics: buildMetrics(score.metrics, score.diagnostics),
    storedMismatch: storedMismatch(score.metrics, result?.storedMetrics),
  };
}

function buildPool(step: Step, prediction: readonly unknown[], hasResult: boolean): PoolModel {
  const counts = new Map<string, number>();
  const nonStrings: string[] = [];
  for (const p of prediction) {
    if (typeof p === 'string') counts.set(p, (counts.get(p) ?? 0) + 1);
    else nonStrings.push(JSON.stringify(p) ?? String(p));
  }
  const groups: PoolGroup[] = POOL_CLASSES.map((cls) => {
    const positive = POSITIVE.has(cls);
    const tags = [...new Set(step.split[cls])].map((tag): PoolTag => {
      const count = counts.get(tag) ?? 0;
      const picked = count > 0;
      const mark: TagMark = !hasResult
        ? 'none'
        : positive
          ? picked
            ? 'hit'
            : 'missed'
          : picked
            ? 'wrongPick'
            : 'avoided';
      return { tag, picked, mark, count };
    });
    return {
      cls,
      metaKey: META_KEYS[cls],
      label: GROUP_LABELS[cls],
      positive,
      tooltip: GROUP_TOOLTIPS[cls],
      tags,
      picked: tags.filter((t) => t.picked).length,
    };
  });
  const known = new Set<string>(step.pool);
  for (const cls of POOL_CLASSES) for (const t of step.split[cls]) known.add(t);
  return {
    groups,
    size: step.pool.length,
    k: kForPool(step.pool.length),
    picks: prediction.length,
    distinctPicks: counts.size,
    outOfPool: [...counts.keys()].filter((t) => !known.has(t)),
    duplicates: [...counts].filter(([, n]) => n > 1).map(([tag, count]) => ({ tag, count })),
    nonStrings,
    invariants: checkInvariants(step),
  };
}

function checkInvariants(step: Step): string[] {
  const out: string[] = [];
  const owner = new Map<string, PoolClass>();
  for (const cls of POOL_CLASSES) {
    for (const t of step.split[cls]) {
      const first = owner.get(t);
      if (first && first !== cls) out.push(`${JSON.stringify(t)} is in both ${META_KEYS[first]} and ${META_KEYS[cls]}`);
      else owner.set(t, cls);
    }
  }
  const pool = new Set(step.pool);
  for (const t of owner.keys()) if (!pool.has(t)) out.push(`${JSON.stringify(t)} is in meta but not in candidate_pool`);
  for (const t of pool) if (!owner.has(t)) out.push(`${JSON.stringify(t)} is in candidate_pool but in no meta class`);
  const positives = step.split.tKeep.length + step.split.tNew.length;
  if (step.pool.length > 0 && positives * 4 !== step.pool.length) {
    out.push(`|C+| / |C| = ${positives} / ${step.pool.length}, not 25 %`);
  }
  return out;
}

function buildPersona(run: Run | undefined, user: User, step: Step, written: string | undefined): PersonaModel {
  const received = personaReceived(run, user, step.stepId);
  let receivedFrom: number | null = null;
  if (received !== '' && run) {
    for (const s of user.steps) {
      if (s.stepId >= step.stepId) break;
      const p = run.results.get(user.platform)?.get(user.userId)?.steps.get(s.stepId)?.personaSummary ?? '';
      if (p !== '') receivedFrom = s.stepId;
    }
  }
  const text = written ?? '';
  // No result, or no persona written (e.g. the runner's error record): nothing to diff; the next step receives `received`.
  const diff = text === '' ? null : wordDiff(received, text);
  let added = 0;
  let removed = 0;
  for (const part of diff ?? []) {
    if (part.kind === 'added') added += countWords(part.text);
    else if (part.kind === 'removed') removed += countWords(part.text);
  }
  return { received, receivedFrom, written: text, diff, added, removed };
}

function buildMetrics(
  metrics: Record<MetricKey, number> | null,
  diag: { K: number; delta: number; budget: number; alpha: number; ratio: number } | null,
): MetricCell[] {
  return METRIC_ORDER.map((key) => {
    const value = finite(isMetricKey(key) ? metrics?.[key] : diag?.[key]);
    const info = METRIC_INFO[key];
    return { key, label: info.label, group: info.group, value, text: formatMetric(key, value), tooltip: info.tooltip };
  });
}

function isMetricKey(key: MetricCell['key']): key is MetricKey {
  return (METRIC_KEYS as readonly string[]).includes(key);
}

function storedMismatch(
  recomputed: Record<MetricKey, number> | null,
  stored: Record<MetricKey, number> | null | undefined,
): string[] {
  if (stored === undefined) return [];
  if (stored === null || recomputed === null) {
    return (stored === null) === (recomputed === null)
      ? []
      : [
          `stored metrics are ${stored === null ? 'null' : 'present'} but the step is ${recomputed === null ? 'not ' : ''}scored`,
        ];
  }
  const out: string[] = [];
  for (const key of Object.keys(recomputed) as MetricKey[]) {
    const a = recomputed[key];
    const b = stored[key];
    const same = (Number.isNaN(a) && Number.isNaN(b)) || Math.abs(a - b) < 1e-9;
    if (!same) out.push(`${key}: stored ${String(b)}, recomputed ${String(a)}`);
  }
  return out;
}

export interface Neighbours {
  previousStep: StepLocation | null;
  nextStep: StepLocation | null;
  previousUser: StepLocation | null;
  nextUser: StepLocation | null;
}

/**
 * Navigation targets. Steps move within the user; users move through the platform in the order `usersOf` gives (the
 * tree's, file order by default) and on to the next (previous) platform at its end (start). A user move opens the
 * new user's first step.
 */
export function neighbours(
  bench: Benchmark,
  at: StepLocation,
  usersOf: (platform: Platform) => Iterable<string> = (p) => bench.users.get(p)?.keys() ?? [],
): Neighbours {
  const none: Neighbours = { previousStep: null, nextStep: null, previousUser: null, nextUser: null };
  const user = bench.users.get(at.platform)?.get(at.userId);
  if (!user) return none;
  const i = user.steps.findIndex((s) => s.stepId === at.stepId);
  const stepAt = (j: number): StepLocation | null => {
    const s = user.steps[j];
    return s ? { platform: at.platform, userId: at.userId, stepId: s.stepId } : null;
  };
  const order: { platform: Platform; userId: string }[] = [];
  for (const platform of PLATFORMS) for (const userId of usersOf(platform)) order.push({ platform, userId });
  const u = order.findIndex((o) => o.platform === at.platform && o.userId === at.userId);
  const userAt = (j: number): StepLocation | null => {
    for (let k = j; k >= 0 && k < order.length; k += j > u ? 1 : -1) {
      const o = order[k];
      const first = bench.users.get(o.platform)?.get(o.userId)?.steps[0];
      if (first) return { platform: o.platform, userId: o.userId, stepId: first.stepId };
    }
    return null;
  };
  return {
    previousStep: i > 0 ? stepAt(i - 1) : null,
    nextStep: i >= 0 ? stepAt(i + 1) : null,
    previousUser: userAt(u - 1),
    nextUser: userAt(u + 1),
  };
}
