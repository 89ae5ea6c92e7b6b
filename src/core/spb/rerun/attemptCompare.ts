// A re-run of one step next to the original result: picks of each with the tags that flipped, metric deltas, the
// persona diff between the two written personas, flags, latency and usage. Pure and JSON-safe (numbers are finite
// or null) because it goes to the webview as a message.
import { maskedText } from '../../pi/guard';
import type { HistoryContext, HistoryRow } from '../run/history';
import type { StepRunRecord } from '../run/step';
import { scoreStep } from '../score/step';
import { compareSides, finite, type FlippedTag, type MetricDelta, type SideModel } from '../view/sides';
import type { DiffPart } from '../view/stepModel';
import { formatMetric } from '../view/stepText';
import type { Step, StepResult } from '../types';
import { type Severity } from '../../io/diagnostics';

/** Where a re-run's persona came from: the selected run's thread, none (cold start), or typed by hand. */
export const RERUN_PERSONA_MODES = ['carried', 'none', 'edited'] as const;
export type RerunPersonaMode = (typeof RERUN_PERSONA_MODES)[number];

/** What the extension stores in the history row's meta for a single-step re-run. */
export interface RerunMeta {
  kind: 'rerun';
  personaMode: RerunPersonaMode;
  /** the run whose result the re-run is compared with (and whose persona a 'carried' re-run received) */
  baseRun: string | null;
  /** file name of the template, or BUILTIN_TEMPLATE_NAME */
  templateName: string;
  /** what the PI guard masked in the request, per category (absent: nothing) */
  masked?: Record<string, number>;
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
    ...(isMaskedCounts(meta.masked) ? { masked: meta.masked } : {}),
  };
}

function isMaskedCounts(v: unknown): v is Record<string, number> {
  return (
    typeof v === 'object' &&
    v !== null &&
    Object.values(v).every((n) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0)
  );
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

export interface FlagView {
  code: string;
  severity: Severity;
  message: string;
}

export interface AttemptSummary {
  id: number;
  /** 1-based place among this step's attempts, oldest first (0 when not known) */
  n: number;
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
  /** "masked 2 PHONE" when the PI guard masked the request, else '' */
  masked: string;
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

export function summarizeAttempt(step: Step | undefined, row: AttemptRow, n = 0): AttemptSummary {
  const meta = readRerunMeta(row.meta);
  const recall = step ? finite(scoreStep(step.split, row.prediction)?.Recall) : null;
  return {
    id: row.id,
    n,
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
    masked: maskedText(meta?.masked),
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
  const sides = compareSides(
    step,
    {
      prediction: original?.prediction ?? null,
      personaIn: originalPersonaIn,
      personaWritten: original?.personaSummary ?? '',
      reasoning: original?.reasoning ?? '',
    },
    {
      prediction: attempt.prediction,
      personaIn: attempt.personaIn,
      personaWritten: attempt.personaSummary,
      reasoning: attempt.reasoning,
    },
  );
  return {
    attempt: summarizeAttempt(step, attempt),
    originalRun,
    original: sides.before,
    rerun: sides.after,
    flipped: sides.flipped,
    scored: sides.scored,
    metrics: sides.metrics,
    personaDiff: sides.personaDiff,
    flags: flagsOf(attempt.flags),
    hasReply: attempt.raw !== '',
    tries: attempt.tries.length,
    usage: attempt.usage,
    latencyMs: Number.isFinite(attempt.latencyMs) ? Math.round(attempt.latencyMs) : 0,
  };
}
