// 95 % bootstrap intervals over units for the κ figures `labels summary` prints among annotators: each pair's Cohen's
// κ (overall and per label, over the units both did, as agreement.ts counts them) and the per-label κ among all the
// authors of a benchmark (Cohen's for two, Fleiss' for more, as agreementPerLabel.ts counts them). The resampling
// rule and its seed are goldAgreement.ts's, so that every κ interval of the tool means the same thing.
import type { BootstrapOptions, Interval } from '../stats/bootstrap';
import { labelledUnits, type LabelledUnit } from './agreement';
import { byUnit } from './agreementPerLabel';
import { cellOf, cohenInterval, fleissInterval, type Cell } from './goldAgreement';
import type { LabelRow } from './model';

export interface PairIntervals {
  overall: Interval;
  /** By label. */
  perLabel: Map<string, Interval>;
}

const inOrder = (units: Iterable<LabelledUnit>) => [...units].sort((a, b) => byUnit(a.ref, b.ref));

/** The intervals of the pair's κ, over the units both authors did and the labels either used there. */
export function pairIntervals(
  rows: readonly LabelRow[],
  authorA: string,
  authorB: string,
  opts: BootstrapOptions = {},
): PairIntervals {
  const shared = inOrder(labelledUnits(rows).values()).filter(
    (u) => u.byAuthor.has(authorA) && u.byAuthor.has(authorB),
  );
  const pairs = shared.map((u) => [u.byAuthor.get(authorA)!, u.byAuthor.get(authorB)!] as const);
  const labels = [...new Set(pairs.flatMap(([a, b]) => [...a, ...b]))].sort();
  const cells = (label: string): Cell[][] => pairs.map(([a, b]) => [cellOf(a.has(label), b.has(label))]);
  return {
    overall: cohenInterval(
      pairs.map(([a, b]) => labels.map((l) => cellOf(a.has(l), b.has(l)))),
      opts,
    ),
    perLabel: new Map(labels.map((l) => [l, cohenInterval(cells(l), opts)])),
  };
}

/** By label: the interval of its κ among all the authors of `rows` (one benchmark), over units two or more did. */
export function labelKappaIntervals(rows: readonly LabelRow[], opts: BootstrapOptions = {}): Map<string, Interval> {
  const units = inOrder(labelledUnits(rows).values()).filter((u) => u.byAuthor.size >= 2);
  const authors = [...new Set(units.flatMap((u) => [...u.byAuthor.keys()]))].sort();
  const labels = [...new Set(units.flatMap((u) => [...u.byAuthor.values()].flatMap((s) => [...s])))].sort();
  const out = new Map<string, Interval>();
  for (const label of labels) {
    if (authors.length === 2) {
      const [a, b] = authors;
      out.set(
        label,
        cohenInterval(
          units.map((u) => [cellOf(u.byAuthor.get(a)!.has(label), u.byAuthor.get(b)!.has(label))]),
          opts,
        ),
      );
    } else {
      const givers = (u: LabelledUnit) => [...u.byAuthor.values()].filter((s) => s.has(label)).length;
      out.set(
        label,
        fleissInterval(
          units.map((u) => [givers(u), u.byAuthor.size - givers(u)]),
          opts,
        ),
      );
    }
  }
  return out;
}

const fixed = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');

/** "[0.412, 0.803]", or "[n/a]" when no resample gave a defined κ. */
export function intervalText(ci: Interval): string {
  return Number.isFinite(ci.low) ? `[${fixed(ci.low)}, ${fixed(ci.high)}]` : '[n/a]';
}

/** An interval in JSON: [low, high], null bounds when undefined. */
export function intervalJson(ci: Interval): [number | null, number | null] {
  const num = (x: number) => (Number.isFinite(x) ? x : null);
  return [num(ci.low), num(ci.high)];
}
