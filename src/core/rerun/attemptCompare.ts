// A re-run of one step next to the original result: picks of each with the tags that flipped, metric deltas, the
// persona diff between the two written personas, flags, latency and usage. Pure and JSON-safe (numbers are finite
// or null) because it goes to the webview as a message.
import type { HistoryContext, HistoryRow } from '../runner/history';
import type { StepRunRecord } from '../runner/step';
import { scoreStep } from '../spb/score/step';
import { wordDiff, type DiffPart } from '../spb/stepModel';
import { formatMetric, GROUP_LABELS, METRIC_INFO } from '../spb/stepText';
import { METRIC_KEYS, POOL_CLASSES, type MetricKey, type PoolClass, type Step, type StepResult } from '../spb/types';
import { type Severity } from '../io/diagnostics';

/** Where a re-run's persona came from: the selected run's thread, none (cold start), or typed by hand. */
export const RERUN_PERSONA_MODES = ['carried', 'none', 'edited'] as const;
export type RerunPersonaMode = (typeof RERUN_PERSONA_MODES)[number];

/** What the extension stores in the history row's meta for a single-step re-run. */
export interface RerunMeta {
  kind: 'rerun';
  personaMode: RerunPersonaMode;
  /** the run whose result the re-run is compared with (and whose persona a 'carried' re-run received) */
  baseRun: string | null;
  /** file name of the template, or "built-in default" */
  templateName: string;
}

export function readRerunMeta(meta: Record<string, unknown> | null | undefined): RerunMeta | null {
  if (!meta || meta.kind !== 'rerun') return null;
  const mode = (RERUN_PERSONA_MODES as readonly unknown[]).includes(meta.personaMode)
    ? (meta.personaMode as RerunPersonaMode)
    : null;
  if (!mode) return null;
  return {
    kind: 'rerun',
    personaMode: mode,
    baseRun: typeof meta.baseRun === 'string' ? meta.baseRun : null,
    templateName: typeof meta.templateName === 'string' ? meta.templateName : '',
  };
}

/** The fields of a history row a comparison needs (also built from a StepRunRecord when no DB is available). */
export type AttemptRow = Pick<
  HistoryRow,
  | 'id'
  | 'run'
  | 'templateId'
  | 'model'
  | 'baseURL'
  | 'personaIn'
  | 'system'
  | 'prompt'
  | 'raw'
  | 'flags'
  | 'error'
  | 'prediction'
  | 'reasoning'
  | 'personaSummary'
  | 'tries'
  | 'latencyMs'
  | 'usage'
  | 'createdAt'
  | 'meta'
>;

/** A history-row view of a record that could not be stored (the id is the caller's, e.g. negative). */
export function attemptFromRecord(rec: StepRunRecord, ctx: HistoryContext, id: number): AttemptRow {
  return {
    id,
    run: ctx.run,
    templateId: rec.templateId,
    model: ctx.model,
    baseURL: ctx.baseURL,
    personaIn: rec.personaIn,
    system: rec.system,
    prompt: rec.prompt,
    raw: rec.raw,
    flags: rec.parsed?.flags ?? [],
    error: rec.error,
    prediction: rec.prediction,
    reasoning: rec.reasoning,
    personaSummary: rec.personaSummary,
    tries: rec.attempts,
    latencyMs: rec.latencyMs,
    usage: rec.usage,
    createdAt: rec.at,
    meta: ctx.meta ?? null,
  };
}

export type FlipKind = 'gained' | 'lost' | 'newWrong' | 'fixedWrong';

export interface PickChip {
  tag: string;
  /** pool group label (T_keep, …, D_random), or null for a pick outside the pool */
  group: string | null;
  mark: 'hit' | 'wrongPick' | 'outside';
  /** how this pick differs from the other side; null when both picked it (or it is outside the pool) */
  flip: FlipKind | null;
}

export interface FlippedTag {
  tag: string;
  group: string;
  positive: boolean;
  kind: FlipKind;
}

export interface SideModel {
  hasResult: boolean;
  /** distinct string picks, in the order given */
  picks: PickChip[];
  /** length of the prediction as returned */
  predicted: number;
  /** the persona this side received; null when it got none (the prompt's cold-start text) */
  personaIn: string | null;
  personaWritten: string;
  reasoning: string;
}

export interface MetricDelta {
  key: MetricKey;
  label: string;
  tooltip: string;
  before: number | null;
  after: number | null;
  /** after − before, null when either is undefined */
  delta: number | null;
  beforeText: string;
  afterText: string;
  /** in percentage points, e.g. "+25.0 pp" */
  deltaText: string;
  /** recalls up and errors down are better */
  trend: 'better' | 'worse' | 'same' | 'na';
}

export interface FlagView {
  code: string;
  severity: Severity;
  message: string;
}

export interface AttemptSummary {
  id: number;
  createdAt: string;
  /** the history's run label: "rerun" for single steps, the run folder for batch runs */
  run: string;
  templateId: string;
  templateName: string;
  /** 'carried' | 'none' | 'edited' for re-runs; 'chain' for a step of a batch run */
  personaMode: RerunPersonaMode | 'chain';
  baseRun: string | null;
  model: string;
  baseURL: string;
  recall: number | null;
  recallText: string;
  error: string | null;
  latencyMs: number;
  totalTokens: number | null;
}

export interface RerunComparison {
  attempt: AttemptSummary;
  originalRun: string | null;
  original: SideModel;
  rerun: SideModel;
  flipped: FlippedTag[];
  /** the step has positives (metrics are defined) */
  scored: boolean;
  metrics: MetricDelta[];
  /** original written → re-run written; null when either is empty (nothing to compare) */
  personaDiff: DiffPart[] | null;
  flags: FlagView[];
  /** some reply text came back (the flags are about it); false when every try failed without one */
  hasReply: boolean;
  /** HTTP attempts the re-run took (3 at most) */
  tries: number;
  usage: { promptTokens: number; completionTokens: number; totalTokens: number } | null;
  latencyMs: number;
}

function finite(v: number | undefined): number | null {
  return v !== undefined && Number.isFinite(v) ? v : null;
}

export function summarizeAttempt(step: Step | undefined, row: AttemptRow): AttemptSummary {
  const meta = readRerunMeta(row.meta);
  const recall = step ? finite(scoreStep(step.split, row.prediction)?.Recall) : null;
  return {
    id: row.id,
    createdAt: row.createdAt,
    run: row.run,
    templateId: row.templateId,
    templateName: meta?.templateName ?? '',
    personaMode: meta?.personaMode ?? 'chain',
    baseRun: meta?.baseRun ?? null,
    model: row.model,
    baseURL: row.baseURL,
    recall,
    recallText: formatMetric('Recall', recall),
    error: row.error,
    latencyMs: Number.isFinite(row.latencyMs) ? Math.round(row.latencyMs) : 0,
    totalTokens: row.usage ? row.usage.totalTokens : null,
  };
}

/** Pool class of each tag (first class wins when the task file lists a tag twice). */
function classes(step: Step): Map<string, PoolClass> {
  const of = new Map<string, PoolClass>();
  for (const cls of POOL_CLASSES) for (const t of step.split[cls]) if (!of.has(t)) of.set(t, cls);
  return of;
}

const isPositive = (cls: PoolClass) => cls === 'tKeep' || cls === 'tNew';

function picksOf(prediction: readonly unknown[]): string[] {
  return [...new Set(prediction.filter((p): p is string => typeof p === 'string'))];
}

/** One side's picks; `flip` is filled in once both sides are known. */
function side(
  prediction: readonly unknown[],
  of: Map<string, PoolClass>,
  hasResult: boolean,
  text: Omit<SideModel, 'hasResult' | 'picks' | 'predicted'>,
): SideModel {
  const picks = picksOf(prediction).map((tag): PickChip => {
    const cls = of.get(tag);
    if (!cls) return { tag, group: null, mark: 'outside', flip: null };
    return { tag, group: GROUP_LABELS[cls], mark: isPositive(cls) ? 'hit' : 'wrongPick', flip: null };
  });
  return { hasResult, picks, predicted: prediction.length, ...text };
}

function delta(key: MetricKey, before: number | null, after: number | null): MetricDelta {
  const info = METRIC_INFO[key];
  const d = before !== null && after !== null ? after - before : null;
  const up = key.startsWith('Recall');
  let trend: MetricDelta['trend'] = 'na';
  if (d !== null) trend = Math.abs(d) < 1e-12 ? 'same' : d > 0 === up ? 'better' : 'worse';
  const deltaText =
    d === null ? '—' : Math.abs(d) < 1e-12 ? '±0.0 pp' : `${d > 0 ? '+' : '−'}${Math.abs(d * 100).toFixed(1)} pp`;
  return {
    key,
    label: info.label,
    tooltip: info.tooltip,
    before,
    after,
    delta: d,
    beforeText: formatMetric(key, before),
    afterText: formatMetric(key, after),
    deltaText,
    trend,
  };
}

function flagsOf(raw: readonly unknown[]): FlagView[] {
  const out: FlagView[] = [];
  for (const f of raw) {
    if (typeof f !== 'object' || f === null) continue;
    const r = f as Record<string, unknown>;
    const severity: Severity = r.severity === 'error' || r.severity === 'warning' ? r.severity : 'info';
    if (typeof r.code === 'string' && typeof r.message === 'string')
      out.push({ code: r.code, severity, message: r.message });
  }
  return out;
}

export interface CompareInput {
  step: Step;
  /** the selected run's result for the step (undefined: the run has none) */
  original: StepResult | undefined;
  originalRun: string | null;
  /** the persona the original step received ('' for none) */
  originalPersonaIn: string;
  attempt: AttemptRow;
}

export function buildComparison({
  step,
  original,
  originalRun,
  originalPersonaIn,
  attempt,
}: CompareInput): RerunComparison {
  const of = classes(step);
  const before = new Set(picksOf(original?.prediction ?? []));
  const after = new Set(picksOf(attempt.prediction));
  const origSide = side(original?.prediction ?? [], of, original !== undefined, {
    personaIn: originalPersonaIn === '' ? null : originalPersonaIn,
    personaWritten: original?.personaSummary ?? '',
    reasoning: original?.reasoning ?? '',
  });
  const rerunSide = side(attempt.prediction, of, true, {
    personaIn: attempt.personaIn === '' ? null : attempt.personaIn,
    personaWritten: attempt.personaSummary,
    reasoning: attempt.reasoning,
  });
  const flipped: FlippedTag[] = [];
  for (const [tag, cls] of of) {
    const was = before.has(tag);
    const now = after.has(tag);
    if (was === now) continue;
    const positive = isPositive(cls);
    const kind: FlipKind = positive ? (now ? 'gained' : 'lost') : now ? 'newWrong' : 'fixedWrong';
    flipped.push({ tag, group: GROUP_LABELS[cls], positive, kind });
  }
  const flipOf = new Map(flipped.map((f) => [f.tag, f.kind]));
  for (const chip of [...origSide.picks, ...rerunSide.picks]) chip.flip = flipOf.get(chip.tag) ?? null;
  // Positives first (gains, then losses), then distractor changes, each in pool-class order.
  const order: FlipKind[] = ['gained', 'lost', 'newWrong', 'fixedWrong'];
  flipped.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));

  const mBefore = original ? scoreStep(step.split, original.prediction) : null;
  const mAfter = scoreStep(step.split, attempt.prediction);
  const written = original?.personaSummary ?? '';
  return {
    attempt: summarizeAttempt(step, attempt),
    originalRun,
    original: origSide,
    rerun: rerunSide,
    flipped,
    scored: mAfter !== null,
    metrics: METRIC_KEYS.map((key) => delta(key, finite(mBefore?.[key]), finite(mAfter?.[key]))),
    personaDiff: written !== '' && attempt.personaSummary !== '' ? wordDiff(written, attempt.personaSummary) : null,
    flags: flagsOf(attempt.flags),
    hasReply: attempt.raw !== '',
    tries: attempt.tries.length,
    usage: attempt.usage,
    latencyMs: Number.isFinite(attempt.latencyMs) ? Math.round(attempt.latencyMs) : 0,
  };
}
