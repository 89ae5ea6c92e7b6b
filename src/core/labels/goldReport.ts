// The gold set report `labels gold` prints and `labels summary` ends with: per benchmark (a step and a test action
// never share a unit), each unit's status (gold.ts: adjudicated, else unanimous, else open; single when one annotator
// did it) with the counts, and each annotator against gold (goldAgreement.ts: per label precision, recall and Cohen's
// κ with its 95 % bootstrap interval over units). One JSON shape for the CLI and any view (docs/guide.md).
import type { BootstrapOptions } from '../stats/bootstrap';
import { rowsByBenchmark } from './agreement';
import { unitText } from './agreementPerLabel';
import { intervalJson, intervalText } from './agreementIntervals';
import { GOLD_STATUSES, goldSet, type Adjudication, type GoldStatus, type GoldUnit } from './gold';
import {
  AGREEMENT_RESAMPLES,
  AGREEMENT_SEED,
  annotatorsVsGold,
  type AnnotatorVsGold,
  type GoldFigure,
} from './goldAgreement';
import type { LabelRow, StepRef } from './model';
import { nounOrNouns, platformUnitNoun, type UnitNamer, type UnitNoun } from './unitNoun';
import { formatWhyRunsFail, whyRunsFail, type RunFailures } from './whyRunsFail';

export type GoldCounts = Record<GoldStatus, number> & { units: number };

export interface GoldBenchmark {
  benchmark: string;
  unit: UnitNoun;
  counts: GoldCounts;
  units: GoldUnit[];
  annotators: AnnotatorVsGold[];
}

export interface GoldReport {
  counts: GoldCounts;
  benchmarks: GoldBenchmark[];
  interval: { level: number; resamples: number; seed: number };
}

function countsOf(units: readonly GoldUnit[]): GoldCounts {
  const c = { adjudicated: 0, unanimous: 0, open: 0, single: 0, units: units.length };
  for (const u of units) c[u.status]++;
  return c;
}

/**
 * The report of `rows` (annotators' labels) and `adjudications` (live decisions), optionally kept to `keep`, each
 * benchmark's units called as `unitOf` names them (its format's noun where the caller knows the format).
 */
export function goldReport(
  rows: readonly LabelRow[],
  adjudications: readonly Adjudication[],
  opts: BootstrapOptions & { keep?: (ref: StepRef) => boolean; unitOf?: UnitNamer } = {},
): GoldReport {
  const unitOf = opts.unitOf ?? platformUnitNoun;
  const keep = opts.keep ?? (() => true);
  const kept = rows.filter((r) => keep(r));
  const decided = adjudications.filter((a) => keep(a.ref));
  const grouped = new Map(rowsByBenchmark(kept).map((g) => [g.benchmark, g]));
  const names = [...new Set([...grouped.keys(), ...decided.map((a) => a.ref.benchmark)])].sort();
  const benchmarks = names.map((benchmark): GoldBenchmark => {
    const own = grouped.get(benchmark)?.rows ?? [];
    const mine = decided.filter((a) => a.ref.benchmark === benchmark);
    const set = goldSet(own, mine);
    const unit = unitOf(
      benchmark,
      set.units.map((u) => u.ref),
    );
    return { benchmark, unit, counts: countsOf(set.units), units: set.units, annotators: annotatorsVsGold(set, opts) };
  });
  return {
    counts: countsOf(benchmarks.flatMap((b) => b.units)),
    benchmarks,
    interval: {
      level: opts.level ?? 0.95,
      resamples: opts.resamples ?? AGREEMENT_RESAMPLES,
      seed: opts.seed ?? AGREEMENT_SEED,
    },
  };
}

const num = (x: number) => (Number.isFinite(x) ? x : null);

function figureJson(f: GoldFigure) {
  return {
    tp: f.tp,
    fp: f.fp,
    fn: f.fn,
    tn: f.tn,
    precision: num(f.precision),
    recall: num(f.recall),
    kappa: num(f.kappa),
    kappaCi: intervalJson(f.kappaCi),
  };
}

function annotatorJson(a: AnnotatorVsGold) {
  return {
    author: a.author,
    units: a.units,
    adjudicated: a.adjudicated,
    overall: figureJson(a.overall),
    perLabel: Object.fromEntries(a.perLabel.map((f) => [f.label, figureJson(f)])),
  };
}

function unitJson(u: GoldUnit) {
  return {
    ...u.ref,
    status: u.status,
    gold: u.gold,
    annotators: Object.fromEntries(u.annotators.map((a) => [a.author, a.labels])),
    ...(u.adjudicator !== undefined ? { adjudicator: u.adjudicator, adjudicatedAt: u.adjudicatedAt } : {}),
    ...(u.note ? { note: u.note } : {}),
  };
}

function runJson(r: RunFailures) {
  const { benchmark: _b, byLabel, ...figures } = r;
  return { ...figures, byLabel: Object.fromEntries(byLabel.map((c) => [c.label, { count: c.count, share: c.share }])) };
}

/** The JSON contract of `labels gold --json` (docs/guide.md); `units: false` leaves the per-unit list out. */
export function goldReportJson(r: GoldReport, withUnits = true) {
  const runs = whyRunsFail(r);
  return {
    counts: r.counts,
    interval: r.interval,
    benchmarks: r.benchmarks.map((b) => ({
      benchmark: b.benchmark,
      unit: b.unit.key,
      counts: b.counts,
      annotators: b.annotators.map(annotatorJson),
      runs: runs.filter((x) => x.benchmark === b.benchmark).map(runJson),
      ...(withUnits ? { units: b.units.map(unitJson) } : {}),
    })),
  };
}

const fixed = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');

export function countsText(c: GoldCounts, noun = 'unit(s)'): string {
  return `${c.units} ${noun}: ${c.adjudicated} adjudicated, ${c.unanimous} unanimous, ${c.open} open, ${c.single} by one annotator only`;
}

/** Each annotator against gold, one table per benchmark (the lines `labels summary` ends with). */
export function formatAgainstGold(r: GoldReport, names: ReadonlyMap<string, string> = new Map()): string {
  const name = (id: string) => names.get(id) ?? id;
  const out: string[] = [];
  for (const b of r.benchmarks) {
    if (b.annotators.length === 0) continue;
    const settled = b.counts.adjudicated + b.counts.unanimous;
    out.push(
      '',
      `Against gold in ${b.benchmark} (${settled} settled ${nounOrNouns(b.unit)}; κ with its ${r.interval.level * 100} % bootstrap interval over them):`,
    );
    const head = ['annotator', 'label', 'n', 'adjud.', 'precision', 'recall', 'kappa', 'interval'];
    const body: string[][] = [];
    for (const a of b.annotators)
      for (const f of [a.overall, ...a.perLabel])
        body.push([
          f.label ? '' : a.author,
          f.label ? name(f.label) : '(all labels)',
          f.label ? '' : String(a.units),
          f.label ? '' : String(a.adjudicated),
          fixed(f.precision),
          fixed(f.recall),
          fixed(f.kappa),
          intervalText(f.kappaCi),
        ]);
    const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
    const line = (cells: string[]) =>
      '  ' + cells.map((c, i) => (i === 7 ? c : i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    out.push(line(head), ...body.map(line));
  }
  return out.join('\n');
}

/** `labels gold`'s text: the counts, the units still open, and each annotator against gold. */
export function formatGoldReport(r: GoldReport, names: ReadonlyMap<string, string> = new Map()): string {
  const name = (id: string) => names.get(id) ?? id;
  const out = [`Gold set: ${countsText(r.counts)}`];
  for (const b of r.benchmarks) {
    out.push('', `${b.benchmark}: ${countsText(b.counts, nounOrNouns(b.unit))}`);
    const open = b.units.filter((u) => u.status === 'open');
    if (open.length) out.push(`Open in ${b.benchmark} (no decision, the annotators differ):`);
    for (const u of open) {
      const said = u.annotators.map((a) => `${a.author}: ${a.labels.map(name).join(', ') || '(none)'}`).join(' | ');
      out.push(`  ${unitText(u.ref, b.unit)}  —  ${said}`);
    }
  }
  out.push(formatWhyRunsFail(whyRunsFail(r), names));
  out.push(formatAgainstGold(r, names));
  return out.join('\n').trimEnd();
}

export { GOLD_STATUSES };
