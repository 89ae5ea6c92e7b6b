// 95 % bootstrap intervals over units for the κ figures `labels summary` prints among annotators: each pair's Cohen's
// κ (overall and per label, over the units both did, as agreement.ts counts them) and the per-label κ among all the
// authors of a benchmark (Cohen's for two, Fleiss' for more, as agreementPerLabel.ts counts them). The resampling
// rule and its seed are goldAgreement.ts's, so that every κ interval of the tool means the same thing.
import type { BootstrapOptions, Interval } from '../stats/bootstrap';
import { labelledUnits, type LabelledUnit } from './agreement';
import { byUnit } from './agreementPerLabel';
import { cellOf, cohenInterval, fleissInterval, type Cell } from './goldAgreement';
import type { LabelRow } from './model';
import { fixed3 } from './figureText';

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

const fixed = (x: number) => fixed3(x);

/** "[0.412, 0.803]", or "[n/a]" when no resample gave a defined κ. */
export function intervalText(ci: Interval): string {
  return Number.isFinite(ci.low) ? `[${fixed(ci.low)}, ${fixed(ci.high)}]` : '[n/a]';
}

/** An interval in JSON: [low, high], null bounds when undefined. */
export function intervalJson(ci: Interval): [number | null, number | null] {
  const num = (x: number) => (Number.isFinite(x) ? x : null);
  return [num(ci.low), num(ci.high)];
}

/** `head` then the items, comma-separated, wrapped under 120 columns with a hanging indent. */
function wrapped(head: string, items: readonly string[]): string[] {
  const out: string[] = [];
  let line = head;
  items.forEach((item, i) => {
    const piece = item + (i < items.length - 1 ? ',' : '');
    if (line.length + 1 + piece.length > 120 && line.trim() !== head.trim()) {
      out.push(line);
      line = '     ' + piece;
    } else line += ' ' + piece;
  });
  out.push(line);
  return out;
}

/** The CLI's text: each pair's κ intervals, then each benchmark's per-label ones. */
export function formatAgreementIntervals(
  pairs: readonly { authorA: string; authorB: string; cis: PairIntervals }[],
  perBenchmark: readonly { benchmark: string; cis: ReadonlyMap<string, Interval> }[],
  names: ReadonlyMap<string, string>,
  head: string,
): string {
  const each = (cis: ReadonlyMap<string, Interval>) =>
    [...cis].map(([label, ci]) => `${names.get(label) ?? label} ${intervalText(ci)}`);
  return [
    head,
    ...pairs.flatMap((p) =>
      wrapped(`  ${p.authorA} vs ${p.authorB}: overall ${intervalText(p.cis.overall)};`, each(p.cis.perLabel)),
    ),
    ...perBenchmark.flatMap((b) => wrapped(`  per label in ${b.benchmark}:`, each(b.cis))),
  ].join('\n');
}
