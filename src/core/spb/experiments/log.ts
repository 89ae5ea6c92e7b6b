// StreamProfileBench's rows of the experiment log (core/experiments/log.ts): a template over a sample or the
// long-context baseline, its figures the paired summary per metric (NaN stored as null, read back as NaN).
import {
  ExperimentStore,
  jsonWithoutNaN,
  type StoredExperiment,
  type StoredExperimentRow,
} from '../../experiments/log';
import type { StoreOpenOptions } from '../../storage/sqlite';
import type { CompareMetric } from '../score/runCompare';
import type { PairedSummaryRow } from '../score/pairedSummary';
import type { ExperimentCost, ExperimentFigures } from './experiment';
import type { LongContextTable } from './longContext';

export { EXPERIMENTS_DB, EXPERIMENT_MIGRATIONS, EXPERIMENTS_SCHEMA_VERSION } from '../../experiments/log';

/** A template over a sample, or the long-context baseline (our reading of appendix E). */
export type ExperimentKind = 'template' | 'long-context';
const SPB_KINDS: readonly string[] = ['template', 'long-context'] satisfies ExperimentKind[];

export interface ExperimentInput {
  kind: ExperimentKind;
  createdAt: string;
  author: string;
  run: string;
  /** '' when the experiment was not compared with a run */
  baseRun: string;
  sample: { name: string; seed: number; users: number };
  /** `name`: the template file's name, or the built-in template's; '' for rows logged before names were kept */
  template: { id: string; hash: string; text: string; name: string };
  systemMessage: string;
  endpoint: { baseURL: string; model: string; temperature: number; maxTokens: number | null };
  personaMode: 'full' | 'none';
  /** null without a base run; for a long-context row, `summary` is Table 7's Avg. rows (F1^NS left out) */
  figures: ExperimentFigures | null;
  /** a long-context row's Table 7 rows, per platform and Avg. (null for a template experiment) */
  scopes: LongContextTable['scopes'] | null;
  cost: ExperimentCost;
}

/** What lists and messages call an experiment's template: its name, or its id for rows logged before names. */
export function templateLabel(t: { name: string; id: string }): string {
  return t.name === '' ? t.id : t.name;
}

export interface ExperimentRow extends ExperimentInput {
  id: number;
}

function readSummary(rows: PairedSummaryRow[]): PairedSummaryRow[] {
  const n = (x: unknown) => (typeof x === 'number' ? x : NaN);
  return rows.map((r) => ({
    ...r,
    meanA: n(r.meanA),
    meanB: n(r.meanB),
    diff: n(r.diff),
    ciLow: n(r.ciLow),
    ciHigh: n(r.ciHigh),
  }));
}

function readFigures(text: string): ExperimentFigures | null {
  const v = JSON.parse(text) as ExperimentFigures | null;
  if (!v) return null;
  v.summary = readSummary(v.summary);
  return v;
}

function readScopes(text: unknown): LongContextTable['scopes'] | null {
  if (typeof text !== 'string') return null;
  const v = JSON.parse(text) as LongContextTable['scopes'] | null;
  return v ? v.map((s) => ({ scope: s.scope, rows: readSummary(s.rows) })) : null;
}

/** A stored row as StreamProfileBench's: its figures and scopes read from their JSON. */
export function spbExperimentRow(r: StoredExperimentRow): ExperimentRow {
  const figures = readFigures(r.figures);
  return {
    id: r.id,
    kind: r.kind === 'long-context' ? 'long-context' : 'template',
    createdAt: r.createdAt,
    author: r.author,
    run: r.run,
    baseRun: r.baseRun,
    sample: { name: r.sample.name, seed: r.sample.seed, users: r.sample.units },
    template: r.template,
    systemMessage: r.systemMessage,
    endpoint: r.endpoint,
    personaMode: r.personaMode === 'none' ? 'none' : 'full',
    figures,
    scopes: readScopes(r.scopes),
    cost: { ...r.cost, steps: figures?.pairedSteps ?? 0, unknownUsage: 0 },
  };
}

/** An entry as the log stores it. */
export function storedExperiment(e: ExperimentInput): StoredExperiment {
  return {
    kind: e.kind,
    createdAt: e.createdAt,
    author: e.author,
    run: e.run,
    baseRun: e.baseRun,
    sample: { name: e.sample.name, seed: e.sample.seed, units: e.sample.users },
    template: e.template,
    systemMessage: e.systemMessage,
    endpoint: e.endpoint,
    personaMode: e.personaMode,
    paired: { items: e.figures?.pairedSteps ?? 0, units: e.figures?.pairedUsers ?? 0 },
    figures: jsonWithoutNaN(e.figures),
    flips: JSON.stringify(e.figures?.flips ?? null),
    scopes: e.scopes ? jsonWithoutNaN(e.scopes) : null,
    cost: {
      requests: e.cost.requests,
      promptTokens: e.cost.promptTokens,
      completionTokens: e.cost.completionTokens,
      latencyMs: e.cost.latencyMs,
    },
  };
}

/** The log of a StreamProfileBench folder, its rows typed as its own (core/experiments/log.ts stores them). */
export class ExperimentLog {
  private constructor(private readonly store: ExperimentStore) {}

  /** See ExperimentStore.open: `mustExist` only reads. */
  static open(path: string, opts: StoreOpenOptions = {}): ExperimentLog {
    return new ExperimentLog(ExperimentStore.open(path, opts));
  }

  /** Records an experiment; the same run and base run again replace their row (a resumed experiment). */
  record(e: ExperimentInput): number {
    return this.store.record(storedExperiment(e));
  }

  /** Every experiment of StreamProfileBench's kinds, newest first (the log is one schema for every format). */
  list(): ExperimentRow[] {
    return this.store
      .list()
      .filter((r) => SPB_KINDS.includes(r.kind))
      .map(spbExperimentRow);
  }

  close(): void {
    this.store.close();
  }
}

/** The paired row of one metric, if the experiment was compared. */
export function figureOf(row: ExperimentInput, metric: CompareMetric): PairedSummaryRow | undefined {
  return row.figures?.summary.find((r) => r.metric === metric);
}
