// The Label Agreement's gold part: per benchmark, the gold set's counts, each annotator against gold (precision,
// recall and κ with its bootstrap interval) and why its runs fail, from the core's report (the numbers `labels gold`
// prints), as text cells for the page.
import type { Adjudication } from '../../../core/labels/gold';
import { countsText, goldReport } from '../../../core/labels/goldReport';
import type { GoldFigure } from '../../../core/labels/goldAgreement';
import { intervalText } from '../../../core/labels/agreementIntervals';
import { stepKey, type LabelRow } from '../../../core/labels/model';
import { nounOrNouns, platformUnitNoun, type UnitNamer } from '../../../core/labels/unitNoun';
import { whyRunsFail } from '../../../core/labels/whyRunsFail';
import type { AgreementModel, GoldFigureRow, GoldTables } from '../../../shared/agreementProtocol';
import { whyRunsFailTable } from '../../../shared/whyRunsFailProtocol';
import { fixed3 } from '../../../core/labels/figureText';
import { READING_DECISIONS, type LiveDecisions } from '../gold/decisionSource';

const fixed = (x: number) => fixed3(x);

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
    .map((b) => ({
      benchmark: b.benchmark,
      countsText: countsText(b.counts, nounOrNouns(b.unit)),
      counts: b.counts,
      annotators: b.annotators.map((a) => ({
        author: a.author,
        units: a.units,
        adjudicated: a.adjudicated,
        rows: [a.overall, ...a.perLabel].map((f) => figureRow(f, name)),
      })),
      whyRunsFail: whyRunsFailTable(
        runs.filter((r) => r.benchmark === b.benchmark),
        name,
      ),
    }));
}

/**
 * goldTables of the last inputs, computed again only when the labels, the decisions or the label names differ: a
 * change event that changed none of them (a decision read back, a labels bar pushed again) costs no bootstrap.
 */
export class GoldTablesMemo {
  private last: { key: string; tables: GoldTables[] } | undefined;

  constructor(private readonly compute: typeof goldTables = goldTables) {}

  tables(
    rows: readonly LabelRow[],
    adjudications: readonly Adjudication[],
    names: ReadonlyMap<string, string>,
    unitOf: UnitNamer = platformUnitNoun,
  ): GoldTables[] {
    // The units' nouns too: a benchmark's format is known once its folder opens.
    const benchmarks = [...new Set(rows.map((r) => r.benchmark))].sort();
    const key = JSON.stringify([
      rows.map((r) => [stepKey(r), r.author, r.label, r.target]),
      adjudications.map((a) => [stepKey(a.ref), a.labels, a.adjudicator, a.createdAt]),
      [...names],
      benchmarks.map((b) => unitOf(b, []).title),
    ]);
    if (this.last?.key !== key) this.last = { key, tables: this.compute(rows, adjudications, names, unitOf) };
    return this.last.tables;
  }

  /**
   * The gold part of the agreement model from the live decisions: before the label server's first answer no table
   * (an adjudicated unit would count as open) and what is being read; after a failed read, the unanimous units'
   * tables and why the decisions are missing.
   */
  part(
    rows: readonly LabelRow[],
    decided: LiveDecisions,
    names: ReadonlyMap<string, string>,
    unitOf: UnitNamer = platformUnitNoun,
  ): GoldPart {
    if ('reading' in decided) return { gold: [], goldError: null, goldReading: READING_DECISIONS };
    const adjudications = 'error' in decided ? [] : decided.adjudications;
    return {
      gold: this.tables(rows, adjudications, names, unitOf),
      goldError: 'error' in decided ? decided.error : null,
      goldReading: null,
    };
  }
}

export type GoldPart = Pick<AgreementModel, 'gold' | 'goldError' | 'goldReading'>;
