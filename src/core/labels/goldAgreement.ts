// Each annotator against the gold set (gold.ts), per label: precision, recall and Cohen's κ of the annotator's
// present/absent decisions against gold's, over the settled units the annotator did; and 95 % percentile bootstrap
// intervals over units (stats/bootstrap.ts) for these κ and for the annotators' own pairwise and Fleiss κ. Units are
// resampled whole, since the labels of one unit are decided together.
import { bootstrapInterval, type BootstrapOptions, type Interval } from '../stats/bootstrap';
import { cohensKappa, type KappaTable } from './agreement';
import { fleissKappa } from './fleiss';
import type { GoldSet } from './gold';

/** One seed for every label interval, so that a figure read twice is the same figure. */
export const AGREEMENT_SEED = 20261206;
export const AGREEMENT_RESAMPLES = 2000;

const CELLS = ['both', 'onlyA', 'onlyB', 'neither'] as const;
/** A unit's decision on one label: index into CELLS (A the annotator or first author, B gold or the second). */
export type Cell = 0 | 1 | 2 | 3;

export const cellOf = (inA: boolean, inB: boolean): Cell => (inA ? (inB ? 0 : 1) : inB ? 2 : 3);

function table(cells: readonly (readonly Cell[])[], idx?: Int32Array): KappaTable {
  const t: KappaTable = { both: 0, onlyA: 0, onlyB: 0, neither: 0 };
  const n = idx ? idx.length : cells.length;
  for (let i = 0; i < n; i++) for (const c of cells[idx ? idx[i] : i]) t[CELLS[c]]++;
  return t;
}

const options = (opts: BootstrapOptions): BootstrapOptions => ({
  resamples: AGREEMENT_RESAMPLES,
  seed: AGREEMENT_SEED,
  ...opts,
});

/**
 * The interval of Cohen's κ over units, each unit with its cells (one per label: pooled κ; one: a label's κ).
 * A resample where κ is undefined (both sides constant) is left out; `defined` says how many counted.
 */
export function cohenInterval(cells: readonly (readonly Cell[])[], opts: BootstrapOptions = {}): Interval {
  return bootstrapInterval(cells.length, (idx) => cohensKappa(table(cells, idx)).kappa, options(opts));
}

/** The interval of Fleiss' κ over the rows (units) of a units x categories count table. */
export function fleissInterval(rows: readonly (readonly number[])[], opts: BootstrapOptions = {}): Interval {
  const kept = rows.filter((r) => r.reduce((a, b) => a + b, 0) >= 2);
  return bootstrapInterval(kept.length, (idx) => fleissKappa(Array.from(idx, (i) => kept[i])).kappa, options(opts));
}

export interface GoldFigure {
  /** The label; '' for the pooled row over every label. */
  label: string;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  /** tp / (tp + fp); NaN when the annotator never gave it. */
  precision: number;
  /** tp / (tp + fn); NaN when gold never has it. */
  recall: number;
  kappa: number;
  kappaCi: Interval;
}

export interface AnnotatorVsGold {
  author: string;
  /** Settled units the annotator did. */
  units: number;
  /** Of those, the adjudicated ones (the others are unanimous, where the annotator agrees by construction). */
  adjudicated: number;
  perLabel: GoldFigure[];
  overall: GoldFigure;
}

function figure(label: string, cells: readonly (readonly Cell[])[], opts: BootstrapOptions): GoldFigure {
  const t = table(cells);
  const k = cohensKappa(t);
  return {
    label,
    tp: t.both,
    fp: t.onlyA,
    fn: t.onlyB,
    tn: t.neither,
    precision: t.both + t.onlyA ? t.both / (t.both + t.onlyA) : NaN,
    recall: t.both + t.onlyB ? t.both / (t.both + t.onlyB) : NaN,
    kappa: k.kappa,
    kappaCi: cohenInterval(cells, opts),
  };
}

/** Every annotator of the gold set's units against gold, sorted by author; labels sorted within. */
export function annotatorsVsGold(gold: GoldSet, opts: BootstrapOptions = {}): AnnotatorVsGold[] {
  const settled = gold.units.filter((u) => u.gold !== null);
  const authors = [...new Set(settled.flatMap((u) => u.annotators.map((a) => a.author)))].sort();
  return authors.map((author) => {
    const mine = settled.flatMap((u) => {
      const a = u.annotators.find((x) => x.author === author);
      return a ? [{ given: new Set(a.labels), gold: new Set(u.gold), adjudicated: u.status === 'adjudicated' }] : [];
    });
    const labels = [...new Set(mine.flatMap((u) => [...u.given, ...u.gold]))].sort();
    const perLabel = labels.map((label) =>
      figure(
        label,
        mine.map((u) => [cellOf(u.given.has(label), u.gold.has(label))]),
        opts,
      ),
    );
    const pooled = mine.map((u) => labels.map((l) => cellOf(u.given.has(l), u.gold.has(l))));
    return {
      author,
      units: mine.length,
      adjudicated: mine.filter((u) => u.adjudicated).length,
      perLabel,
      overall: figure('', pooled, opts),
    };
  });
}
