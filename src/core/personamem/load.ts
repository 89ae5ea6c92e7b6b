// Reads a PersonaMem folder as the authors ship it and their inference writes to it: every split's questions and
// contexts index, and every results CSV under results/ as a run. Bad input is a located diagnostic, never a throw.
import { basename, dirname, join, relative } from 'node:path';
import { DiagnosticSink, type Diagnostic } from '../io/diagnostics';
import { listFolder, probeEntry, readRegularText } from '../io/safeFs';
import { csvRecords } from '../io/csv';
import { indexContexts } from './contexts';
import { parsePyStringList } from './pyList';
import {
  QUESTION_COLUMNS,
  RESULT_COPIED_COLUMNS,
  skillOf,
  type PersonaMemBench,
  type PmQuestion,
  type PmResultRow,
  type PmRun,
  type PmSplit,
} from './types';

const QUESTIONS = /^questions_(.+)\.csv$/;
/** The sizes the authors release, in the paper's order; another size sorts after them by name. */
const SIZE_ORDER = ['32k', '128k', '1M'];
const RESULTS_PREFIX = 'eval_results_';

const isDir = (p: string) => {
  const e = probeEntry(p);
  return e.ok && e.kind === 'dir';
};
const names = (dir: string) => {
  const l = listFolder(dir);
  return l.ok ? l.names : [];
};
const holdsQuestions = (dir: string) => isDir(dir) && names(dir).some((n) => QUESTIONS.test(n));

/** The folder a target names: itself, a questions file's folder, or its personamem/ or data/ folder. */
export function personaMemRoot(target: string): string | undefined {
  const e = probeEntry(target);
  if (!e.ok) return undefined;
  if (e.kind === 'file') return QUESTIONS.test(basename(target)) ? dirname(target) : undefined;
  if (holdsQuestions(target)) return target;
  return [join(target, 'personamem'), join(target, 'data')].find(holdsQuestions);
}

const sizeRank = (s: string) => {
  const i = SIZE_ORDER.indexOf(s);
  return i < 0 ? SIZE_ORDER.length : i;
};
export const compareSizes = (a: string, b: string) => sizeRank(a) - sizeRank(b) || (a < b ? -1 : a > b ? 1 : 0);

/** CSV records as dictionaries (csv.DictReader), each with its line; a header missing `required` is one error. */
function readCsv(file: string, required: readonly string[], sink: DiagnosticSink) {
  let text: string;
  try {
    text = readRegularText(file).replace(/^\uFEFF/, '');
  } catch (err) {
    sink.error(0, '', `cannot be read: ${(err as Error).message}`);
    return [];
  }
  const [head, ...records] = csvRecords(text);
  if (!head) {
    sink.error(0, '', 'empty file: expected a header row');
    return [];
  }
  const missing = required.filter((c) => !head.fields.includes(c));
  if (missing.length > 0) {
    // without its columns no row can be read: one error for the file rather than one per row
    sink.error(head.line, missing.join(', '), 'missing column' + (missing.length > 1 ? 's' : ''));
    return [];
  }
  return records.map((r) => {
    if (r.unterminated) sink.error(r.line, '', 'a quoted field is not closed before the end of the file');
    const row: Record<string, string | undefined> = {};
    head.fields.forEach((name, i) => (row[name] = r.fields[i]));
    return { line: r.line, row };
  });
}

const intOf = (s: string | undefined): number | undefined =>
  s !== undefined && /^\s*-?\d+\s*$/.test(s) ? Number(s) : undefined;

function readQuestions(split: PmSplit, sink: DiagnosticSink): void {
  const seen = new Set<string>();
  for (const { line, row } of readCsv(split.questionsFile, QUESTION_COLUMNS, sink)) {
    const get = (c: string) => row[c] ?? '';
    const questionId = get('question_id');
    if (!questionId) {
      sink.error(line, 'question_id', 'empty');
      continue;
    }
    if (seen.has(questionId)) sink.warn(line, 'question_id', `${questionId} repeated`);
    seen.add(questionId);
    const questionType = get('question_type');
    const skill = skillOf(questionType);
    if (skill === undefined)
      sink.warn(line, 'question_type', `"${questionType}" is none of the seven skills or their known spellings`);
    const optionsText = get('all_options');
    const parsed = parsePyStringList(optionsText);
    if (!parsed.ok) sink.error(line, 'all_options', `does not parse as a Python list of strings: ${parsed.message}`);
    const options = parsed.ok ? parsed.items : undefined;
    const correctAnswer = get('correct_answer');
    const letter = /^\(([a-z])\)$/i.exec(correctAnswer.trim())?.[1].toLowerCase();
    if (letter === undefined)
      sink.error(line, 'correct_answer', `"${correctAnswer}" is not an option letter such as (a)`);
    else if (options && !options.some((o) => o.trimStart().toLowerCase().startsWith(`(${letter})`)))
      sink.error(line, 'correct_answer', `${correctAnswer} is not among the options (${options.length} given)`);
    const contextId = get('shared_context_id');
    const ctx = split.contexts.get(contextId);
    const endIndex = intOf(row.end_index_in_shared_context);
    if (split.contextsFile !== undefined && !ctx)
      sink.error(line, 'shared_context_id', `${contextId || '(empty)'} is not in ${basename(split.contextsFile)}`);
    if (endIndex === undefined)
      sink.error(line, 'end_index_in_shared_context', `"${get('end_index_in_shared_context')}" is not an integer`);
    else if (ctx && (endIndex < 0 || endIndex > ctx.messages))
      sink.error(line, 'end_index_in_shared_context', `${endIndex} is outside its context (${ctx.messages} messages)`);
    split.questions.push({
      split: split.size,
      line,
      personaId: get('persona_id'),
      questionId,
      questionType,
      skill: skill ?? questionType,
      topic: get('topic'),
      contextTokens: intOf(row.context_length_in_tokens),
      distanceBlocks: intOf(row.distance_to_ref_in_blocks),
      distanceTokens: intOf(row.distance_to_ref_in_tokens),
      question: get('user_question_or_message'),
      correctAnswer,
      optionsText,
      options,
      contextId,
      endIndex,
      resultCells: Object.fromEntries(RESULT_COPIED_COLUMNS.map((c) => [c, get(c)])),
    } satisfies PmQuestion);
  }
}

function readRun(run: PmRun, sink: DiagnosticSink): void {
  const rows = readCsv(run.file, ['question_id', 'correct_answer'], sink);
  for (const { line, row } of rows) {
    if (row.model_response === undefined && row.score === undefined) {
      sink.error(line, 'model_response', 'neither model_response nor score: nothing to score');
      continue;
    }
    run.rows.push({
      line,
      questionId: row.question_id ?? '',
      personaId: row.persona_id ?? '',
      questionType: row.question_type ?? '',
      topic: row.topic ?? '',
      storedScore: row.score,
      modelResponse: row.model_response,
      correctAnswer: row.correct_answer ?? '',
    } satisfies PmResultRow);
  }
}

export interface PmLoadOptions {
  runs?: readonly string[];
  onProgress?: (done: number, total: number) => void;
}

export async function loadPersonaMem(root: string, opts: PmLoadOptions = {}): Promise<PersonaMemBench> {
  const diagnostics: Diagnostic[] = [];
  const sinkFor = (abs: string) => {
    const sink = new DiagnosticSink(relative(root, abs) || basename(abs));
    return { sink, done: () => diagnostics.push(...sink.items) };
  };
  const bench: PersonaMemBench = { root, diagnostics, splits: new Map(), runs: new Map() };
  const sizes = names(root)
    .map((n) => QUESTIONS.exec(n)?.[1])
    .filter((s): s is string => s !== undefined)
    .sort(compareSizes);
  const resultsDir = join(root, 'results');
  const resultFiles = names(resultsDir).filter((n) => n.endsWith('.csv'));
  const total = sizes.length + resultFiles.length;
  let done = 0;
  for (const size of sizes) {
    const questionsFile = join(root, `questions_${size}.csv`);
    const contextsPath = join(root, `shared_contexts_${size}.jsonl`);
    const split: PmSplit = { size, questionsFile, contextsFile: undefined, questions: [], contexts: new Map() };
    const q = sinkFor(questionsFile);
    if (probeEntry(contextsPath).ok) {
      split.contextsFile = contextsPath;
      const c = sinkFor(contextsPath);
      split.contexts = await indexContexts(contextsPath, c.sink);
      c.done();
    } else q.sink.error(0, '', `no shared_contexts_${size}.jsonl beside it: the questions' histories cannot be read`);
    readQuestions(split, q.sink);
    q.done();
    bench.splits.set(size, split);
    opts.onProgress?.(++done, total);
  }
  for (const name of resultFiles) {
    const file = join(resultsDir, name);
    const stem = name.slice(0, -'.csv'.length);
    const rest = stem.startsWith(RESULTS_PREFIX) ? stem.slice(RESULTS_PREFIX.length) : stem;
    // the longest split size the name starts with: "eval_results_128k_gpt-4o" is 128k's run of gpt-4o
    const size = [...sizes].sort((a, b) => b.length - a.length).find((s) => rest.startsWith(`${s}_`));
    const r = sinkFor(file);
    const split = size ?? (sizes.length === 1 ? sizes[0] : undefined);
    if (split === undefined) {
      r.sink.warn(0, '', `the name does not say which split it answers (eval_results_<size>_<model>.csv); not read`);
    } else if (!opts.runs || opts.runs.includes(rest)) {
      const run: PmRun = { name: rest, split, model: size ? rest.slice(size.length + 1) : rest, file, rows: [] };
      readRun(run, r.sink);
      bench.runs.set(run.name, run);
    }
    r.done();
    opts.onProgress?.(++done, total);
  }
  return bench;
}
