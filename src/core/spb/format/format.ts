// StreamProfileBench as a format: how a folder is recognised, loaded, validated and scored, and what it offers.
import { basename, dirname, join } from 'node:path';
import { defineFormat, type ScoreRequest, type ScoreResult } from '../../formats/descriptor';
import { listFolder, probeEntry, writeFileInside, WriteRefused } from '../../io/safeFs';
import { loadSampleScope } from '../experiments/sampleScope';
import { stepHashOf, stepStaleness } from '../labels/hash';
import { STEP_LABEL_SET } from '../labels/labelSet';
import type { LabelRow } from '../../labels/model';
import type { Freshness } from '../../labels/staleness';
import { auditBenchmark } from '../pi/audit';
import { formatTable } from '../../tables/format';
import { loadBenchmark } from './load';
import { paperTablesText, tableModels } from '../score/paperTables';
import { originNotes, readRunOrigin } from '../prompt/runOrigin';
import { failedJson, failedNotes, failedRequests } from '../score/failedRequests';
import { memoryJson, memoryNotes, runMemory } from '../score/tagMemory';
import { scoreRun } from '../score/run';
import { evalReport, scoreJson } from '../score/tables';
import { wrapLine } from '../../tables/text';
import { PLATFORMS, type Benchmark } from '../types';
import { SPB_DEFAULT_ORDER, SPB_ORDER_INFO } from '../view/userOrder';
import { spbDemoAnswer } from '../demo/profiler';

const TASKS = /^(weibo|xiaohongshu|toutiao|zhihu|douban)_inference_tasks\.jsonl$/;

// Detection looks at names only and never throws: a broken entry is the loader's to report, with its location.
const kindOf = (path: string) => {
  const entry = probeEntry(path);
  return entry.ok ? entry.kind : undefined;
};

function detect(target: string): boolean {
  const kind = kindOf(target);
  if (kind === undefined) return false;
  if (kind === 'file') return TASKS.test(basename(target));
  const data = kindOf(join(target, 'data')) === 'dir' ? join(target, 'data') : target;
  const listed = listFolder(data);
  return listed.ok && listed.names.some((name) => TASKS.test(name));
}

function validate(bench: Benchmark) {
  const users = [...bench.users.values()].reduce((n, m) => n + m.size, 0);
  const steps = [...bench.users.values()].reduce(
    (n, m) => n + [...m.values()].reduce((k, u) => k + u.steps.length, 0),
    0,
  );
  return { json: { users, steps }, summary: `${users} users, ${steps} steps, ${bench.runs.size} runs` };
}

/** Writes each run's eval_report_<platform>.txt next to its results; a refused write is a warning and a failure. */
function writeReports(bench: Benchmark, scores: ReturnType<typeof scoreRun>[], warnings: string[]): boolean {
  let refused = false;
  for (const s of scores) {
    const run = bench.runs.get(s.name);
    for (const [platform, rel] of run?.files ?? []) {
      const text = evalReport(s, platform);
      try {
        if (text) writeFileInside(bench.root, join(bench.root, dirname(rel), `eval_report_${platform}.txt`), text);
      } catch (err) {
        if (!(err instanceof WriteRefused)) throw err;
        warnings.push(`persona-lab: ${err.message}`);
        refused = true;
      }
    }
  }
  return refused;
}

async function score(bench: Benchmark, req: ScoreRequest): Promise<ScoreResult> {
  // --sample: the same scoring over the sample's users, named as the sample's figures wherever they print.
  const scope = req.sample === undefined ? undefined : loadSampleScope(bench, req.sample);
  const warnings = (scope?.problems ?? []).map((problem) => `warning: ${problem}`);
  const runs = [...bench.runs.values()];
  const scores = runs.map((run) => scoreRun(bench, run, scope?.users));
  const failed = runs.map((run, i) => ({
    name: run.name,
    failed: failedRequests(bench, run, scope?.users, scores[i]),
  }));
  const memory = req.memory ? runs.map((run) => ({ name: run.name, memory: runMemory(bench, run, scope?.users) })) : [];
  const refused = req.writeReports ? writeReports(bench, scores, warnings) : false;
  const out = req.output;
  let text: string;
  // Runs made with Persona Lab's own prompt wording are named as such wherever they print (CSV stays bare data).
  const notes = [originNotes(bench.root, bench.runs.keys()), failedNotes(failed), memoryNotes(memory)].filter(
    (g) => g.length > 0,
  );
  if (out.kind === 'json') {
    const json = scoreJson(scores, scope && { name: scope.name, users: scope.size });
    json.runs.forEach((run, i) => {
      run.origin = readRunOrigin(bench.root, run.name);
      run.failedRequests = failedJson(failed[i].failed);
      if (req.memory) run.memory = memoryJson(memory[i].memory);
    });
    text = JSON.stringify(json);
  } else if (scores.length === 0) text = `No runs under ${join(bench.root, 'results')}.`;
  else if (out.kind === 'table')
    text =
      tableModels(scores, scope?.label)
        .map((t) => formatTable(t, out.format))
        .join('\n') + noteBlock(notes, out.format);
  else
    text =
      (scope ? `On ${scope.label}, not the whole benchmark:\n\n` : '') +
      paperTablesText(scores, scope?.label) +
      noteBlock(notes, 'text');
  return { text, warnings, failed: refused };
}

/** Groups of note lines (a heading line, then items) under the tables; CSV stays bare data. */
function noteBlock(groups: string[][], format: string): string {
  if (groups.length === 0 || format === 'csv') return '';
  const one = (notes: string[]) => {
    if (format === 'latex') return notes.map((l) => `% ${l.trim()}`).join('\n');
    if (format === 'markdown') return notes.map((l, i) => (i === 0 ? `_${l}_` : `- ${l.trim()}`)).join('\n');
    return notes.flatMap((l) => wrapLine(l)).join('\n');
  };
  return `\n${groups.map(one).join('\n\n')}\n`;
}

async function freshness(
  bench: Benchmark,
  benchmark: string,
  rows: readonly LabelRow[],
): Promise<Map<LabelRow, Freshness>> {
  const out = new Map<LabelRow, Freshness>();
  for (const r of rows) {
    if (r.benchmark !== benchmark) continue;
    const user = [...bench.users].find(([platform]) => platform === r.platform)?.[1].get(r.userId);
    const step = user?.steps.find((s) => s.stepId === r.stepId);
    out.set(r, user && step ? stepStaleness(r, stepHashOf(user, step)) : 'missing');
  }
  return out;
}

export const streamProfileBench = defineFormat({
  id: 'streamprofilebench',
  label: 'StreamProfileBench',
  detect,
  read: (target, opts) => loadBenchmark(target, opts),
  validate,
  score,
  scoreContract: {
    keys: ['runs'],
    optionalKeys: ['sample'],
    description:
      'runs: [{ name, platforms: { <platform>: { users, steps, <metric>…, F1NS } }, avg: { <metric>…, F1NS }, ' +
      'coverage: { users: { covered, total }, steps: { covered, total }, whole, ' +
      'platforms: { <platform>: { users, steps, whole } } }, ' +
      "origin: { template: 'builtin' | 'own', templateId, mark } | null, " +
      'failedRequests: { failed, steps, platforms: { <platform>: { failed, steps, Recall, RecallExcludingFailed } }, ' +
      'avg: { Recall, RecallExcludingFailed }, excluding }, ' +
      'memory (with --memory): { platforms: { <platform>: { forgotten, ignored, neverCaptured, carriedOver, ' +
      'reInferred, steps, failed, unchained, personasWritten, missedTKeep, dDecayPicks, shares: { <kind>: fraction | null }, ' +
      'forgottenTags: [{ userId, stepId, tag, droppedAt }] } }, total: { the same counts and shares }, reading } }]; ' +
      'sample: { name, users } with --sample. A figure with no value is null.',
  },
  scoreOptions: ['sample', 'writeReports', 'memory'],
  orderKeys: SPB_ORDER_INFO,
  defaultOrder: SPB_DEFAULT_ORDER,
  unit: { singular: 'step', plural: 'steps' },
  capabilities: {
    rerun: true,
    itemView: 'step',
    audit: (bench, req) => auditBenchmark(bench, req),
    labels: { targets: ['step', 'tag', 'span'], freshness, set: STEP_LABEL_SET, platforms: PLATFORMS, item: 'step' },
  },
  demoAnswer: spbDemoAnswer,
});
