// Counts per label per platform, and Cohen's kappa between two annotators.
//
// Definition used here:
// - a unit is one step of one run (benchmark, platform, user, step, run); an author "labelled" a unit when they
//   have at least one label on it (on the step, one of its tags or a span: all count as that step's labels);
// - only units both authors labelled are compared;
// - per label L: each author's rating of a unit is binary (L present / absent), and
//   kappa = (po - pe) / (1 - pe), po = share of units where both agree, pe = pA·pB + (1 - pA)(1 - pB) with pA, pB
//   the shares of units each author gave L; kappa is NaN (undefined) when pe = 1;
// - overall: the same formula on the pooled 2x2 table of every (unit, label) decision, over the labels at least
//   one of the two used on the shared units (labels neither used would only add agreement by default).
import { stepKey, type LabelRow, type StepRef } from './model';
import { nounOrNouns, platformUnitNoun, type UnitNamer, type UnitNoun } from './unitNoun';

export interface KappaTable {
  /** Both present, only A, only B, both absent. */
  both: number;
  onlyA: number;
  onlyB: number;
  neither: number;
}

export interface Kappa extends KappaTable {
  n: number;
  po: number;
  pe: number;
  kappa: number;
}

export function cohensKappa(t: KappaTable): Kappa {
  const n = t.both + t.onlyA + t.onlyB + t.neither;
  if (n === 0) return { ...t, n, po: NaN, pe: NaN, kappa: NaN };
  const po = (t.both + t.neither) / n;
  const pA = (t.both + t.onlyA) / n;
  const pB = (t.both + t.onlyB) / n;
  const pe = pA * pB + (1 - pA) * (1 - pB);
  return { ...t, n, po, pe, kappa: pe === 1 ? NaN : (po - pe) / (1 - pe) };
}

/** A shared unit where the two authors disagree on one label: who gave it, and every label each gave there. */
export interface Disagreement {
  unit: StepRef;
  /** The author who gave the label (the other did not). */
  givenBy: 'A' | 'B';
  /** Every label each author gave the unit, sorted. */
  labelsA: string[];
  labelsB: string[];
}

export interface LabelAgreement {
  label: string;
  kappa: Kappa;
  /** The units counted in onlyA and onlyB, in unit order. */
  disagreements: Disagreement[];
}

export interface Agreement {
  authorA: string;
  authorB: string;
  /** Units both labelled. */
  units: number;
  perLabel: LabelAgreement[];
  overall: Kappa;
}

/** One unit and, for each author who did it, every label they gave it. */
export interface LabelledUnit {
  ref: StepRef;
  byAuthor: Map<string, Set<string>>;
}

/**
 * Every unit someone labelled, keyed by stepKey: the one rule of what a unit is and who did it (an author did a unit
 * when they have at least one label on it, on the step, one of its tags or a span).
 */
export function labelledUnits(rows: readonly LabelRow[]): Map<string, LabelledUnit> {
  const m = new Map<string, LabelledUnit>();
  for (const r of rows) {
    const k = stepKey(r);
    let u = m.get(k);
    if (!u) {
      const { benchmark, platform, userId, stepId, run } = r;
      m.set(k, (u = { ref: { benchmark, platform, userId, stepId, run }, byAuthor: new Map() }));
    }
    let labels = u.byAuthor.get(r.author);
    if (!labels) u.byAuthor.set(r.author, (labels = new Set()));
    labels.add(r.label);
  }
  return m;
}

interface Unit {
  ref: StepRef;
  labels: Set<string>;
}

function labelsByUnit(units: ReadonlyMap<string, LabelledUnit>, author: string): Map<string, Unit> {
  const m = new Map<string, Unit>();
  for (const [k, u] of units) {
    const labels = u.byAuthor.get(author);
    if (labels) m.set(k, { ref: u.ref, labels });
  }
  return m;
}

export function agreement(rows: readonly LabelRow[], authorA: string, authorB: string): Agreement {
  const units = labelledUnits(rows);
  const a = labelsByUnit(units, authorA);
  const b = labelsByUnit(units, authorB);
  const shared = [...a.keys()].filter((k) => b.has(k)).sort();
  const used = new Set<string>();
  for (const u of shared) for (const l of [...a.get(u)!.labels, ...b.get(u)!.labels]) used.add(l);
  const pooled: KappaTable = { both: 0, onlyA: 0, onlyB: 0, neither: 0 };
  const perLabel = [...used].sort().map((label): LabelAgreement => {
    const t: KappaTable = { both: 0, onlyA: 0, onlyB: 0, neither: 0 };
    const disagreements: Disagreement[] = [];
    for (const u of shared) {
      const ua = a.get(u)!;
      const ub = b.get(u)!;
      const inA = ua.labels.has(label);
      const inB = ub.labels.has(label);
      const cell = inA && inB ? 'both' : inA ? 'onlyA' : inB ? 'onlyB' : 'neither';
      t[cell]++;
      pooled[cell]++;
      if (inA !== inB)
        disagreements.push({
          unit: { ...ua.ref },
          givenBy: inA ? 'A' : 'B',
          labelsA: [...ua.labels].sort(),
          labelsB: [...ub.labels].sort(),
        });
    }
    return { label, kappa: cohensKappa(t), disagreements };
  });
  return { authorA, authorB, units: shared.length, perLabel, overall: cohensKappa(pooled) };
}

export interface LabelSummary {
  /** label -> platform -> count of rows */
  counts: Map<string, Map<string, number>>;
  platforms: string[];
  authors: string[];
  total: number;
  /** Every pair of authors that share at least one unit. */
  agreements: Agreement[];
}

export function summarize(rows: readonly LabelRow[]): LabelSummary {
  const counts = new Map<string, Map<string, number>>();
  const platforms = new Set<string>();
  const authors = new Set<string>();
  for (const r of rows) {
    platforms.add(r.platform);
    authors.add(r.author);
    let m = counts.get(r.label);
    if (!m) counts.set(r.label, (m = new Map()));
    m.set(r.platform, (m.get(r.platform) ?? 0) + 1);
  }
  const list = [...authors].sort();
  const agreements: Agreement[] = [];
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      const ag = agreement(rows, list[i], list[j]);
      if (ag.units > 0) agreements.push(ag);
    }
  }
  return { counts, platforms: [...platforms].sort(), authors: list, total: rows.length, agreements };
}

export interface BenchmarkAgreements {
  /** The `benchmark` column: the benchmark folder's name. */
  benchmark: string;
  unit: UnitNoun;
  /** Every pair of authors that share at least one unit of this benchmark. */
  agreements: Agreement[];
}

/**
 * Agreement per benchmark (the `benchmark` column), as `labels summary <folder>` gives it for one folder: a step
 * label and a test-action label never share a unit, so pooling two benchmarks would only add "neither" cells.
 */
export function agreementsByBenchmark(
  rows: readonly LabelRow[],
  unitOf: UnitNamer = platformUnitNoun,
): BenchmarkAgreements[] {
  return rowsByBenchmark(rows, unitOf).map(({ benchmark, unit, rows: list }) => ({
    benchmark,
    unit,
    agreements: summarize(list).agreements,
  }));
}

/** The rows of each benchmark (the `benchmark` column), sorted by it, with what its units are called. */
export function rowsByBenchmark(
  rows: readonly LabelRow[],
  unitOf: UnitNamer = platformUnitNoun,
): { benchmark: string; unit: UnitNoun; rows: LabelRow[] }[] {
  const by = new Map<string, LabelRow[]>();
  for (const r of rows) {
    let list = by.get(r.benchmark);
    if (!list) by.set(r.benchmark, (list = []));
    list.push(r);
  }
  return [...by.keys()].sort().map((benchmark) => {
    const list = by.get(benchmark)!;
    return { benchmark, unit: unitOf(benchmark, list), rows: list };
  });
}

function fmt(x: number): string {
  return Number.isNaN(x) ? 'n/a' : x.toFixed(3);
}

/** Fewer shared steps than this and kappa says nothing (one disagreement swings it across the scale). */
export const KAPPA_MIN_UNITS = 10;

/** κ in a table cell: "n/a†" below the minimum (a note under the table says why), so that the column stays narrow. */
export function kappaCellText(k: Pick<Kappa, 'kappa'>, units: number): string {
  return units < KAPPA_MIN_UNITS ? 'n/a†' : fmt(k.kappa);
}

/** Kappa as shown: its value, or "n/a (n = 2 < 10 steps)" on too few shared units, or "n/a" when undefined. */
export function kappaText(k: Kappa, units: number, unit: UnitNoun = platformUnitNoun('', [])): string {
  if (units < KAPPA_MIN_UNITS) return `n/a (n = ${units} < ${KAPPA_MIN_UNITS} ${unit.plural})`;
  return fmt(k.kappa);
}

/**
 * Plain-text summary for the CLI and the extension's output channel; `unit` names the units the pairs share (the
 * format's noun when the rows are one benchmark's).
 */
export function formatSummary(
  s: LabelSummary,
  names: ReadonlyMap<string, string> = new Map(),
  unit: UnitNoun = platformUnitNoun('', []),
): string {
  const out: string[] = [];
  const labels = [...s.counts.keys()].sort();
  const head = ['label', ...s.platforms, 'total'];
  const body = labels.map((l) => {
    const m = s.counts.get(l) ?? new Map<string, number>();
    const cells = s.platforms.map((p) => String(m.get(p) ?? 0));
    const total = [...m.values()].reduce((x, y) => x + y, 0);
    return [names.get(l) ?? l, ...cells, String(total)];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const row = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  out.push(`${s.total} label(s) by ${s.authors.length} author(s)`);
  if (labels.length > 0) out.push('', row(head), ...body.map(row));
  for (const ag of s.agreements) {
    out.push('', `Agreement ${ag.authorA} vs ${ag.authorB} on ${ag.units} ${nounOrNouns(unit)} both labelled:`);
    out.push(
      `  overall kappa ${kappaText(ag.overall, ag.units, unit)} (observed ${fmt(ag.overall.po)}, chance ${fmt(ag.overall.pe)})`,
    );
    for (const p of ag.perLabel) {
      const k = p.kappa;
      out.push(
        `  ${(names.get(p.label) ?? p.label).padEnd(20)} kappa ${kappaText(k, ag.units, unit)}  (both ${k.both}, only ${ag.authorA} ${k.onlyA}, only ${ag.authorB} ${k.onlyB}, neither ${k.neither})`,
      );
    }
  }
  return out.join('\n');
}
