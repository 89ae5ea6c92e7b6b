// `score` and `validate` for an OmniBehavior folder: per-field table, components, overall and the bias lines.
import { join } from 'node:path';
import { formatDiagnostic, hasErrors } from '../core/io/diagnostics';
import { omniBehavior } from '../core/formats';
import { biasDiagnostics, type BiasDiagnostics } from '../core/omni/bias';
import { COMPONENTS } from '../core/omni/fields';
import { scoreOmniRun, type FieldScore, type OmniRunScore } from '../core/omni/score';
import type { OmniBenchmark } from '../core/omni/types';
import { componentsTable } from '../core/omni/componentsTable';
import { formatTable, type TableFormat } from '../core/tables/format';
import { exitFor, print } from './output';
import { pyFixed } from '../core/io/pyNumber';

export interface OmniCliOptions {
  run?: string[];
  json?: boolean;
  /** The components table in this format instead of the text report. */
  format?: TableFormat;
}

async function open(dir: string, runs?: readonly string[]): Promise<OmniBenchmark> {
  const loaded = await omniBehavior.load(dir, { runs });
  if (loaded.format !== 'omnibehavior') throw new Error(`${dir}: not an OmniBehavior folder`);
  return loaded.bench;
}

export async function scoreOmni(dir: string, opts: OmniCliOptions): Promise<number> {
  const bench = await open(dir, opts.run);
  for (const name of opts.run ?? []) {
    if (!bench.runs.has(name)) throw new Error(`no run "${name}" under ${join(bench.root, 'results')}`);
  }
  const runs = [...bench.runs.values()].map((run) => ({
    name: run.name,
    predictions: run.predictions.size,
    score: scoreOmniRun(bench, run),
    bias: biasDiagnostics(bench, run),
  }));
  if (opts.json) {
    print(
      JSON.stringify({
        format: 'omnibehavior',
        runs: runs.map((r) => ({ name: r.name, ...scoreJson(r.score), bias: biasJson(r.bias) })),
      }),
    );
  } else if (runs.length === 0) {
    print(`No runs under ${join(bench.root, 'results')}.`);
  } else if (opts.format) {
    print(formatTable(componentsTable(runs), opts.format));
  } else {
    print(runs.map((r) => runText(r.name, r.predictions, r.score, r.bias)).join('\n\n'));
  }
  return exitFor(bench, !opts.json);
}

export async function validateOmni(dir: string, opts: Pick<OmniCliOptions, 'json'>): Promise<number> {
  const bench = await open(dir);
  const users = bench.users.size;
  const testActions = [...bench.users.values()].reduce((n, u) => n + u.testActions.length, 0);
  if (opts.json) {
    print(JSON.stringify({ format: 'omnibehavior', users, testActions, diagnostics: bench.diagnostics }));
  } else {
    for (const d of bench.diagnostics) print(formatDiagnostic(d));
    const errors = bench.diagnostics.filter((d) => d.severity === 'error').length;
    print(
      `${users} users, ${testActions} test actions, ${bench.runs.size} runs; ${errors} error(s), ${bench.diagnostics.length - errors} warning(s)`,
    );
  }
  return hasErrors(bench.diagnostics) ? 1 : 0;
}

// JSON has no undefined: a missing score is null, so that every key is always there.
const orNull = (x: number | undefined) => (x === undefined ? null : x);

function scoreJson(s: OmniRunScore) {
  return {
    fields: s.fields,
    answered: s.answered,
    leftOut: s.leftOut,
    components: Object.fromEntries(COMPONENTS.map((c) => [c, orNull(s.components[c])])),
    overall: orNull(s.overall),
  };
}

function biasJson(b: BiasDiagnostics) {
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

function runText(name: string, predictions: number, s: OmniRunScore, bias: BiasDiagnostics): string {
  const row = (cells: string[]) =>
    cells
      .map((c, i) => (i < 2 ? c.padEnd(COLUMNS[i][1]) : c.padStart(COLUMNS[i][1])))
      .join(' ')
      .trimEnd();
  const lines = [
    `Run ${name}: ${predictions} predicted test actions; ${s.answered} answers count, ${s.leftOut} left out (no usable predicted value; a text answer with empty text)`,
    'ans: answers that count; out: left out; n: in the metric; skip: without a normaliser (F1, Acc, Prec, Rec in %)',
    row(COLUMNS.map((c) => c[0])),
  ];
  for (const f of s.fields) lines.push(row(COLUMNS.map((c) => c[2](f))));
  lines.push(`Components: ${COMPONENTS.map((c) => `${c} ${num(s.components[c])}`).join(', ')}`);
  lines.push(`Overall: ${s.overall === undefined ? '— (a component is missing)' : pyFixed(s.overall, 1)}`);
  for (const r of bias.perScene) {
    lines.push(
      `Bias: ${r.scene}: predicted positive rate ${pct(r.predictedRate)}% vs real ${pct(r.realRate)}% (n ${r.n})`,
    );
  }
  lines.push(
    `Bias: intra/inter-user distance ratio: real ${num(bias.distanceRatio.real, 2)}, predicted ${num(bias.distanceRatio.predicted, 2)}`,
  );
  lines.push(`Bias: ${bias.reading}`);
  return lines.join('\n');
}
