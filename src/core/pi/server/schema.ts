// The PI audit's verdicts on a team's PostgreSQL server (the label server): the columns of the SQLite trail
// (../verdicts.ts v1) plus the uid its writer chose, which makes a verdict sent twice one row. Its own row in
// persona_lab_schema, beside the label store's.
import { annotatorGrantsSql, ownRowsSql, ROLES_SQL } from '../../storage/pgRoles';
import type { ServerSchema } from '../../storage/postgres';

export const VERDICT_SERVER_MIGRATIONS: readonly string[] = [
  `CREATE TABLE pi_verdicts (
     id BIGSERIAL PRIMARY KEY,
     uid TEXT NOT NULL UNIQUE,
     benchmark TEXT NOT NULL,
     finding_key TEXT NOT NULL,
     file TEXT NOT NULL,
     line INTEGER NOT NULL,
     field TEXT NOT NULL,
     span_start INTEGER NOT NULL,
     span_end INTEGER NOT NULL,
     category TEXT NOT NULL,
     text_hash TEXT NOT NULL,
     platform TEXT NOT NULL,
     user_id TEXT NOT NULL,
     step_id INTEGER,
     run TEXT NOT NULL DEFAULT '',
     verdict TEXT NOT NULL CHECK (verdict IN ('confirmed-leak', 'false-positive', 'needs-review')),
     note TEXT NOT NULL DEFAULT '',
     author TEXT NOT NULL,
     created_at TEXT NOT NULL,
     received_at TIMESTAMPTZ NOT NULL DEFAULT now()
   );
   CREATE INDEX pi_verdicts_key ON pi_verdicts (benchmark, finding_key, id);
   CREATE INDEX pi_verdicts_author ON pi_verdicts (author);`,
  // v2: a team of database roles (../../storage/pgRoles.ts): a verdict is signed by the session's role, and the
  // annotator group may add its own.
  `${ROLES_SQL}
   ${ownRowsSql('pi_verdicts')}
   ${annotatorGrantsSql({ tables: { pi_verdicts: 'SELECT, INSERT, UPDATE, DELETE' }, sequences: ['pi_verdicts_id_seq'] })}`,
];

export const VERDICT_SERVER_SCHEMA: ServerSchema = { what: 'verdict store', migrations: VERDICT_SERVER_MIGRATIONS };
