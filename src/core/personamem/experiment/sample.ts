// A PersonaMem sample: a seeded draw of one split's questions stratified by question type (the seven skills of the
// paper), by the rule every sample uses (experiments/strata.ts): one question per type first, the rest in proportion
// to each type's share of the split. Saved beside the other samples (.personalab/samples/NAME.json) as its own kind,
// with the questions file's fingerprint, so that a changed file is noticed when the sample is used again.
import { relative } from 'node:path';
import { stampOf } from '../../cache/store';
import { listSamples, readSampleRecord, type TasksFingerprint } from '../../experiments/sampleFile';
import { drawStrata } from '../../experiments/strata';
import { SKILLS, type PersonaMemBench, type PmQuestion } from '../types';

export const PM_SAMPLE_FORMAT = 'persona-lab-personamem-sample';
export const PM_SAMPLE_BY = 'question_type';

export interface PmSampleStratum {
  /** the skill (SKILLS), or the raw question_type when it names none */
  key: string;
  /** the split's questions of that type */
  population: number;
  drawn: number;
}

export interface PmSampleDraw {
  seed: number;
  by: typeof PM_SAMPLE_BY;
  /** the split the questions are of */
  size: string;
  /** questions asked for */
  requested: number;
  strata: PmSampleStratum[];
  /** drawn question ids, in the questions file's order */
  questions: string[];
}

export interface PmSample extends PmSampleDraw {
  format: typeof PM_SAMPLE_FORMAT;
  version: 1;
  name: string;
  createdAt: string;
  questionsFile: TasksFingerprint;
}

/** Types in the paper's order, then any other question_type the file holds, by name. */
function typeOrder(questions: readonly PmQuestion[]): string[] {
  const seen = new Set(questions.map((q) => q.skill));
  const known = SKILLS.filter((s) => seen.has(s));
  return [...known, ...[...seen].filter((s) => !(SKILLS as readonly string[]).includes(s)).sort()];
}

/** Draws the sample. Same split, size and seed: the same questions. Throws on options it cannot use. */
export function drawPmSample(
  bench: PersonaMemBench,
  opts: { size: string; questions: number; seed: number },
): PmSampleDraw {
  if (!Number.isInteger(opts.questions) || opts.questions < 1)
    throw new Error('questions: expected a whole number ≥ 1');
  if (!Number.isInteger(opts.seed) || opts.seed < 0) throw new Error('seed: expected a whole number ≥ 0');
  const split = bench.splits.get(opts.size);
  if (!split)
    throw new Error(`no split ${opts.size} in ${bench.root} (splits: ${[...bench.splits.keys()].join(', ')})`);
  // Only questions a run can ask: a sample is what runs are compared on.
  const askable = split.questions.filter((q) => q.endIndex !== undefined && split.contexts.has(q.contextId));
  if (askable.length === 0) throw new Error(`the ${opts.size} split has no question that can be asked`);
  const strata = typeOrder(askable).map((key) => ({ key, units: askable.filter((q) => q.skill === key) }));
  const { drawn, chosen } = drawStrata(strata, opts.questions, opts.seed);
  return {
    seed: opts.seed,
    by: PM_SAMPLE_BY,
    size: opts.size,
    requested: opts.questions,
    strata: strata.map((s, i) => ({ key: s.key, population: s.units.length, drawn: drawn[i] })),
    questions: askable.filter((q) => chosen.has(q)).map((q) => q.questionId),
  };
}

function fingerprintOf(bench: PersonaMemBench, size: string): TasksFingerprint {
  const file = bench.splits.get(size)!.questionsFile;
  const { size: bytes, fingerprint } = stampOf(file);
  return { file: relative(bench.root, file), size: bytes, fingerprint };
}

export function newPmSample(bench: PersonaMemBench, name: string, draw: PmSampleDraw, now = new Date()): PmSample {
  return {
    format: PM_SAMPLE_FORMAT,
    version: 1,
    name,
    createdAt: now.toISOString(),
    ...draw,
    questionsFile: fingerprintOf(bench, draw.size),
  };
}

/** Reads and checks a PersonaMem sample file; throws with "<path>: <field>: <reason>" on anything it cannot use. */
export function readPmSample(root: string, name: string): PmSample {
  const { v, fail, int } = readSampleRecord(root, name, PM_SAMPLE_FORMAT);
  if (v.by !== PM_SAMPLE_BY) fail('by', `expected "${PM_SAMPLE_BY}"`);
  if (typeof v.size !== 'string' || !v.size) fail('size', 'expected the split, e.g. "32k"');
  const ids = v.questions;
  if (!Array.isArray(ids)) return fail('questions', 'expected a list of question ids');
  ids.forEach((id, i) => typeof id === 'string' || fail(`questions[${i}]`, 'expected a string'));
  if (!Array.isArray(v.strata)) return fail('strata', 'expected a list');
  const strata = v.strata.map((s: unknown, i) => {
    const f = `strata[${i}]`;
    if (typeof s !== 'object' || s === null) return fail(f, 'expected an object');
    const r = s as Record<string, unknown>;
    if (typeof r.key !== 'string') fail(`${f}.key`, 'expected a string');
    return {
      key: r.key as string,
      population: int(`${f}.population`, r.population),
      drawn: int(`${f}.drawn`, r.drawn),
    };
  });
  const q = v.questionsFile as Record<string, unknown> | undefined;
  if (typeof q !== 'object' || q === null || typeof q.file !== 'string' || typeof q.fingerprint !== 'string')
    return fail('questionsFile', 'expected { file, size, fingerprint }');
  return {
    format: PM_SAMPLE_FORMAT,
    version: 1,
    name: typeof v.name === 'string' ? v.name : name,
    createdAt: typeof v.createdAt === 'string' ? v.createdAt : '',
    seed: int('seed', v.seed),
    by: PM_SAMPLE_BY,
    size: v.size as string,
    requested: int('requested', v.requested),
    strata,
    questions: ids as string[],
    questionsFile: { file: q.file, size: int('questionsFile.size', q.size), fingerprint: q.fingerprint },
  };
}

/** The sample against the loaded benchmark: its split and every question there (errors), its file unchanged. */
export function checkPmSample(
  bench: PersonaMemBench,
  sample: PmSample,
  path: string,
): { errors: string[]; warnings: string[] } {
  const split = bench.splits.get(sample.size);
  if (!split) return { errors: [`${path}: size: no split ${sample.size} in ${bench.root}`], warnings: [] };
  const ids = new Set(split.questions.map((q) => q.questionId));
  const missing = sample.questions.filter((id) => !ids.has(id));
  const errors = missing.length
    ? [
        `${path}: questions: ${missing.length} question(s) not in ${sample.questionsFile.file}: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}`,
      ]
    : [];
  const now = fingerprintOf(bench, sample.size);
  const was = sample.questionsFile;
  const warnings =
    now.size !== was.size || now.fingerprint !== was.fingerprint
      ? [`${path}: questionsFile: ${now.file} changed since the sample was drawn (${was.size} → ${now.size} bytes)`]
      : [];
  return { errors, warnings };
}

/** The folder's PersonaMem samples that can be read (a file of another kind, or broken, is left out). */
export function pmSamples(root: string): PmSample[] {
  return listSamples(root).flatMap((name) => {
    try {
      return [readPmSample(root, name)];
    } catch {
      return [];
    }
  });
}
