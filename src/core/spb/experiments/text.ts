// StreamProfileBench's experiment figures as text: the paired table of one experiment and the log's table, for the CLI
// and the extension (tree descriptions and tooltips use deltaText). Differences are in percentage points (pp).
import type { PairedSummaryRow } from '../score/pairedSummary';
import { higherIsBetter, type CompareMetric } from '../score/runCompare';
import { intervalCannotVary, thinPlatforms, type ExperimentFigures } from './experiment';
import { templateLabel, type ExperimentRow } from './log';
import { LONG_CONTEXT_READING } from './longContext';
import { FIGURE_VIEW_ORDER, METRIC_NAMES } from '../names';
import { alignColumns } from '../../tables/text';
import { MISSING } from '../../glossary';
import { coverageJson, coverageNote } from '../../coverage';
import { pct, pp } from '../../experiments/format';
import { experimentCoverage, type BenchmarkSize } from './coverage';

/** The metrics' short names (names.ts). */
export const EXPERIMENT_METRIC_LABELS: Record<CompareMetric, string> = Object.fromEntries(
  Object.entries(METRIC_NAMES).map(([k, n]) => [k, n.short]),
) as Record<CompareMetric, string>;

/** The order experiments are shown in: the headline figures first, then the four error rates. */
export const EXPERIMENT_METRICS: readonly CompareMetric[] = FIGURE_VIEW_ORDER;

/**
 * "+1.2 [−0.5, +3.0]": the paired difference and its 95 % interval, in pp; "+1.1 (CI n/a: 5 users)" without one;
 * MISSING ("—") without a difference.
 */
export function deltaText(r: PairedSummaryRow | undefined, figures?: ExperimentFigures | null): string {
  if (!r || !Number.isFinite(r.diff)) return MISSING;
  // An interval that cannot vary (one user per platform: resampling draws the same users) is not an interval.
  if (!Number.isFinite(r.ciLow) || !Number.isFinite(r.ciHigh) || (figures && intervalCannotVary(figures)))
    return `${pp(r.diff)} (CI n/a: ${r.users} users)`;
  return `${pp(r.diff)} [${pp(r.ciLow)}, ${pp(r.ciHigh)}]`;
}

/** Whether the interval excludes 0 on the better side (+1), the worse side (−1), or not (0). */
export function verdict(r: PairedSummaryRow | undefined): -1 | 0 | 1 {
  if (!r || !Number.isFinite(r.ciLow) || !Number.isFinite(r.ciHigh)) return 0;
  const sign = higherIsBetter(r.metric) ? 1 : -1;
  if (r.ciLow > 0) return sign === 1 ? 1 : -1;
  if (r.ciHigh < 0) return sign === 1 ? -1 : 1;
  return 0;
}

/** One experiment's paired comparison: per metric base, experiment, difference with CI, users won/tied/lost. */
export function figureLines(f: ExperimentFigures): string[] {
  const rows = [['metric', f.baseRun, 'experiment', 'Δ pp [95% CI]', 'users W/T/L']];
  for (const m of EXPERIMENT_METRICS) {
    const r = f.summary.find((x) => x.metric === m);
    if (!r) continue;
    const w = r.userWtl;
    rows.push([
      EXPERIMENT_METRIC_LABELS[m],
      pct(r.meanA),
      pct(r.meanB),
      deltaText(r, f),
      `${w.win}/${w.tie}/${w.loss}`,
    ]);
  }
  const fl = f.flips;
  const top = fl.top
    .slice(0, 5)
    .map((t) => `${t.tag} ${t.kind} ×${t.steps}`)
    .join(', ');
  const thin = thinPlatforms(f);
  return [
    ...(thin.length
      ? [
          `note: one paired user on ${thin.join(', ')}: the 95 % interval resamples users within platforms, so it is too narrow; draw more users per platform`,
        ]
      : []),
    `compared with ${f.baseRun} on ${f.pairedSteps} paired steps of ${f.pairedUsers} users` +
      (f.onlyBase || f.onlyRun ? ` (${f.onlyBase} only in the base run, ${f.onlyRun} only in the experiment)` : ''),
    ...alignColumns(rows).map((l) => `  ${l}`),
    `  tags flipped: ${fl.gained} gained, ${fl.lost} lost, ${fl.newWrong} new wrong picks, ${fl.droppedWrong} wrong picks dropped` +
      (top ? ` (most: ${top})` : ''),
  ];
}

const localTime = (iso: string) => {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
};

const row = (r: ExperimentRow, m: CompareMetric) => r.figures?.summary.find((x) => x.metric === m);

/** The log as a table, in the order given (newest first from ExperimentLog.list). */
/**
 * The log as a table; with the benchmark's size, each run's line under it says what its figures are over ("over 5 of
 * 50 users, 12 of 166 steps"), so a table copied from here does not pass a sample's figures off as the benchmark's.
 */
export function experimentsTable(rows: readonly ExperimentRow[], size?: BenchmarkSize): string {
  if (rows.length === 0) return 'No experiments yet.';
  const head = [
    'time',
    'kind',
    'author',
    'template',
    'model',
    'sample',
    'base',
    'ΔR pp',
    'ΔF1^NS',
    'ΔR_stab',
    'ΔR_nov',
  ];
  const body = rows.map((r) => [
    localTime(r.createdAt),
    r.kind,
    r.author,
    templateLabel(r.template),
    r.endpoint.model,
    `${r.sample.name} (${r.sample.users})`,
    r.baseRun || '—',
    deltaText(row(r, 'Recall'), r.figures),
    deltaText(row(r, 'F1NS'), r.figures),
    deltaText(row(r, 'Recall_Stability'), r.figures),
    deltaText(row(r, 'Recall_Novelty'), r.figures),
  ]);
  const costs = rows.map(
    (r) =>
      `  ${r.run}: ${r.cost.requests} requests, ${r.cost.promptTokens + r.cost.completionTokens} tokens ` +
      `(${r.cost.promptTokens} prompt, ${r.cost.completionTokens} completion), ${(r.cost.latencyMs / 1000).toFixed(1)} s of requests`,
  );
  const over = size
    ? rows.map((r) => `  ${r.run}: figures ${coverageNote(experimentCoverage(r, size)) ?? 'over the whole benchmark'}`)
    : [];
  const longContext = rows.some((r) => r.kind === 'long-context')
    ? [
        '',
        `long-context rows: ${LONG_CONTEXT_READING}.`,
        '  Δ is long-context − streaming base on the same last steps (Table 7’s Avg.); F1^NS does not apply (one step per user).',
      ]
    : [];
  return [
    ...alignColumns([head, ...body], 7),
    ...longContext,
    ...(over.length ? ['', 'what each row’s figures are over (its sample, not the benchmark):', ...over] : []),
    '',
    'cost (from the responses’ usage):',
    ...costs,
  ].join('\n');
}

/** The log as JSON: NaN figures as null; with the benchmark's size, each row's `coverage` (docs/scoring.md's block). */
export function experimentsJson(rows: readonly ExperimentRow[], size?: BenchmarkSize): unknown {
  const out = size ? rows.map((r) => ({ ...r, coverage: coverageJson(experimentCoverage(r, size)) })) : rows;
  return JSON.parse(JSON.stringify(out, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v)));
}
