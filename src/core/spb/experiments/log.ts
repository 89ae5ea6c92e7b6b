// The experiment log: <benchmark>/.personalab/experiments.db, one row per experiment (run folder) and base run, in
// SQLite opened as the label store is (openStoreDatabase: WAL, synchronous FULL, migrations, waiting out locks).
// Never holds an API key: the endpoint goes in through publicBaseURL, and no field takes a key.
import type Database from 'better-sqlite3';
import { join } from 'node:path';
import { openStoreDatabase, retryWhileBusy, type StoreOpenOptions, type StoreSchema } from '../../storage/sqlite';
import { publicBaseURL } from '../../runner/client';
import type { CompareMetric } from '../score/runCompare';
import type { PairedSummaryRow } from '../score/pairedSummary';
import type { ExperimentCost, ExperimentFigures } from './experiment';
import type { LongContextTable } from './longContext';

export const EXPERIMENTS_DB = join('.personalab', 'experiments.db');

/** Each entry moves the schema from version i to i + 1. Append only; never edit a shipped one. */
export const EXPERIMENT_MIGRATIONS: readonly string[] = [
  `CREATE TABLE experiments (
     id INTEGER PRIMARY KEY,
     created_at TEXT NOT NULL,
     author TEXT NOT NULL,
     run TEXT NOT NULL,
     base_run TEXT NOT NULL,
     sample TEXT NOT NULL,
     sample_seed INTEGER NOT NULL,
     sample_users INTEGER NOT NULL,
     template_id TEXT NOT NULL,
     template_hash TEXT NOT NULL,
     template_text TEXT NOT NULL,
     system_message TEXT NOT NULL,
     model TEXT NOT NULL,
     base_url TEXT NOT NULL,
     temperature REAL NOT NULL,
     max_tokens INTEGER,
     persona_mode TEXT NOT NULL,
     paired_steps INTEGER NOT NULL,
     paired_users INTEGER NOT NULL,
     figures TEXT NOT NULL,
     flips TEXT NOT NULL,
     requests INTEGER NOT NULL,
     prompt_tokens INTEGER NOT NULL,
     completion_tokens INTEGER NOT NULL,
     latency_ms REAL NOT NULL,
     UNIQUE (run, base_run)
   );
   CREATE INDEX experiments_by_time ON experiments (created_at);`,
  // v2: the long-context baseline (appendix E) logged beside template experiments; `scopes` holds its Table 7 rows
  // per platform and Avg. (JSON), null for a template experiment.
  `ALTER TABLE experiments ADD COLUMN kind TEXT NOT NULL DEFAULT 'template';
   ALTER TABLE experiments ADD COLUMN scopes TEXT;`,
  // v3: the template's name as the user gave it (its file name); '' in rows logged before, shown by their id.
  `ALTER TABLE experiments ADD COLUMN template_name TEXT NOT NULL DEFAULT '';`,
];

export const EXPERIMENTS_SCHEMA_VERSION = EXPERIMENT_MIGRATIONS.length;

const EXPERIMENT_SCHEMA: StoreSchema = {
  what: 'experiment log',
  table: 'experiments',
  migrations: EXPERIMENT_MIGRATIONS,
};

/** A template over a sample, or the long-context baseline (our reading of appendix E). */
export type ExperimentKind = 'template' | 'long-context';

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

/** JSON has no NaN: undefined figures are stored as null and read back as NaN. */
const nanToNull = (_k: string, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v);

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

type Row = Record<string, unknown>;

function toRow(r: Row): ExperimentRow {
  const s = (v: unknown) => (typeof v === 'string' ? v : '');
  const n = (v: unknown) => (typeof v === 'number' ? v : 0);
  const figures = readFigures(s(r.figures));
  return {
    id: n(r.id),
    kind: r.kind === 'long-context' ? 'long-context' : 'template',
    createdAt: s(r.created_at),
    author: s(r.author),
    run: s(r.run),
    baseRun: s(r.base_run),
    sample: { name: s(r.sample), seed: n(r.sample_seed), users: n(r.sample_users) },
    template: {
      id: s(r.template_id),
      hash: s(r.template_hash),
      text: s(r.template_text),
      name: s(r.template_name),
    },
    systemMessage: s(r.system_message),
    endpoint: {
      baseURL: s(r.base_url),
      model: s(r.model),
      temperature: n(r.temperature),
      maxTokens: typeof r.max_tokens === 'number' ? r.max_tokens : null,
    },
    personaMode: r.persona_mode === 'none' ? 'none' : 'full',
    figures,
    scopes: readScopes(r.scopes),
    cost: {
      requests: n(r.requests),
      steps: figures?.pairedSteps ?? 0,
      promptTokens: n(r.prompt_tokens),
      completionTokens: n(r.completion_tokens),
      latencyMs: n(r.latency_ms),
      unknownUsage: 0,
    },
  };
}

export class ExperimentLog {
  private constructor(private readonly db: Database.Database) {}

  /**
   * Opens (creating and migrating) the log; `mustExist` to only read one, which opens it read-only (openReadOnly:
   * nothing written, no lock).
   */
  static open(path: string, opts: StoreOpenOptions = {}): ExperimentLog {
    const retry = <R>(fn: () => R, ms: number) =>
      retryWhileBusy(fn, ms, (s) => new Error(`the experiment log stayed locked by another process for ${s} s`));
    const how = opts.mustExist && opts.readOnly === undefined ? { ...opts, readOnly: true } : opts;
    return openStoreDatabase(path, how, retry, EXPERIMENT_SCHEMA, (db) => new ExperimentLog(db));
  }

  /** Records an experiment; the same run and base run again replace their row (a resumed experiment). */
  record(e: ExperimentInput): number {
    if (this.db.readonly) throw new Error('the experiment log is open read-only; nothing was recorded');
    const info = this.db
      .prepare(
        `INSERT INTO experiments (kind, created_at, author, run, base_run, sample, sample_seed, sample_users, template_id,
           template_hash, template_text, template_name, system_message, model, base_url, temperature, max_tokens, persona_mode,
           paired_steps, paired_users, figures, flips, requests, prompt_tokens, completion_tokens, latency_ms, scopes)
         VALUES (@kind, @created_at, @author, @run, @base_run, @sample, @sample_seed, @sample_users, @template_id,
           @template_hash, @template_text, @template_name, @system_message, @model, @base_url, @temperature, @max_tokens,
           @persona_mode, @paired_steps, @paired_users, @figures, @flips, @requests, @prompt_tokens,
           @completion_tokens, @latency_ms, @scopes)
         ON CONFLICT (run, base_run) DO UPDATE SET created_at = excluded.created_at, author = excluded.author,
           base_url = excluded.base_url, paired_steps = excluded.paired_steps, paired_users = excluded.paired_users,
           figures = excluded.figures, flips = excluded.flips, requests = excluded.requests,
           prompt_tokens = excluded.prompt_tokens, completion_tokens = excluded.completion_tokens,
           latency_ms = excluded.latency_ms, scopes = excluded.scopes`,
      )
      .run({
        kind: e.kind,
        created_at: e.createdAt,
        author: e.author,
        run: e.run,
        base_run: e.baseRun,
        sample: e.sample.name,
        sample_seed: e.sample.seed,
        sample_users: e.sample.users,
        template_id: e.template.id,
        template_hash: e.template.hash,
        template_text: e.template.text,
        template_name: e.template.name,
        system_message: e.systemMessage,
        model: e.endpoint.model,
        base_url: publicBaseURL(e.endpoint.baseURL),
        temperature: e.endpoint.temperature,
        max_tokens: e.endpoint.maxTokens,
        persona_mode: e.personaMode,
        paired_steps: e.figures?.pairedSteps ?? 0,
        paired_users: e.figures?.pairedUsers ?? 0,
        figures: JSON.stringify(e.figures, nanToNull),
        flips: JSON.stringify(e.figures?.flips ?? null),
        requests: e.cost.requests,
        prompt_tokens: e.cost.promptTokens,
        completion_tokens: e.cost.completionTokens,
        latency_ms: e.cost.latencyMs,
        scopes: e.scopes ? JSON.stringify(e.scopes, nanToNull) : null,
      });
    return Number(info.lastInsertRowid);
  }

  /** Every experiment, newest first. */
  list(): ExperimentRow[] {
    return (this.db.prepare('SELECT * FROM experiments ORDER BY created_at DESC, id DESC').all() as Row[]).map(toRow);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** The paired row of one metric, if the experiment was compared. */
export function figureOf(row: ExperimentInput, metric: CompareMetric): PairedSummaryRow | undefined {
  return row.figures?.summary.find((r) => r.metric === metric);
}
