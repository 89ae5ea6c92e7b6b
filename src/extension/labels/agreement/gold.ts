// The Label Agreement's gold part: per benchmark, the gold set's counts, each annotator against gold (precision,
// recall and κ with its bootstrap interval) and why its runs fail, from the core's report (the numbers `labels gold`
// prints), as text cells for the page.
import type { Adjudication } from '../../../core/labels/gold';
import { countsText, goldReport } from '../../../core/labels/goldReport';
import type { GoldFigure } from '../../../core/labels/goldAgreement';
import { intervalText } from '../../../core/labels/agreementIntervals';
import type { LabelRow } from '../../../core/labels/model';
import { nounOrNouns, platformUnitNoun, type UnitNamer } from '../../../core/labels/unitNoun';
import { whyRunsFail } from '../../../core/labels/whyRunsFail';
import type { GoldFigureRow, GoldTables } from '../../../shared/agreementProtocol';

const fixed = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');
const pct = (x: number | null) => (x === null ? 'n/a' : `${(100 * x).toFixed(1)}%`);

function figureRow(f: GoldFigure, name: (id: string) => string): GoldFigureRow {
  return {
    label: f.label,
    name: f.label ? name(f.label) : '(all labels)',
    precision: fixed(f.precision),
    recall: fixed(f.recall),
    kappa: fixed(f.kappa),
    interval: intervalText(f.kappaCi),
  };
}

/** The gold tables of every benchmark that has a settled unit or a decision. */
export function goldTables(
  rows: readonly LabelRow[],
  adjudications: readonly Adjudication[],
  names: ReadonlyMap<string, string>,
  unitOf: UnitNamer = platformUnitNoun,
): GoldTables[] {
  const name = (id: string) => names.get(id) ?? id;
  const report = goldReport(rows, adjudications, { unitOf });
  const runs = whyRunsFail(report);
  return report.benchmarks
    .filter((b) => b.counts.adjudicated + b.counts.unanimous + b.counts.open > 0)
    .map((b) => {
      const mine = runs.filter((r) => r.benchmark === b.benchmark);
      const labels = (mine[0]?.byLabel ?? []).map((c) => ({ label: c.label, name: name(c.label) }));
      return {
        benchmark: b.benchmark,
        countsText: countsText(b.counts, nounOrNouns(b.unit)),
        counts: b.counts,
        annotators: b.annotators.map((a) => ({
          author: a.author,
          units: a.units,
          adjudicated: a.adjudicated,
          rows: [a.overall, ...a.perLabel].map((f) => figureRow(f, name)),
        })),
        labels,
        runs: mine.map((r) => ({
          run: r.run,
          units: r.units,
          settled: r.settled,
          failing: r.failing,
          leftOut: r.open + r.single,
          cells: r.byLabel.map((c) => ({ count: c.count, share: pct(c.share) })),
        })),
      };
    });
}
