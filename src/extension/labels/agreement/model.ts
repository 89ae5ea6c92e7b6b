// The agreement table's model: per benchmark, per label among all authors (Cohen's or Fleiss' κ, n, raters, po, pe)
// with the units where their labels differ, then per pair of authors, per label κ, n, po, pe and the disagreeing
// units with who said what; and the counts per label per platform. Pure (no `vscode`), so it is unit-tested.
import {
  agreementsByBenchmark,
  kappaCellText,
  KAPPA_MIN_UNITS,
  summarize,
  type Agreement,
  type Disagreement,
  type Kappa,
} from '../../../core/labels/agreement';
import {
  labelAgreementsByBenchmark,
  unitText,
  type LabelAgreements,
  type LabelKappa,
} from '../../../core/labels/agreementPerLabel';
import { MISSING } from '../../../core/glossary';
import { stepKey, type LabelRow } from '../../../core/labels/model';
import { countOf, platformUnitNoun, type UnitNamer, type UnitNoun } from '../../../core/labels/unitNoun';
import type {
  AgreementModel,
  AllAuthorsTable,
  LabelKappaRow,
  BenchmarkTables,
  DisagreementItem,
  KappaCells,
  LabelCounts,
  PairTable,
} from '../../../shared/agreementProtocol';
import { fixed3 } from '../../../core/labels/figureText';

const fixed = (x: number) => fixed3(x, MISSING);

function units(n: number, unit: UnitNoun): string {
  return `${n} shared ${n === 1 ? unit.singular : unit.plural}`;
}

/** κ and its neighbours as cells; `units` shared units decide whether κ says anything. */
export function kappaCells(k: Kappa, shared: number, unit: UnitNoun): KappaCells {
  const few = shared < KAPPA_MIN_UNITS;
  const undefinedKappa = !Number.isFinite(k.kappa);
  return {
    kappa: undefinedKappa ? null : k.kappa,
    kappaText: kappaCellText(k, shared),
    kappaNote: few
      ? `n/a: ${units(shared, unit)}, fewer than ${KAPPA_MIN_UNITS}; one disagreement would swing κ across the scale`
      : undefinedKappa
        ? 'undefined: chance agreement pe is 1 (both authors gave it everywhere, or nowhere), so κ divides by zero'
        : null,
    n: shared,
    poText: fixed(k.po),
    peText: fixed(k.pe),
    onlyA: k.onlyA,
    onlyB: k.onlyB,
    disagreements: k.onlyA + k.onlyB,
  };
}

function item(
  d: Disagreement,
  ag: Agreement,
  labelName: string,
  name: (id: string) => string,
  unit: UnitNoun,
): DisagreementItem {
  const list = (ids: string[]) => ids.map(name).join(', ');
  return {
    ref: { ...d.unit },
    where: unitText(d.unit, unit),
    givenBy: `only ${d.givenBy === 'A' ? ag.authorA : ag.authorB} gave ${labelName}`,
    said: [
      { author: ag.authorA, labels: list(d.labelsA) },
      { author: ag.authorB, labels: list(d.labelsB) },
    ],
  };
}

function pairTable(benchmark: string, unit: UnitNoun, ag: Agreement, name: (id: string) => string): PairTable {
  const rows = ag.perLabel
    .map((p) => ({
      label: p.label,
      name: name(p.label),
      ...kappaCells(p.kappa, ag.units, unit),
      items: p.disagreements.map((d) => item(d, ag, name(p.label), name, unit)),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return {
    id: [benchmark, ag.authorA, ag.authorB].join('\u0000'),
    authorA: ag.authorA,
    authorB: ag.authorB,
    unitsText: units(ag.units, unit),
    overall: kappaCells(ag.overall, ag.units, unit),
    rows,
    note:
      ag.units < KAPPA_MIN_UNITS
        ? `† n/a: ${units(ag.units, unit)}, fewer than ${KAPPA_MIN_UNITS}; one disagreement would swing κ across the scale. po and pe are shown all the same.`
        : null,
  };
}

function labelKappaRow(p: LabelKappa, unit: UnitNoun, name: (id: string) => string): LabelKappaRow {
  const few = p.n < KAPPA_MIN_UNITS;
  const undefinedKappa = !Number.isFinite(p.kappa);
  return {
    label: p.label,
    name: name(p.label),
    kind: p.kind,
    kappa: undefinedKappa ? null : p.kappa,
    kappaText: kappaCellText(p, p.n),
    kappaNote: few
      ? `n/a: ${compared(p.n, unit)}, fewer than ${KAPPA_MIN_UNITS}; one disagreement would swing κ across the scale`
      : undefinedKappa
        ? 'undefined: chance agreement is 1 (the label was given on every unit compared, or on none), so κ divides by zero'
        : null,
    n: p.n,
    raters: p.raters,
    poText: fixed(p.po),
    peText: fixed(p.pe),
    disagreements: p.disagreements,
  };
}

function compared(n: number, unit: UnitNoun): string {
  return `${countOf(n, unit)} compared`;
}

function allAuthorsTable(b: LabelAgreements, name: (id: string) => string): AllAuthorsTable {
  return {
    authors: b.authors,
    unitsText: `${countOf(b.units, b.unit)} done by at least two of ${b.authors.length} authors`,
    rows: b.perLabel.map((p) => labelKappaRow(p, b.unit, name)).sort((x, y) => x.name.localeCompare(y.name)),
    note:
      b.units < KAPPA_MIN_UNITS
        ? `† n/a: ${compared(b.units, b.unit)}, fewer than ${KAPPA_MIN_UNITS}; one disagreement would swing κ across the scale. po and pe are shown all the same.`
        : null,
    disagreements: b.disagreements.map((d) => {
      const by = new Map(d.labels.map((a) => [a.author, a.labels]));
      const disputed = new Set(d.disputed);
      return {
        id: stepKey(d.unit),
        ref: { ...d.unit },
        where: unitText(d.unit, b.unit),
        said: b.authors.map((author) => {
          const labels = by.get(author);
          return labels ? labels.map((l) => ({ name: name(l), disputed: disputed.has(l) })) : null;
        }),
      };
    }),
  };
}

function counts(rows: readonly LabelRow[], name: (id: string) => string): LabelCounts {
  const s = summarize(rows);
  const labels = [...s.counts.keys()].sort((a, b) => name(a).localeCompare(name(b)));
  const totals = s.platforms.map(() => 0);
  return {
    platforms: s.platforms,
    rows: labels.map((label) => {
      const m = s.counts.get(label)!;
      const cells = s.platforms.map((p, i) => {
        const n = m.get(p) ?? 0;
        totals[i] += n;
        return n;
      });
      return { label, name: name(label), counts: cells, total: cells.reduce((a, b) => a + b, 0) };
    }),
    totals,
    total: s.total,
  };
}

export function agreementModel(
  rows: readonly LabelRow[],
  names: ReadonlyMap<string, string>,
  source: string,
  error: string | null = null,
  unitOf: UnitNamer = platformUnitNoun,
): AgreementModel {
  const name = (id: string) => names.get(id) ?? id;
  const perAuthor = new Map<string, number>();
  for (const r of rows) perAuthor.set(r.author, (perAuthor.get(r.author) ?? 0) + 1);
  const authors = [...perAuthor.keys()].sort().map((a) => ({ name: a, labels: perAuthor.get(a)! }));
  const all = new Map(labelAgreementsByBenchmark(rows, unitOf).map((b) => [b.benchmark, b]));
  // A benchmark has a pair of authors sharing a unit exactly when it has a unit done by at least two authors.
  const benchmarks: BenchmarkTables[] = agreementsByBenchmark(rows, unitOf)
    .filter((b) => b.agreements.length > 0 && all.has(b.benchmark))
    .map((b) => ({
      benchmark: b.benchmark,
      title: `${b.benchmark}: ${b.unit.title}`,
      allAuthors: allAuthorsTable(all.get(b.benchmark)!, name),
      pairs: b.agreements.map((ag) => pairTable(b.benchmark, b.unit, ag, name)),
    }));
  return {
    source,
    summary: `${rows.length} label(s) by ${authors.length} author(s)`,
    authors,
    error,
    benchmarks,
    counts: counts(rows, name),
    gold: [],
    goldError: null,
    goldReading: null,
  };
}
