// Who may do what on a team's label server. Each annotator logs in as their own database role, a member of the group
// role ANNOTATOR_ROLE, which holds every grant an annotator needs (so adding a person is two commands, README). The
// server, not the client, decides whose a row is: a row's author column defaults to current_user, and a trigger
// refuses a row written, changed or removed in another role's name. Two kinds of role may still sign for others: the
// owner of the store's tables (the administrator who ran its migrations, e.g. merging a colleague's label file) and
// members of ADJUDICATOR_ROLE, the hook for an adjudicator who settles disagreements (a gold set) under other names.

export const ANNOTATOR_ROLE = 'persona_lab_annotator';
export const ADJUDICATOR_ROLE = 'persona_lab_adjudicator';
/** The SQLSTATE of a row refused for being another role's: a refusal of that write, not of the connection. */
export const OWN_ROWS_CODE = 'PLOWN';

/**
 * Creates the two group roles when the cluster has none (roles are shared by every database of a cluster, so another
 * database's store may have made them already, maybe at this very moment), and the trigger function that keeps each
 * role to its own rows. Creating a role needs CREATEROLE: without it the administrator is told the command to run.
 */
export const ROLES_SQL = `
DO $roles$
DECLARE r text;
BEGIN
  FOREACH r IN ARRAY ARRAY['${ANNOTATOR_ROLE}', '${ADJUDICATOR_ROLE}'] LOOP
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN
      BEGIN
        EXECUTE format('CREATE ROLE %I NOLOGIN', r);
      EXCEPTION
        WHEN duplicate_object OR unique_violation THEN NULL;
        WHEN insufficient_privilege THEN
          RAISE EXCEPTION 'Persona Lab needs the group role % and may not create it: run CREATE ROLE % NOLOGIN; as an administrator, then connect again', r, r
            USING ERRCODE = 'insufficient_privilege';
      END;
    END IF;
  END LOOP;
END
$roles$;
CREATE OR REPLACE FUNCTION persona_lab_own_rows() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  col text := TG_ARGV[0];
  owner oid := (SELECT relowner FROM pg_class WHERE oid = TG_RELID);
  was text;
  now_ text;
BEGIN
  IF pg_has_role(current_user, owner, 'MEMBER') OR pg_has_role(current_user, '${ADJUDICATOR_ROLE}', 'MEMBER') THEN
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    was := to_jsonb(OLD) ->> col;
    IF was IS DISTINCT FROM current_user::text THEN
      RAISE EXCEPTION 'role % may not % a row of %''s in %', current_user,
        CASE TG_OP WHEN 'DELETE' THEN 'remove' ELSE 'change' END, was, TG_TABLE_NAME
        USING ERRCODE = '${OWN_ROWS_CODE}';
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    now_ := to_jsonb(NEW) ->> col;
    IF now_ IS DISTINCT FROM current_user::text THEN
      RAISE EXCEPTION 'role % may not write a row in the name of % in %', current_user, now_, TG_TABLE_NAME
        USING ERRCODE = '${OWN_ROWS_CODE}';
    END IF;
    RETURN NEW;
  END IF;
  RETURN OLD;
END
$fn$;
`;

/** `table`'s `column` (its author) defaults to the session's role, and only that role may write, change or remove it. */
export function ownRowsSql(table: string, column = 'author'): string {
  return `ALTER TABLE ${table} ALTER COLUMN ${column} SET DEFAULT current_user;
CREATE TRIGGER ${table}_own_rows BEFORE INSERT OR UPDATE OR DELETE ON ${table}
  FOR EACH ROW EXECUTE FUNCTION persona_lab_own_rows('${column}');`;
}

/** The server's event log names whoever sent an event: the session's role, whatever the client wrote. */
export function signedBySessionSql(table: string, column = 'author'): string {
  return `ALTER TABLE ${table} ALTER COLUMN ${column} SET DEFAULT current_user;
CREATE OR REPLACE FUNCTION persona_lab_signed_by_session() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  NEW := jsonb_populate_record(NEW, jsonb_build_object(TG_ARGV[0], current_user::text));
  RETURN NEW;
END
$fn$;
CREATE TRIGGER ${table}_signed_by_session BEFORE INSERT OR UPDATE ON ${table}
  FOR EACH ROW EXECUTE FUNCTION persona_lab_signed_by_session('${column}');`;
}

/** What the annotator group may do: read and write rows of the given tables, and draw ids from their sequences. */
export function annotatorGrantsSql(grants: { tables: Record<string, string>; sequences: string[] }): string {
  const lines = [`GRANT SELECT ON persona_lab_schema TO ${ANNOTATOR_ROLE};`];
  for (const [table, privileges] of Object.entries(grants.tables))
    lines.push(`GRANT ${privileges} ON ${table} TO ${ANNOTATOR_ROLE};`);
  if (grants.sequences.length)
    lines.push(`GRANT USAGE, SELECT ON SEQUENCE ${grants.sequences.join(', ')} TO ${ANNOTATOR_ROLE};`);
  return lines.join('\n');
}

/**
 * The gold_labels table (labels/goldRows.ts): the adjudicator group may add decisions in its own name and mark one
 * undone (once, as itself); nobody else writes, whatever they were granted, and no decision is removed. The store's
 * owner (an administrator importing a team's export) may do anything.
 */
export const GOLD_ROWS_SQL = `
ALTER TABLE gold_labels ALTER COLUMN adjudicator SET DEFAULT current_user;
CREATE OR REPLACE FUNCTION persona_lab_gold_rows() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  owner oid := (SELECT relowner FROM pg_class WHERE oid = TG_RELID);
BEGIN
  IF pg_has_role(current_user, owner, 'MEMBER') THEN
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
  END IF;
  IF NOT pg_has_role(current_user, '${ADJUDICATOR_ROLE}', 'MEMBER') THEN
    RAISE EXCEPTION 'role % may not settle gold labels: only members of ${ADJUDICATOR_ROLE} may', current_user
      USING ERRCODE = '${OWN_ROWS_CODE}';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'role % may not remove a gold decision: undo it instead', current_user
      USING ERRCODE = '${OWN_ROWS_CODE}';
  END IF;
  IF TG_OP = 'INSERT' THEN
    IF NEW.adjudicator IS DISTINCT FROM current_user::text OR NEW.undone_at IS NOT NULL THEN
      RAISE EXCEPTION 'role % may not write a gold decision in the name of %', current_user, NEW.adjudicator
        USING ERRCODE = '${OWN_ROWS_CODE}';
    END IF;
    RETURN NEW;
  END IF;
  IF OLD.undone_at IS NOT NULL OR NEW.undone_by IS DISTINCT FROM current_user::text
     OR (to_jsonb(NEW) - 'undone_by' - 'undone_at') <> (to_jsonb(OLD) - 'undone_by' - 'undone_at') THEN
    RAISE EXCEPTION 'role % may only undo a live gold decision, as itself', current_user
      USING ERRCODE = '${OWN_ROWS_CODE}';
  END IF;
  RETURN NEW;
END
$fn$;
CREATE TRIGGER gold_labels_adjudicator_only BEFORE INSERT OR UPDATE OR DELETE ON gold_labels
  FOR EACH ROW EXECUTE FUNCTION persona_lab_gold_rows();
GRANT SELECT ON persona_lab_schema TO ${ADJUDICATOR_ROLE};
GRANT SELECT, INSERT, UPDATE ON gold_labels TO ${ADJUDICATOR_ROLE};
GRANT USAGE, SELECT ON SEQUENCE gold_labels_id_seq TO ${ADJUDICATOR_ROLE};
`;
