// Agreement per label among all the authors of a benchmark, on the units (steps or test actions, as labelledUnits in
// agreement.ts defines them) done by at least two authors. Per label each author's rating of a unit is binary (the
// label present or absent). Exactly two authors: Cohen's κ on their 2x2 table, the same figure as their pair's row.
// Three or more: Fleiss' κ (fleiss.ts) with the number of raters of each unit as it is, since not every author did
// every unit. And the disagreements: each such unit where the authors' sets of labels differ, with everyone's labels.
import {
  cohensKappa,
  KAPPA_MIN_UNITS,
  kappaCellText,
  labelledUnits,
  rowsByBenchmark,
  type KappaTable,
  type LabelledUnit,
} from './agreement';
import { fleissKappa } from './fleiss';
import type { LabelRow, StepRef } from './model';
import { itemKindOfPlatform } from './platformRules';
import { nounOrNouns, platformUnitNoun, type UnitNamer, type UnitNoun } from './unitNoun';
import { fixed3 } from './figureText';

export type KappaKind = 'Cohen' | 'Fleiss';

export interface LabelKappa {
  label: string;
  kind: KappaKind;
  /** Units done by at least two authors. */
  n: number;
  /** Authors who did at least one of them. */
  raters: number;
  /** Observed agreement: po (Cohen) or P̄ (Fleiss). */
  po: number;
  /** Chance agreement: pe (Cohen) or P_e (Fleiss). */
  pe: number;
  /** NaN when undefined (chance agreement 1). */
  kappa: number;
  /** Units where some of their authors gave the label and others did not. */
  disagreements: number;
}

export interface UnitDisagreement {
  unit: StepRef;
  /** Each author who did the unit (sorted) with every label they gave it (sorted). */
  labels: { author: string; labels: string[] }[];
  /** The labels some of them gave and others did not, sorted. */
  disputed: string[];
}

export interface LabelAgreements {
  benchmark: string;
  unit: UnitNoun;
  /** Units done by at least two authors. */
  units: number;
  /** The authors who did them, sorted. */
  authors: string[];
  perLabel: LabelKappa[];
  disagreements: UnitDisagreement[];
}

const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Units in reading order: benchmark, platform, user, step (as a number), run. */
export function byUnit(x: StepRef, y: StepRef): number {
  return (
    text(x.benchmark, y.benchmark) ||
    text(x.platform, y.platform) ||
    text(x.userId, y.userId) ||
    x.stepId - y.stepId ||
    text(x.run, y.run)
  );
}

/** The units at least two authors did, in reading order. */
function sharedUnits(rows: readonly LabelRow[]): LabelledUnit[] {
  return [...labelledUnits(rows).values()].filter((u) => u.byAuthor.size >= 2).sort((a, b) => byUnit(a.ref, b.ref));
}

const givers = (u: LabelledUnit, label: string) => [...u.byAuthor.values()].filter((l) => l.has(label)).length;

function disagreementOf(u: LabelledUnit): UnitDisagreement | null {
  const all = new Set([...u.byAuthor.values()].flatMap((l) => [...l]));
  const disputed = [...all].filter((l) => givers(u, l) < u.byAuthor.size).sort();
  if (disputed.length === 0) return null;
  const labels = [...u.byAuthor.keys()]
    .sort()
    .map((author) => ({ author, labels: [...u.byAuthor.get(author)!].sort() }));
  return { unit: { ...u.ref }, labels, disputed };
}

/** Every unit done by at least two authors where their labels differ, in unit order, with everyone's labels. */
export function unitDisagreements(rows: readonly LabelRow[]): UnitDisagreement[] {
  return sharedUnits(rows).flatMap((u) => disagreementOf(u) ?? []);
}

function labelKappa(units: readonly LabelledUnit[], authors: readonly string[], label: string): LabelKappa {
  const n = units.length;
  const disagreements = units.filter((u) => {
    const g = givers(u, label);
    return g > 0 && g < u.byAuthor.size;
  }).length;
  const base = { label, n, raters: authors.length, disagreements };
  if (authors.length === 2) {
    const [a, b] = authors;
    const t: KappaTable = { both: 0, onlyA: 0, onlyB: 0, neither: 0 };
    for (const u of units) {
      const inA = u.byAuthor.get(a)!.has(label);
      const inB = u.byAuthor.get(b)!.has(label);
      t[inA && inB ? 'both' : inA ? 'onlyA' : inB ? 'onlyB' : 'neither']++;
    }
    const k = cohensKappa(t);
    return { ...base, kind: 'Cohen', po: k.po, pe: k.pe, kappa: k.kappa };
  }
  const k = fleissKappa(units.map((u) => [givers(u, label), u.byAuthor.size - givers(u, label)]));
  return { ...base, kind: 'Fleiss', po: k.po, pe: k.pe, kappa: k.kappa };
}

/** Per label κ (Cohen's for two authors, Fleiss' for more) over the units of `rows` done by at least two authors. */
export function labelAgreements(rows: readonly LabelRow[]): Omit<LabelAgreements, 'benchmark' | 'unit'> {
  const units = sharedUnits(rows);
  const authors = [...new Set(units.flatMap((u) => [...u.byAuthor.keys()]))].sort();
  const used = [...new Set(units.flatMap((u) => [...u.byAuthor.values()].flatMap((l) => [...l])))].sort();
  return {
    units: units.length,
    authors,
    perLabel: used.map((label) => labelKappa(units, authors, label)),
    disagreements: unitDisagreements(rows),
  };
}

/** labelAgreements per benchmark (a step and a test action never share a unit), for those with a shared unit. */
export function labelAgreementsByBenchmark(
  rows: readonly LabelRow[],
  unitOf: UnitNamer = platformUnitNoun,
): LabelAgreements[] {
  return rowsByBenchmark(rows, unitOf)
    .map(({ benchmark, unit, rows: list }) => ({ benchmark, unit, ...labelAgreements(list) }))
    .filter((b) => b.units > 0);
}

/**
 * "weibo · we_123 · step 3 · run demo-llm", "u_1001 · test action #1149 · run demo-sim", "32k · p1 · question 0 ·
 * no run (the data)": the unit named by its benchmark's noun (in a benchmark of mixed units, by its own platform).
 */
export function unitText(u: StepRef, noun: UnitNoun = platformUnitNoun(u.benchmark, [u])): string {
  const run = u.run ? `run ${u.run}` : 'no run (the data)';
  const { singular } = noun.key === 'mixed' ? platformUnitNoun(u.benchmark, [u]) : noun;
  // A test action's platform is the same on every row of its format, so its user and number say where it is.
  return itemKindOfPlatform(u.platform) === 'testAction'
    ? `${u.userId} · ${singular} #${u.stepId} · ${run}`
    : `${u.platform} · ${u.userId} · ${singular} ${u.stepId} · ${run}`;
}
const fixed = (x: number) => fixed3(x);

/** The CLI's text: per benchmark, the per-label table and the disagreements, one line per unit. */
export function formatLabelAgreements(list: readonly LabelAgreements[], names: ReadonlyMap<string, string>): string {
  const name = (id: string) => names.get(id) ?? id;
  const out: string[] = [];
  for (const b of list) {
    const noun = nounOrNouns(b.unit);
    out.push(
      '',
      `Agreement per label in ${b.benchmark} on ${b.units} ${noun} done by at least two of ${b.authors.length} author(s) (${b.authors.join(', ')}):`,
    );
    const head = ['label', 'kappa', 'kind', 'n', 'raters', 'observed', 'chance', 'disagreeing'];
    const body = b.perLabel.map((p) => [
      name(p.label),
      kappaCellText(p, p.n),
      p.kind,
      String(p.n),
      String(p.raters),
      fixed(p.po),
      fixed(p.pe),
      String(p.disagreements),
    ]);
    const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
    const row = (cells: string[]) =>
      '  ' + cells.map((c, i) => (i === 0 || i === 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    out.push(row(head), ...body.map(row));
    if (b.units < KAPPA_MIN_UNITS)
      out.push(
        `  † n/a: ${b.units} ${noun}, fewer than ${KAPPA_MIN_UNITS}; one disagreement would swing kappa across the scale`,
      );
    out.push(`Disagreements in ${b.benchmark}: ${b.disagreements.length} ${noun} where the authors' labels differ`);
    for (const d of b.disagreements) {
      const said = d.labels.map((a) => `${a.author}: ${a.labels.map(name).join(', ')}`).join(' | ');
      out.push(`  ${unitText(d.unit, b.unit)}  —  ${said}`);
    }
  }
  return out.join('\n');
}
