// OmniBehavior as a format: how a folder is recognised, loaded, validated and scored, and what it offers.
import { basename, dirname, join } from 'node:path';
import { defineFormat, type ScoreRequest, type ScoreResult } from '../formats/descriptor';
import { listFolder, probeEntry } from '../io/safeFs';
import { TRACE_LABEL_SET, TRACE_PLATFORM } from './labels/labelSet';
import { traceStaleness } from './labels/trace';
import { auditOmni } from './piAudit';
import { formatTable } from '../tables/format';
import { biasDiagnostics } from './bias';
import { componentsTable } from './componentsTable';
import { loadOmniBenchmark, TEST_ACTIONS } from './load';
import { scoreOmniRun } from './score';
import { biasJson, runText, scoreJson } from './scoreReport';
import { judgeCommandLine } from './overallReason';
import { JUDGE_DIMENSIONS, type OmniBenchmark } from './types';
import { OMNI_DEFAULT_ORDER, OMNI_ORDER_INFO } from './userOrder';
import { omniDemo } from './demo';

// Detection looks at names only and never throws: a broken entry is the loader's to report, with its location.
const kindOf = (path: string) => {
  const entry = probeEntry(path);
  return entry.ok ? entry.kind : undefined;
};

const isOmniFolder = (dir: string): boolean => {
  if (kindOf(join(dir, TEST_ACTIONS)) === undefined) return false;
  const raw = listFolder(join(dir, 'raw'));
  return raw.ok && raw.names.some((name) => name.endsWith('.json'));
};

/** The OmniBehavior root a target names: the folder itself, its test_actions.jsonl, or `<target>/omnibehavior`. */
export function omniRoot(target: string): string | undefined {
  const kind = kindOf(target);
  if (kind === undefined) return undefined;
  if (kind === 'file')
    return basename(target) === TEST_ACTIONS && isOmniFolder(dirname(target)) ? dirname(target) : undefined;
  if (isOmniFolder(target)) return target;
  const nested = join(target, 'omnibehavior');
  return kindOf(nested) === 'dir' && isOmniFolder(nested) ? nested : undefined;
}

function validate(bench: OmniBenchmark) {
  const users = bench.users.size;
  const testActions = [...bench.users.values()].reduce((n, u) => n + u.testActions.length, 0);
  return {
    json: { format: 'omnibehavior', users, testActions },
    summary: `${users} users, ${testActions} test actions, ${bench.runs.size} runs`,
  };
}

async function score(bench: OmniBenchmark, req: ScoreRequest): Promise<ScoreResult> {
  const runs = [...bench.runs.values()].map((run) => ({
    name: run.name,
    predictions: run.predictions.size,
    score: scoreOmniRun(bench, run),
    bias: biasDiagnostics(bench, run),
  }));
  const out = req.output;
  let text: string;
  if (out.kind === 'json')
    text = JSON.stringify({
      format: 'omnibehavior',
      runs: runs.map((r) => ({
        name: r.name,
        ...scoreJson(r.score, judgeCommandLine(bench.root, r.name)),
        bias: biasJson(r.bias),
      })),
    });
  else if (runs.length === 0) text = `No runs under ${join(bench.root, 'results')}.`;
  else if (out.kind === 'table') text = formatTable(componentsTable(runs), out.format);
  else
    text = runs
      .map((r) => runText(r.name, r.predictions, r.score, r.bias, judgeCommandLine(bench.root, r.name)))
      .join('\n\n');
  return { text, warnings: [] };
}

export const omniBehavior = defineFormat({
  id: 'omnibehavior',
  label: 'OmniBehavior',
  detect: (target) => omniRoot(target) !== undefined,
  async read(target, opts) {
    const root = omniRoot(target);
    if (!root) throw new Error(`${target}: no OmniBehavior folder (test_actions.jsonl and raw/*.json)`);
    return loadOmniBenchmark(root, { runs: opts.runs, onProgress: opts.onProgress });
  },
  validate,
  score,
  scoreContract: {
    keys: ['format', 'runs'],
    description:
      'format: "omnibehavior"; runs: [{ name, fields, answered, leftOut, components, overall, ' +
      'overallReason: why overall is null (null when it has a value), ' +
      'coverage: { users: { covered, total }, testActions: { covered, total }, whole }, bias }]. ' +
      'A figure with no value is null.',
  },
  orderKeys: OMNI_ORDER_INFO,
  defaultOrder: OMNI_DEFAULT_ORDER,
  unit: { singular: 'test action', plural: 'test actions' },
  capabilities: {
    rerun: true,
    itemView: 'trace',
    audit: (bench, req) => auditOmni(bench, req),
    labels: {
      targets: ['action', 'history'],
      freshness: traceStaleness,
      set: TRACE_LABEL_SET,
      platforms: [TRACE_PLATFORM],
      item: 'testAction',
      judgeDimensions: JUDGE_DIMENSIONS,
    },
  },
  demoAnswer: omniDemo,
  demoCatchAll: true,
});
