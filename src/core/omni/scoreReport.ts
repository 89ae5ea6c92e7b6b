// OmniBehavior's `score` output: the JSON contract and the text report (per-field table, components, overall, bias).
import { coverageJson, coverageNote, coverageText, isWhole } from '../coverage';
import { pyFixed } from '../io/pyNumber';
import { wrapLine } from '../tables/text';
import type { BiasDiagnostics } from './bias';
import { COMPONENTS } from './fields';
import { JUDGE_COMMAND, overallReason } from './overallReason';
import type { FieldScore, OmniRunScore } from './score';

// JSON has no undefined: a missing score is null, so that every key is always there.
const orNull = (x: number | undefined) => (x === undefined ? null : x);

/** `judge`: how the reader runs the judge (overallReason), in the words of where the JSON is printed. */
export function scoreJson(s: OmniRunScore, judge = JUDGE_COMMAND) {
  return {
    fields: s.fields,
    answered: s.answered,
    leftOut: s.leftOut,
    components: Object.fromEntries(COMPONENTS.map((c) => [c, orNull(s.components[c])])),
    overall: orNull(s.overall),
    /** why the overall is null: the judge not run yet, the missing components, the coverage */
    overallReason: overallReason(s, judge) ?? null,
    coverage: coverageJson(s.coverage),
  };
}

export function biasJson(b: BiasDiagnostics) {
  return {
    perScene: b.perScene,
    distanceRatio: { real: orNull(b.distanceRatio.real), predicted: orNull(b.distanceRatio.predicted) },
    reading: b.reading,
  };
}

const num = (x: number | undefined, digits = 1) => (x === undefined ? '—' : pyFixed(x, digits));
const pct = (x: number | undefined) => (x === undefined ? '—' : pyFixed(x * 100, 1));

const COLUMNS: [string, number, (f: FieldScore) => string][] = [
  ['field', 20, (f) => f.field],
  ['scene', 16, (f) => f.scene],
  ['ans', 5, (f) => String(f.answered)],
  ['out', 5, (f) => String(f.leftOut)],
  ['n', 5, (f) => String(f.n)],
  ['F1', 6, (f) => pct(f.f1)],
  ['Acc', 6, (f) => pct(f.accuracy)],
  ['Prec', 6, (f) => pct(f.precision)],
  ['Rec', 6, (f) => pct(f.recall)],
  ['NMAE', 6, (f) => num(f.nmae)],
  ['skip', 5, (f) => (f.skipped === undefined ? '' : String(f.skipped))],
  ['judge', 5, (f) => num(f.judgeMean, 2)],
];

/** The text report of a run, every line at most 120 columns; `judge` as in scoreJson. */
export function runText(
  name: string,
  predictions: number,
  s: OmniRunScore,
  bias: BiasDiagnostics,
  judge = JUDGE_COMMAND,
): string {
  const row = (cells: string[]) =>
    cells
      .map((c, i) => (i < 2 ? c.padEnd(COLUMNS[i][1]) : c.padStart(COLUMNS[i][1])))
      .join(' ')
      .trimEnd();
  const lines = [
    `Run ${name}: ${predictions} predicted test actions; ${s.answered} answers count, ${s.leftOut} left out (no usable predicted value; a text answer with empty text)`,
    ...(isWhole(s.coverage) ? [] : [`Covers ${coverageText(s.coverage)}: every figure below is over these only`]),
    'ans: answers that count; out: left out; n: in the metric; skip: without a normaliser (F1, Acc, Prec, Rec in %; NMAE in % of the video’s duration; judge in points of 10)',
    row(COLUMNS.map((c) => c[0])),
  ];
  for (const f of s.fields) lines.push(row(COLUMNS.map((c) => c[2](f))));
  lines.push(`Components: ${COMPONENTS.map((c) => `${c} ${num(s.components[c])}`).join(', ')}`);
  const note = coverageNote(s.coverage);
  const overall = s.overall === undefined ? `— (${overallReason(s, judge)})` : pyFixed(s.overall, 1);
  lines.push(`Overall: ${overall}${s.overall !== undefined && note ? ` ${note}` : ''}`);
  for (const r of bias.perScene) {
    lines.push(
      `Bias: ${r.scene}: predicted positive rate ${pct(r.predictedRate)}% vs real ${pct(r.realRate)}% (n ${r.n})`,
    );
  }
  lines.push(
    `Bias: intra/inter-user distance ratio: real ${num(bias.distanceRatio.real, 2)}, predicted ${num(bias.distanceRatio.predicted, 2)}`,
  );
  lines.push(`Bias: ${bias.reading}`);
  return lines.flatMap((l) => wrapLine(l)).join('\n');
}
