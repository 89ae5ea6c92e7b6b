// Schema versions of the label database, kept in PRAGMA user_version. Each entry migrates from version i to i + 1;
// a migration only ever adds (columns, indexes), so every row of an earlier version survives.
import type Database from 'better-sqlite3';
import { migrateSchema } from '../sqlite';

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
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export { SchemaError as NewerSchemaError, userVersion } from '../sqlite';

/** Brings the label database to `target` (see migrateSchema). Returns the version found and the version left. */
export function migrate(db: Database.Database, target = SCHEMA_VERSION): { from: number; to: number } {
  return migrateSchema(db, MIGRATIONS, 'label database', target);
}
