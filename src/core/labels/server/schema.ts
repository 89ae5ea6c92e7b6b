// The label store on a PostgreSQL server: the same labels and judge_scores tables as the embedded SQLite file (the
// same columns, natural keys and statements: ../sqlRows.ts), plus the event log every write goes through (what makes
// a write exactly-once and a conflict visible) and the labelling projects' queues.
import { annotatorGrantsSql, GOLD_ROWS_SQL, ownRowsSql, ROLES_SQL, signedBySessionSql } from '../../storage/pgRoles';
import type { ServerSchema } from '../../storage/postgres';

export const SERVER_MIGRATIONS: readonly string[] = [
  // v1: labels and judge scores as in the SQLite schema v4, and the event log.
  `CREATE TABLE labels (
     id BIGSERIAL PRIMARY KEY,
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
   CREATE UNIQUE INDEX labels_key ON labels (benchmark, platform, user_id, step_id, run, author,
     target_kind, tag, span_field, span_start, span_end, history_index, label);
   CREATE INDEX labels_author ON labels (author);
   CREATE INDEX labels_label ON labels (label, platform);
   CREATE INDEX labels_run ON labels (benchmark, run);
   CREATE TABLE judge_scores (
     id BIGSERIAL PRIMARY KEY,
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
   CREATE INDEX judge_scores_run ON judge_scores (benchmark, run);
   CREATE TABLE label_events (
     seq BIGSERIAL PRIMARY KEY,
     uid TEXT NOT NULL UNIQUE,
     author TEXT NOT NULL,
     ops JSONB NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('applied', 'unchanged', 'conflict')),
     conflicts JSONB NOT NULL DEFAULT '[]',
     made_at TEXT NOT NULL,
     received_at TIMESTAMPTZ NOT NULL DEFAULT now()
   );`,
  // v2: labelling projects. Each item (a step or test action, by its unit key) is assigned to at most `overlap`
  // annotators; `open` (assigned < overlap) keeps a claim's scan to the items that still need someone.
  `CREATE TABLE projects (
     id SERIAL PRIMARY KEY,
     name TEXT NOT NULL UNIQUE,
     benchmark TEXT NOT NULL,
     runs JSONB NOT NULL DEFAULT '[]',
     labels JSONB NOT NULL DEFAULT '[]',
     overlap INTEGER NOT NULL CHECK (overlap >= 1),
     created_by TEXT NOT NULL,
     created_at TIMESTAMPTZ NOT NULL DEFAULT now()
   );
   CREATE TABLE project_items (
     project_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
     item TEXT NOT NULL,
     ord INTEGER NOT NULL,
     assigned INTEGER NOT NULL DEFAULT 0,
     submitted INTEGER NOT NULL DEFAULT 0,
     open BOOLEAN NOT NULL DEFAULT true,
     PRIMARY KEY (project_id, item)
   );
   CREATE INDEX project_items_open ON project_items (project_id, ord) WHERE open;
   CREATE TABLE assignments (
     project_id INTEGER NOT NULL,
     item TEXT NOT NULL,
     annotator TEXT NOT NULL,
     assigned_at TIMESTAMPTZ NOT NULL DEFAULT now(),
     submitted_at TIMESTAMPTZ,
     PRIMARY KEY (project_id, item, annotator),
     FOREIGN KEY (project_id, item) REFERENCES project_items (project_id, item) ON DELETE CASCADE
   );
   CREATE INDEX assignments_annotator ON assignments (project_id, annotator, submitted_at);`,
  // v3: a team of database roles (../../storage/pgRoles.ts). The server signs each row with the session's role and
  // keeps every role to its own labels, scores and claims; the annotator group holds what an annotator needs. A later
  // migration that adds a table grants it to the group too.
  `${ROLES_SQL}
   ${ownRowsSql('labels')}
   ${ownRowsSql('judge_scores')}
   ${ownRowsSql('assignments', 'annotator')}
   ${signedBySessionSql('label_events')}
   ${annotatorGrantsSql({
     tables: {
       labels: 'SELECT, INSERT, UPDATE, DELETE',
       judge_scores: 'SELECT, INSERT, UPDATE, DELETE',
       label_events: 'SELECT, INSERT',
       projects: 'SELECT, INSERT',
       project_items: 'SELECT, INSERT, UPDATE',
       assignments: 'SELECT, INSERT, UPDATE',
     },
     sequences: ['labels_id_seq', 'judge_scores_id_seq', 'label_events_seq_seq', 'projects_id_seq'],
   })}`,
  // v4: gold labels (../goldRows.ts), as in the SQLite schema v6. Every annotator reads them; only the adjudicator
  // group (and the store's owner) writes them, refused twice: by the grants and by a trigger (GOLD_ROWS_SQL), which
  // also keeps the trail (no row removed, only the undo columns set, once).
  `CREATE TABLE gold_labels (
     id BIGSERIAL PRIMARY KEY,
     uid TEXT NOT NULL UNIQUE,
     benchmark TEXT NOT NULL,
     platform TEXT NOT NULL,
     user_id TEXT NOT NULL,
     step_id INTEGER NOT NULL,
     run TEXT NOT NULL DEFAULT '',
     labels TEXT NOT NULL CHECK (jsonb_typeof(labels::jsonb) = 'array'),
     how TEXT NOT NULL DEFAULT 'adjudicated' CHECK (how IN ('adjudicated')),
     adjudicator TEXT NOT NULL,
     note TEXT NOT NULL DEFAULT '',
     created_at TEXT NOT NULL,
     undone_by TEXT,
     undone_at TEXT
   );
   CREATE INDEX gold_labels_unit ON gold_labels (benchmark, platform, user_id, step_id, run);
   ${GOLD_ROWS_SQL}
   ${annotatorGrantsSql({ tables: { gold_labels: 'SELECT' }, sequences: [] })}`,
];

export const SERVER_SCHEMA: ServerSchema = { what: 'label store', migrations: SERVER_MIGRATIONS };
