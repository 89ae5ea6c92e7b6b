// Run history in SQLite (better-sqlite3, WAL, user_version migrations): every step run with its prompt, raw
// reply, parsed result, metrics, latency and usage, so that a step can list its earlier attempts. No API key
// is ever passed in here.
import {
  migrateStore,
  openDatabase,
  openReadOnly,
  prepareStoreFile,
  userVersion,
  type StoreSchema,
} from '../../storage/sqlite';
import { checkDefaultStorePath } from '../../io/safeFs';
import type Database from 'better-sqlite3';
import { pyJsonDumps, pyJsonLoads } from '../../io/pyjson';
import type { StepMetrics } from '../types';
import { publicBaseURL } from '../../runner/client';
import type { StepRunRecord } from './step';

type DB = Database.Database;

/** Each entry moves the schema from version i to i + 1. Append only; never edit a shipped one. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE attempts (
     id INTEGER PRIMARY KEY,
     run TEXT NOT NULL,
     platform TEXT NOT NULL,
     user_id TEXT NOT NULL,
     step_id INTEGER NOT NULL,
     step_index INTEGER NOT NULL,
     template_id TEXT NOT NULL,
     model TEXT NOT NULL,
     base_url TEXT NOT NULL,
     persona_in TEXT,
     system TEXT NOT NULL,
     prompt TEXT NOT NULL,
     raw TEXT NOT NULL,
     parsed TEXT,
     flags TEXT NOT NULL,
     error TEXT,
     prediction TEXT NOT NULL,
     reasoning TEXT NOT NULL,
     persona_summary TEXT NOT NULL,
     persona_next TEXT,
     metrics TEXT,
     tries TEXT NOT NULL,
     latency_ms REAL NOT NULL,
     prompt_tokens INTEGER,
     completion_tokens INTEGER,
     total_tokens INTEGER,
     created_at TEXT NOT NULL
   );
   CREATE INDEX attempts_by_step ON attempts (platform, user_id, step_id, created_at);
   CREATE INDEX attempts_by_run ON attempts (run);`,
  // v2: what the caller knows about an attempt beyond the step record (e.g. a re-run's persona mode and template
  // name), as a JSON object.
  `ALTER TABLE attempts ADD COLUMN meta TEXT;`,
];

export const HISTORY_SCHEMA_VERSION = MIGRATIONS.length;

const HISTORY_SCHEMA: StoreSchema = { what: 'run history database', table: 'attempts', migrations: MIGRATIONS };

export interface HistoryContext {
  /** the run folder name, or a label such as "rerun" for single-step re-runs */
  run: string;
  model: string;
  /** credentials and query are stripped before it is stored */
  baseURL: string;
  /** free-form facts about the attempt, stored as JSON (must never hold a secret) */
  meta?: Record<string, unknown>;
}

export interface HistoryRow {
  id: number;
  run: string;
  platform: string;
  userId: string;
  stepId: number;
  stepIndex: number;
  templateId: string;
  model: string;
  baseURL: string;
  personaIn: string | null;
  system: string;
  prompt: string;
  raw: string;
  /** the decoded reply (NaN allowed), undefined when it was not JSON */
  parsed: unknown;
  flags: unknown[];
  error: string | null;
  prediction: unknown[];
  reasoning: string;
  personaSummary: string;
  personaNext: string | null;
  metrics: StepMetrics | null;
  tries: unknown[];
  latencyMs: number;
  usage: { promptTokens: number; completionTokens: number; totalTokens: number } | null;
  createdAt: string;
  /** HistoryContext.meta as recorded; null for rows without it (older rows, batch runs) */
  meta: Record<string, unknown> | null;
}

function loads(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  const r = pyJsonLoads(text);
  return r.ok ? r.value : undefined;
}

export class RunHistory {
  private readonly db: DB;
  private readonly insert: Database.Statement;

  private constructor(db: DB) {
    this.db = db;
    this.insert = db.prepare(`INSERT INTO attempts (
      run, platform, user_id, step_id, step_index, template_id, model, base_url, persona_in, system, prompt, raw,
      parsed, flags, error, prediction, reasoning, persona_summary, persona_next, metrics, tries, latency_ms,
      prompt_tokens, completion_tokens, total_tokens, created_at, meta
    ) VALUES (
      @run, @platform, @user_id, @step_id, @step_index, @template_id, @model, @base_url, @persona_in, @system, @prompt,
      @raw, @parsed, @flags, @error, @prediction, @reasoning, @persona_summary, @persona_next, @metrics, @tries,
      @latency_ms, @prompt_tokens, @completion_tokens, @total_tokens, @created_at, @meta
    )`);
  }

  /**
   * Opens (creating and migrating) a history database file; ':memory:' works for tests. With `readOnly`, only reads
   * (openReadOnly: nothing written, no lock, no migration), and recording is refused.
   */
  static open(path: string, opts: { readOnly?: boolean } = {}): RunHistory {
    if (opts.readOnly) return new RunHistory(openReadOnly(path, HISTORY_SCHEMA));
    checkDefaultStorePath(path);
    prepareStoreFile(path, HISTORY_SCHEMA, false);
    const db = openDatabase(path);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 5000');
      migrateStore(db, HISTORY_SCHEMA);
      return new RunHistory(db);
    } catch (e) {
      db.close();
      throw e;
    }
  }

  get schemaVersion(): number {
    return userVersion(this.db);
  }

  record(ctx: HistoryContext, r: StepRunRecord): number {
    if (this.db.readonly) throw new Error('the run history database is open read-only; nothing was recorded');
    const info = this.insert.run({
      run: ctx.run,
      platform: r.platform,
      user_id: r.userId,
      step_id: r.stepId,
      step_index: r.stepIndex,
      template_id: r.templateId,
      model: ctx.model,
      base_url: publicBaseURL(ctx.baseURL),
      persona_in: r.personaIn,
      system: r.system,
      prompt: r.prompt,
      raw: r.raw,
      parsed: r.parsed && r.parsed.parsed !== undefined ? pyJsonDumps(r.parsed.parsed) : null,
      flags: JSON.stringify(r.parsed?.flags ?? []),
      error: r.error,
      prediction: pyJsonDumps(r.prediction),
      reasoning: r.reasoning,
      persona_summary: r.personaSummary,
      persona_next: r.personaNext,
      metrics: r.metrics ? pyJsonDumps(r.metrics) : null,
      tries: JSON.stringify(r.attempts),
      latency_ms: r.latencyMs,
      prompt_tokens: r.usage?.promptTokens ?? null,
      completion_tokens: r.usage?.completionTokens ?? null,
      total_tokens: r.usage?.totalTokens ?? null,
      created_at: r.at,
      meta: ctx.meta ? JSON.stringify(ctx.meta) : null,
    });
    return Number(info.lastInsertRowid);
  }

  /** Earlier attempts of one step, oldest first. */
  forStep(platform: string, userId: string, stepId: number): HistoryRow[] {
    const rows = this.db
      .prepare('SELECT * FROM attempts WHERE platform = ? AND user_id = ? AND step_id = ? ORDER BY created_at, id')
      .all(platform, userId, stepId);
    return rows.map(toRow);
  }

  byId(id: number): HistoryRow | undefined {
    const row: unknown = this.db.prepare('SELECT * FROM attempts WHERE id = ?').get(id);
    return row === undefined ? undefined : toRow(row);
  }

  forRun(run: string): HistoryRow[] {
    return this.db.prepare('SELECT * FROM attempts WHERE run = ? ORDER BY id').all(run).map(toRow);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

function toRow(value: unknown): HistoryRow {
  const r = value as Record<string, unknown>;
  const s = (v: unknown) => (typeof v === 'string' ? v : '');
  const n = (v: unknown) => (typeof v === 'number' ? v : Number(v) || 0);
  const arr = (v: unknown) => {
    const x = loads(v);
    return Array.isArray(x) ? x : [];
  };
  const metrics = loads(r.metrics);
  let meta: unknown;
  try {
    meta = typeof r.meta === 'string' ? JSON.parse(r.meta) : null;
  } catch {
    meta = null;
  }
  return {
    id: n(r.id),
    run: s(r.run),
    platform: s(r.platform),
    userId: s(r.user_id),
    stepId: n(r.step_id),
    stepIndex: n(r.step_index),
    templateId: s(r.template_id),
    model: s(r.model),
    baseURL: s(r.base_url),
    personaIn: typeof r.persona_in === 'string' ? r.persona_in : null,
    system: s(r.system),
    prompt: s(r.prompt),
    raw: s(r.raw),
    parsed: loads(r.parsed),
    flags: arr(r.flags),
    error: typeof r.error === 'string' ? r.error : null,
    prediction: arr(r.prediction),
    reasoning: s(r.reasoning),
    personaSummary: s(r.persona_summary),
    personaNext: typeof r.persona_next === 'string' ? r.persona_next : null,
    metrics: typeof metrics === 'object' && metrics !== null ? (metrics as StepMetrics) : null,
    tries: arr(r.tries),
    latencyMs: n(r.latency_ms),
    usage:
      r.total_tokens === null || r.total_tokens === undefined
        ? null
        : {
            promptTokens: n(r.prompt_tokens),
            completionTokens: n(r.completion_tokens),
            totalTokens: n(r.total_tokens),
          },
    createdAt: s(r.created_at),
    meta: typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? (meta as Record<string, unknown>) : null,
  };
}
