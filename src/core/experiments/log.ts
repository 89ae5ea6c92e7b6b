// The experiment log: <benchmark>/.personalab/experiments.db, one row per experiment (run) and base run, in SQLite
// opened as the label store is (openStoreDatabase: WAL, synchronous FULL, migrations, waiting out locks). The row's
// columns are what every format's experiment has (who, when, which runs, which sample, which request, the endpoint,
// the cost); its figures, flips and scopes are the format's own JSON, written and read by the format's log
// (core/<format>/experiments). A benchmark folder is of one format, so its log is read by that format.
// Never holds an API key: the endpoint goes in through publicBaseURL, and no field takes a key.
import type Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openStoreDatabase, retryWhileBusy, type StoreOpenOptions, type StoreSchema } from '../storage/sqlite';
import { publicBaseURL } from '../runner/client';

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

/** One row as stored: the shared columns, and the format's figures, flips and scopes as JSON text. */
export interface StoredExperiment {
  /** the format's kind of experiment ('template', 'long-context', 'question-sample', ...) */
  kind: string;
  createdAt: string;
  author: string;
  run: string;
  /** '' when the experiment was not compared with a run */
  baseRun: string;
  /** `units`: what the sample covers, in the format's unit (users, personas) */
  sample: { name: string; seed: number; units: number };
  template: { id: string; hash: string; text: string; name: string };
  systemMessage: string;
  endpoint: { baseURL: string; model: string; temperature: number; maxTokens: number | null };
  personaMode: string;
  /** the items (steps, questions) and units (users, personas) both runs answered */
  paired: { items: number; units: number };
  /** the format's JSON */
  figures: string;
  flips: string;
  scopes: string | null;
  cost: { requests: number; promptTokens: number; completionTokens: number; latencyMs: number };
}

export interface StoredExperimentRow extends StoredExperiment {
  id: number;
}

/** JSON has no NaN: undefined figures are written as null (a format's reader gives NaN back). */
export const jsonWithoutNaN = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) => (typeof x === 'number' && !Number.isFinite(x) ? null : x));

type Row = Record<string, unknown>;

function toStored(r: Row): StoredExperimentRow {
  const s = (v: unknown) => (typeof v === 'string' ? v : '');
  const n = (v: unknown) => (typeof v === 'number' ? v : 0);
  return {
    id: n(r.id),
    kind: s(r.kind),
    createdAt: s(r.created_at),
    author: s(r.author),
    run: s(r.run),
    baseRun: s(r.base_run),
    sample: { name: s(r.sample), seed: n(r.sample_seed), units: n(r.sample_users) },
    template: { id: s(r.template_id), hash: s(r.template_hash), text: s(r.template_text), name: s(r.template_name) },
    systemMessage: s(r.system_message),
    endpoint: {
      baseURL: s(r.base_url),
      model: s(r.model),
      temperature: n(r.temperature),
      maxTokens: typeof r.max_tokens === 'number' ? r.max_tokens : null,
    },
    personaMode: s(r.persona_mode),
    paired: { items: n(r.paired_steps), units: n(r.paired_users) },
    figures: s(r.figures),
    flips: s(r.flips),
    scopes: typeof r.scopes === 'string' ? r.scopes : null,
    cost: {
      requests: n(r.requests),
      promptTokens: n(r.prompt_tokens),
      completionTokens: n(r.completion_tokens),
      latencyMs: n(r.latency_ms),
    },
  };
}

/** Every column an experiment's record writes but the key (run, base_run). */
const RECORDED = [
  'kind',
  'created_at',
  'author',
  'sample',
  'sample_seed',
  'sample_users',
  'template_id',
  'template_hash',
  'template_text',
  'template_name',
  'system_message',
  'model',
  'base_url',
  'temperature',
  'max_tokens',
  'persona_mode',
  'paired_steps',
  'paired_users',
  'figures',
  'flips',
  'requests',
  'prompt_tokens',
  'completion_tokens',
  'latency_ms',
  'scopes',
] as const;

export class ExperimentStore {
  private constructor(private readonly db: Database.Database) {}

  /**
   * Opens (creating and migrating) the log; `mustExist` to only read one, which opens it read-only (openReadOnly:
   * nothing written, no lock).
   */
  static open(path: string, opts: StoreOpenOptions = {}): ExperimentStore {
    const retry = <R>(fn: () => R, ms: number) =>
      retryWhileBusy(fn, ms, (s) => new Error(`the experiment log stayed locked by another process for ${s} s`));
    const how = opts.mustExist && opts.readOnly === undefined ? { ...opts, readOnly: true } : opts;
    return openStoreDatabase(path, how, retry, EXPERIMENT_SCHEMA, (db) => new ExperimentStore(db));
  }

  /**
   * Records an experiment; the same run and base run again replace their row (a resumed experiment), every column of
   * it: the row says what was sent last (a run resumed with another model or sample names that one).
   */
  record(e: StoredExperiment): number {
    if (this.db.readonly) throw new Error('the experiment log is open read-only; nothing was recorded');
    const info = this.db
      .prepare(
        `INSERT INTO experiments (run, base_run, ${RECORDED.join(', ')})
         VALUES (@run, @base_run, ${RECORDED.map((c) => '@' + c).join(', ')})
         ON CONFLICT (run, base_run) DO UPDATE SET ${RECORDED.map((c) => `${c} = excluded.${c}`).join(', ')}`,
      )
      .run({
        kind: e.kind,
        created_at: e.createdAt,
        author: e.author,
        run: e.run,
        base_run: e.baseRun,
        sample: e.sample.name,
        sample_seed: e.sample.seed,
        sample_users: e.sample.units,
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
        paired_steps: e.paired.items,
        paired_users: e.paired.units,
        figures: e.figures,
        flips: e.flips,
        requests: e.cost.requests,
        prompt_tokens: e.cost.promptTokens,
        completion_tokens: e.cost.completionTokens,
        latency_ms: e.cost.latencyMs,
        scopes: e.scopes,
      });
    return Number(info.lastInsertRowid);
  }

  /** Every experiment, newest first. */
  list(): StoredExperimentRow[] {
    return (this.db.prepare('SELECT * FROM experiments ORDER BY created_at DESC, id DESC').all() as Row[]).map(
      toStored,
    );
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** Writes one row into the folder's log (created when missing); its path. */
export function logExperiment(root: string, entry: StoredExperiment): string {
  const path = join(root, EXPERIMENTS_DB);
  const log = ExperimentStore.open(path);
  try {
    log.record(entry);
  } finally {
    log.close();
  }
  return path;
}

/** The folder's rows, newest first, read without writing; [] when it has no log yet. */
export function readExperiments(root: string): StoredExperimentRow[] {
  const path = join(root, EXPERIMENTS_DB);
  if (!existsSync(path)) return [];
  const log = ExperimentStore.open(path, { mustExist: true });
  try {
    return log.list();
  } finally {
    log.close();
  }
}
