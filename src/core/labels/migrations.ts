// Schema versions of the label database, kept in PRAGMA user_version. Each entry migrates from version i to i + 1;
// every row of an earlier version survives: v1 and v2 only add, v3 rebuilds the table (SQLite cannot change a CHECK
// in place) copying every row with its id, so that insertion order (ORDER BY id) is kept too.
import type Database from 'better-sqlite3';
import { migrateSchema, type StoreSchema } from '../storage/sqlite';

export const MIGRATIONS: readonly string[] = [
  // v1: the label table and its natural key.
  `CREATE TABLE labels (
     id INTEGER PRIMARY KEY,
     benchmark TEXT NOT NULL,
     platform TEXT NOT NULL,
     user_id TEXT NOT NULL,
     step_id INTEGER NOT NULL,
     run TEXT NOT NULL DEFAULT '',
     label TEXT NOT NULL,
     target_kind TEXT NOT NULL CHECK (target_kind IN ('step', 'tag', 'span')),
     tag TEXT NOT NULL DEFAULT '',
     span_field TEXT NOT NULL DEFAULT '',
     span_start INTEGER NOT NULL DEFAULT -1,
     span_end INTEGER NOT NULL DEFAULT -1,
     note TEXT NOT NULL DEFAULT '',
     author TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE UNIQUE INDEX labels_key ON labels (benchmark, platform, user_id, step_id, run, author,
     target_kind, tag, span_field, span_start, span_end, label);`,
  // v2: the step content hash (stale labels) and indexes for the per-author, per-label and per-run views.
  `ALTER TABLE labels ADD COLUMN content_hash TEXT NOT NULL DEFAULT '';
   CREATE INDEX labels_author ON labels (author);
   CREATE INDEX labels_label ON labels (label, platform);
   CREATE INDEX labels_run ON labels (benchmark, run);`,
  // v3: trace targets: a test action ('action', its index in step_id) or one record of the history
  // before it ('history', its index in history_index); the natural key gains history_index.
  `CREATE TABLE labels_v3 (
     id INTEGER PRIMARY KEY,
     benchmark TEXT NOT NULL,
     platform TEXT NOT NULL,
     user_id TEXT NOT NULL,
     step_id INTEGER NOT NULL,
     run TEXT NOT NULL DEFAULT '',
     label TEXT NOT NULL,
     target_kind TEXT NOT NULL CHECK (target_kind IN ('step', 'tag', 'span', 'action', 'history')),
     tag TEXT NOT NULL DEFAULT '',
     span_field TEXT NOT NULL DEFAULT '',
     span_start INTEGER NOT NULL DEFAULT -1,
     span_end INTEGER NOT NULL DEFAULT -1,
     note TEXT NOT NULL DEFAULT '',
     author TEXT NOT NULL,
     created_at TEXT NOT NULL,
     content_hash TEXT NOT NULL DEFAULT '',
     history_index INTEGER NOT NULL DEFAULT -1
   );
   INSERT INTO labels_v3 (id, benchmark, platform, user_id, step_id, run, label, target_kind, tag, span_field,
     span_start, span_end, note, author, created_at, content_hash)
   SELECT id, benchmark, platform, user_id, step_id, run, label, target_kind, tag, span_field,
     span_start, span_end, note, author, created_at, content_hash FROM labels;
   DROP TABLE labels;
   ALTER TABLE labels_v3 RENAME TO labels;
   CREATE UNIQUE INDEX labels_key ON labels (benchmark, platform, user_id, step_id, run, author,
     target_kind, tag, span_field, span_start, span_end, history_index, label);
   CREATE INDEX labels_author ON labels (author);
   CREATE INDEX labels_label ON labels (label, platform);
   CREATE INDEX labels_run ON labels (benchmark, run);`,
  // v4: people's scores of a run's utterance on an LLM judge's dimensions (core/labels/scores.ts).
  `CREATE TABLE judge_scores (
     id INTEGER PRIMARY KEY,
     benchmark TEXT NOT NULL,
     user_id TEXT NOT NULL,
     action_index INTEGER NOT NULL,
     run TEXT NOT NULL,
     author TEXT NOT NULL,
     dimension TEXT NOT NULL,
     score INTEGER NOT NULL CHECK (score BETWEEN 1 AND 10),
     created_at TEXT NOT NULL,
     content_hash TEXT NOT NULL DEFAULT ''
   );
   CREATE UNIQUE INDEX judge_scores_key ON judge_scores (benchmark, user_id, action_index, run, author, dimension);
   CREATE INDEX judge_scores_run ON judge_scores (benchmark, run);`,
  // v5: a replica of a label server (server/sync.ts): the writes not yet acknowledged by the server, in order (seq
  // set once it logged them), the server's events read so far, and the conflicts it reported.
  `CREATE TABLE outbox (
     id INTEGER PRIMARY KEY,
     uid TEXT NOT NULL UNIQUE,
     author TEXT NOT NULL,
     ops TEXT NOT NULL,
     made_at TEXT NOT NULL,
     seq INTEGER
   );
   CREATE TABLE sync_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE sync_conflicts (
     id INTEGER PRIMARY KEY,
     uid TEXT NOT NULL,
     seq INTEGER NOT NULL,
     op TEXT NOT NULL,
     reason TEXT NOT NULL,
     made_at TEXT NOT NULL
   );`,
  // v6: gold labels (goldRows.ts): an adjudicator's decisions, apart from the annotators' labels; a trail, where an
  // undo marks a decision undone and a newer one supersedes it.
  `CREATE TABLE gold_labels (
     id INTEGER PRIMARY KEY,
     uid TEXT NOT NULL UNIQUE,
     benchmark TEXT NOT NULL,
     platform TEXT NOT NULL,
     user_id TEXT NOT NULL,
     step_id INTEGER NOT NULL,
     run TEXT NOT NULL DEFAULT '',
     labels TEXT NOT NULL CHECK (json_valid(labels) AND json_type(labels) = 'array'),
     how TEXT NOT NULL DEFAULT 'adjudicated' CHECK (how IN ('adjudicated')),
     adjudicator TEXT NOT NULL,
     note TEXT NOT NULL DEFAULT '',
     created_at TEXT NOT NULL,
     undone_by TEXT,
     undone_at TEXT
   );
   CREATE INDEX gold_labels_unit ON gold_labels (benchmark, platform, user_id, step_id, run);`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export const LABEL_SCHEMA: StoreSchema = { what: 'label database', table: 'labels', migrations: MIGRATIONS };

export { SchemaError as NewerSchemaError, userVersion } from '../storage/sqlite';

/** Brings the label database to `target` (see migrateSchema). Returns the version found and the version left. */
export function migrate(db: Database.Database, target = SCHEMA_VERSION): { from: number; to: number } {
  return migrateSchema(db, MIGRATIONS, 'label database', target);
}
