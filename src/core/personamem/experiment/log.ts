// PersonaMem's rows of the experiment log (core/experiments/log.ts): a sample of questions stratified by question type
// asked into a run and compared with a base run. What the row covers (the split, the sample's questions, personas and
// strata), the request's source and the paired figures (pmExperimentFigures) are kept in the row's JSON, so that the
// Experiments view and `experiments` print the figures `experiment --json` printed when it ran.
import { readPmManifest } from '../run/manifest';
import type { PersonaMemBench, PmRun } from '../types';
import { logExperiment, jsonWithoutNaN, readExperiments, type StoredExperimentRow } from '../../experiments/log';
import { pmExperimentFigures, type PmExperimentFigures, type PmPairedRow } from './compare';
import type { PmSample, PmSampleStratum } from './sample';

/** The log's kind of a PersonaMem experiment (StreamProfileBench's are 'template' and 'long-context'). */
export const PM_EXPERIMENT_KIND = 'question-sample';

export interface PmExperimentEntry {
  createdAt: string;
  author: string;
  /** the experiment's run and the base run, as `score` names them (32k_exp-…); baseRun '' when not compared */
  run: string;
  baseRun: string;
  /** what the figures are over: the sample's questions of one split, its personas and strata */
  sample: { name: string; seed: number; split: string; questions: number; personas: number; strata: PmSampleStratum[] };
  /** where the requests came from (the run's manifest): the benchmark's code in a checkout, or our template */
  request: { kind: 'template' | 'reference'; name: string; id: string; checkout: string | null };
  endpoint: { baseURL: string; model: string; temperature: number | null };
  requests: number;
  /** null without a base run */
  figures: PmExperimentFigures | null;
}

export interface PmExperimentRow extends PmExperimentEntry {
  id: number;
}

export interface FinishedPmExperiment {
  /** loaded with the experiment's run and the base run */
  bench: PersonaMemBench;
  sample: PmSample;
  run: PmRun;
  base: PmRun | undefined;
  author: string;
  now?: Date;
}

const manifestOf = (run: PmRun) => {
  const m = readPmManifest(run.file.replace(/\.csv$/, '.run.json'));
  return m && typeof m !== 'string' ? m : undefined;
};

/** The entry of a finished experiment: its figures (the one function `experiment` prints) and what it covers. */
export function pmExperimentEntry(e: FinishedPmExperiment): PmExperimentEntry {
  const byId = new Map(e.bench.splits.get(e.sample.size)?.questions.map((q) => [q.questionId, q.personaId]));
  const m = manifestOf(e.run);
  return {
    createdAt: (e.now ?? new Date()).toISOString(),
    author: e.author,
    run: e.run.name,
    baseRun: e.base?.name ?? '',
    sample: {
      name: e.sample.name,
      seed: e.sample.seed,
      split: e.sample.size,
      questions: e.sample.questions.length,
      personas: new Set(e.sample.questions.map((id) => byId.get(id) ?? '')).size,
      strata: e.sample.strata,
    },
    request: m?.request ?? { kind: 'template', name: '', id: '', checkout: null },
    endpoint: m?.endpoint ?? { baseURL: '', model: e.run.model, temperature: null },
    requests: m?.counts.requests ?? 0,
    figures: e.base
      ? pmExperimentFigures(
          e.bench,
          e.base,
          e.run,
          e.sample.questions,
          e.sample.strata.map((s) => s.key),
        )
      : null,
  };
}

/** What the row's JSON holds beyond the shared columns. */
interface Stored {
  split: string;
  questions: number;
  personas: number;
  strata: PmSampleStratum[];
  request: PmExperimentEntry['request'];
  temperature: number | null;
  figures: PmExperimentFigures | null;
}

/** Records the entry in the benchmark's log (the same run and base run replace their row); the log's path. */
export function recordPmExperiment(root: string, e: PmExperimentEntry): string {
  const own: Stored = {
    split: e.sample.split,
    questions: e.sample.questions,
    personas: e.sample.personas,
    strata: e.sample.strata,
    request: e.request,
    temperature: e.endpoint.temperature,
    figures: e.figures,
  };
  return logExperiment(root, {
    kind: PM_EXPERIMENT_KIND,
    createdAt: e.createdAt,
    author: e.author,
    run: e.run,
    baseRun: e.baseRun,
    sample: { name: e.sample.name, seed: e.sample.seed, units: e.sample.personas },
    template: { id: e.request.id, hash: e.request.id, text: e.request.checkout ?? '', name: e.request.name },
    systemMessage: '',
    endpoint: {
      baseURL: e.endpoint.baseURL,
      model: e.endpoint.model,
      temperature: e.endpoint.temperature ?? 0,
      maxTokens: null,
    },
    personaMode: 'full',
    paired: { items: e.figures?.paired ?? 0, units: e.figures?.personas ?? 0 },
    figures: jsonWithoutNaN(own),
    flips: JSON.stringify(e.figures ? { gained: e.figures.gained, lost: e.figures.lost } : null),
    scopes: null,
    cost: { requests: e.requests, promptTokens: 0, completionTokens: 0, latencyMs: 0 },
  });
}

const num = (x: unknown) => (typeof x === 'number' ? x : NaN);

function readFigures(f: PmExperimentFigures | null): PmExperimentFigures | null {
  if (!f) return null;
  const row = (r: PmPairedRow): PmPairedRow => ({
    ...r,
    base: num(r.base),
    run: num(r.run),
    diff: num(r.diff),
    low: num(r.low),
    high: num(r.high),
  });
  return { ...f, rows: f.rows.map(row) };
}

/** A stored row as PersonaMem's, or undefined when it is another kind or its JSON is not ours. */
export function pmExperimentRow(r: StoredExperimentRow): PmExperimentRow | undefined {
  if (r.kind !== PM_EXPERIMENT_KIND) return undefined;
  let own: Stored;
  try {
    own = JSON.parse(r.figures) as Stored;
  } catch {
    return undefined;
  }
  if (typeof own !== 'object' || own === null || typeof own.split !== 'string') return undefined;
  return {
    id: r.id,
    createdAt: r.createdAt,
    author: r.author,
    run: r.run,
    baseRun: r.baseRun,
    sample: {
      name: r.sample.name,
      seed: r.sample.seed,
      split: own.split,
      questions: own.questions,
      personas: own.personas,
      strata: own.strata,
    },
    request: own.request,
    endpoint: { baseURL: r.endpoint.baseURL, model: r.endpoint.model, temperature: own.temperature },
    requests: r.cost.requests,
    figures: readFigures(own.figures),
  };
}

/** The folder's PersonaMem experiments, newest first; [] without a log. */
export function pmExperimentRows(root: string): PmExperimentRow[] {
  return readExperiments(root).flatMap((r) => pmExperimentRow(r) ?? []);
}

/** An entry (or a logged row) as `experiment --json` and `experiments --json` print it: NaN figures as null. */
export function pmExperimentJson(e: PmExperimentEntry): unknown {
  return JSON.parse(jsonWithoutNaN(e));
}
