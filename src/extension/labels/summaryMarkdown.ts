// The Label Summary as Markdown: counts per label per platform, per author, and Cohen's kappa for every pair of
// authors on the units both labelled (per benchmark when given them, as the agreement table shows it). Pure (no
// `vscode`), so it is unit-tested.
import {
  KAPPA_MIN_UNITS,
  kappaCellText,
  type BenchmarkAgreements,
  type Kappa,
  type LabelSummary,
} from '../../core/labels/agreement';
import { nounOrNouns, platformUnitNoun, type UnitNoun } from '../../core/labels/unitNoun';

/** Escapes text from the database or the label set for a Markdown table cell or line. */
export function mdText(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&').replace(/\r?\n/g, ' ');
}

const num = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');

function kappaCells(k: Kappa, units: number): string[] {
  return [
    kappaCellText(k, units),
    num(k.po),
    num(k.pe),
    String(k.both),
    String(k.onlyA),
    String(k.onlyB),
    String(k.neither),
  ];
}

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;

function agreementTable(
  out: string[],
  ag: LabelSummary['agreements'][number],
  names: ReadonlyMap<string, string>,
  unit: UnitNoun,
): void {
  out.push(
    `A = ${mdText(ag.authorA)}, B = ${mdText(ag.authorB)}; counts of ${unit.plural} where the label is on both, on A's only, on B's only, on neither.`,
    '',
  );
  out.push(row(['Label', 'κ', 'po', 'pe', 'both', 'A only', 'B only', 'neither']));
  out.push(row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']));
  out.push(row(['**Overall**', ...kappaCells(ag.overall, ag.units)]));
  for (const p of ag.perLabel) out.push(row([mdText(names.get(p.label) ?? p.label), ...kappaCells(p.kappa, ag.units)]));
  out.push('');
  if (ag.units < KAPPA_MIN_UNITS)
    out.push(
      `† n/a: ${ag.units} shared ${nounOrNouns(unit)}, fewer than ${KAPPA_MIN_UNITS}; one disagreement would swing κ across the scale.`,
      '',
    );
}

export function summaryMarkdown(
  s: LabelSummary,
  names: ReadonlyMap<string, string>,
  source: string,
  perAuthor: ReadonlyMap<string, number>,
  byBenchmark?: readonly BenchmarkAgreements[],
): string {
  const out: string[] = [
    '# Label summary',
    '',
    `${s.total} label(s) by ${s.authors.length} author(s) in ${mdText(source)}.`,
    '',
  ];
  const labels = [...s.counts.keys()].sort((a, b) => (names.get(a) ?? a).localeCompare(names.get(b) ?? b));
  if (labels.length === 0) {
    out.push('No labels yet.');
    return out.join('\n') + '\n';
  }
  out.push('## Labels per platform', '');
  out.push(row(['Label', ...s.platforms.map(mdText), 'Total']), row(['---', ...s.platforms.map(() => '---:'), '---:']));
  const totals = new Map<string, number>();
  for (const l of labels) {
    const m = s.counts.get(l) ?? new Map<string, number>();
    const total = [...m.values()].reduce((a, b) => a + b, 0);
    for (const [p, n] of m) totals.set(p, (totals.get(p) ?? 0) + n);
    out.push(row([mdText(names.get(l) ?? l), ...s.platforms.map((p) => String(m.get(p) ?? 0)), `**${total}**`]));
  }
  out.push(row(['**Total**', ...s.platforms.map((p) => `**${totals.get(p) ?? 0}**`), `**${s.total}**`]), '');
  out.push('## Authors', '', row(['Author', 'Labels']), row(['---', '---:']));
  for (const a of s.authors) out.push(row([mdText(a), String(perAuthor.get(a) ?? 0)]));
  out.push('', '## Agreement (Cohen’s kappa)', '');
  if (s.agreements.length === 0) {
    out.push('No two authors labelled the same unit of the same run yet.');
    return out.join('\n') + '\n';
  }
  out.push(
    `A unit is one item of a benchmark (a step, a test action, a question: what its format labels) in one run that both authors labelled; per label, each author’s rating of a unit is “present” or “absent”. *κ*: Cohen’s kappa, (po − pe) / (1 − pe), shown as n/a below ${KAPPA_MIN_UNITS} shared units; *po*: observed agreement, the share of shared units where both gave the label or both did not; *pe*: the agreement expected by chance from how often each author gives it.`,
    '',
  );
  const unit = platformUnitNoun('', []);
  const groups = (byBenchmark ?? [{ benchmark: '', unit, agreements: s.agreements }]).filter(
    (g) => g.agreements.length > 0,
  );
  for (const g of groups) {
    if (g.benchmark) out.push(`### ${mdText(g.benchmark)}: ${mdText(g.unit.plural)}`, '');
    for (const ag of g.agreements) {
      out.push(
        `${g.benchmark ? '####' : '###'} ${mdText(ag.authorA)} vs ${mdText(ag.authorB)}: ${ag.units} ${nounOrNouns(g.unit)} both labelled`,
        '',
      );
      agreementTable(out, ag, names, g.unit);
    }
  }
  return out.join('\n') + '\n';
}
