// Labelling projects on a label server: the items (steps or test actions, by unit key) of a benchmark's runs, each
// assigned to `overlap` annotators. A claim takes the first item in order that still needs someone and that this
// annotator has not had, row-locked with SKIP LOCKED so that twenty people claiming at once never share a slot; an
// annotator's unsubmitted claim is handed back first, so a window that closes mid-item loses nothing.
import type { Pool } from 'pg';
import { inTransaction, serverError } from '../../storage/postgres';
import { LabelStoreError } from '../store';
import { parseItem, type ItemKind } from './projectItems';
import type { ServerLabelStore } from './store';

export interface ProjectDef {
  name: string;
  benchmark: string;
  runs: string[];
  /** The label keys the project asks for (empty: the whole label set). */
  labels: string[];
  /** How many annotators do each item. */
  overlap: number;
  createdBy: string;
  /** The items' unit keys, in the order they are handed out. */
  items: string[];
}

export interface Project extends Omit<ProjectDef, 'items'> {
  id: number;
  itemCount: number;
  /** What its items are (read from its first one); undefined when Persona Lab cannot read it. */
  itemKind: ItemKind | undefined;
}

export interface AnnotatorProgress {
  annotator: string;
  assigned: number;
  submitted: number;
}

export interface ProjectProgress {
  items: number;
  /** Items that `overlap` annotators submitted. */
  done: number;
  /** Item slots submitted, of items × overlap. */
  submitted: number;
  annotators: AnnotatorProgress[];
}

const MAX_NAME = 100;

/** Why `def` cannot be a project; undefined when it can. */
export function projectProblem(def: ProjectDef): string | undefined {
  if (!def.name.trim() || def.name.length > MAX_NAME) return `a project name has 1 to ${MAX_NAME} characters`;
  if (!Number.isInteger(def.overlap) || def.overlap < 1)
    return 'overlap must be a whole number of annotators, 1 or more';
  if (def.items.length === 0) return 'the project has no items (the filter matched no step)';
  if (new Set(def.items).size !== def.items.length) return 'an item is listed twice';
  return undefined;
}

interface DbProject {
  id: number;
  name: string;
  benchmark: string;
  runs: string[];
  labels: string[];
  overlap: number;
  created_by: string;
  item_count: string;
  first_item: string | null;
}

const PROJECT_COLUMNS =
  'p.id, p.name, p.benchmark, p.runs, p.labels, p.overlap, p.created_by, ' +
  '(SELECT COUNT(*) FROM project_items i WHERE i.project_id = p.id) AS item_count, ' +
  '(SELECT i.item FROM project_items i WHERE i.project_id = p.id ORDER BY i.ord LIMIT 1) AS first_item';

const toProject = (r: DbProject): Project => ({
  id: r.id,
  name: r.name,
  benchmark: r.benchmark,
  runs: r.runs,
  labels: r.labels,
  overlap: r.overlap,
  createdBy: r.created_by,
  itemCount: Number(r.item_count),
  itemKind: r.first_item === null ? undefined : parseItem(r.first_item)?.kind,
});

export class LabelQueues {
  private readonly pool: Pool;

  constructor(private readonly server: ServerLabelStore) {
    this.pool = server.connections;
  }

  /** Creates the project with its items in one transaction; refuses a name already taken. */
  async create(def: ProjectDef): Promise<Project> {
    const problem = projectProblem(def);
    if (problem) throw new LabelStoreError(`project ${JSON.stringify(def.name)}: ${problem}`);
    await this.run(async () =>
      inTransaction(this.pool, async (c) => {
        const made = await c.query<{ id: number }>(
          'INSERT INTO projects (name, benchmark, runs, labels, overlap, created_by) VALUES ($1, $2, $3, $4, $5, $6) ' +
            'ON CONFLICT (name) DO NOTHING RETURNING id',
          [def.name, def.benchmark, JSON.stringify(def.runs), JSON.stringify(def.labels), def.overlap, def.createdBy],
        );
        const id = made.rows[0]?.id;
        if (id === undefined) throw new LabelStoreError(`a project named ${JSON.stringify(def.name)} exists already`);
        // One statement per thousand items: unnest keeps the parameter count at three.
        for (let at = 0; at < def.items.length; at += 1000) {
          const slice = def.items.slice(at, at + 1000);
          await c.query(
            'INSERT INTO project_items (project_id, item, ord) SELECT $1, item, $2 + ord - 1 ' +
              'FROM unnest($3::text[]) WITH ORDINALITY AS t (item, ord)',
            [id, at, slice],
          );
        }
      }),
    );
    const made = await this.get(def.name);
    if (!made) throw new LabelStoreError(`project ${JSON.stringify(def.name)} was not found after it was made`);
    return made;
  }

  async list(): Promise<Project[]> {
    const rows = await this.run(() =>
      this.pool.query<DbProject>(`SELECT ${PROJECT_COLUMNS} FROM projects p ORDER BY p.name`),
    );
    return rows.rows.map(toProject);
  }

  async get(name: string): Promise<Project | undefined> {
    const rows = await this.run(() =>
      this.pool.query<DbProject>(`SELECT ${PROJECT_COLUMNS} FROM projects p WHERE p.name = $1`, [name]),
    );
    return rows.rows[0] ? toProject(rows.rows[0]) : undefined;
  }

  /** The project's items (unit keys: projectItems.ts), in their order. */
  async items(project: Project): Promise<string[]> {
    const rows = await this.run(() =>
      this.pool.query<{ item: string }>('SELECT item FROM project_items WHERE project_id = $1 ORDER BY ord', [
        project.id,
      ]),
    );
    return rows.rows.map((r) => r.item);
  }

  /**
   * The item `annotator` should do next: their own claim not yet submitted, else a new claim on the first item that
   * still needs an annotator and that they have not had. undefined: nothing left for them.
   */
  async next(project: Project, annotator: string): Promise<string | undefined> {
    return this.run(() =>
      inTransaction(this.pool, async (c) => {
        const held = await c.query<{ item: string }>(
          'SELECT a.item FROM assignments a JOIN project_items i USING (project_id, item) ' +
            'WHERE a.project_id = $1 AND a.annotator = $2 AND a.submitted_at IS NULL ORDER BY i.ord LIMIT 1',
          [project.id, annotator],
        );
        if (held.rows[0]) return held.rows[0].item;
        const free = await c.query<{ item: string }>(
          'SELECT i.item FROM project_items i WHERE i.project_id = $1 AND i.open AND NOT EXISTS ' +
            '(SELECT 1 FROM assignments a WHERE a.project_id = i.project_id AND a.item = i.item AND a.annotator = $2) ' +
            'ORDER BY i.ord LIMIT 1 FOR UPDATE SKIP LOCKED',
          [project.id, annotator],
        );
        const item = free.rows[0]?.item;
        if (item === undefined) return undefined;
        await c.query('INSERT INTO assignments (project_id, item, annotator) VALUES ($1, $2, $3)', [
          project.id,
          item,
          annotator,
        ]);
        await c.query(
          'UPDATE project_items SET assigned = assigned + 1, open = assigned + 1 < $3 WHERE project_id = $1 AND item = $2',
          [project.id, item, project.overlap],
        );
        return item;
      }),
    );
  }

  /** Marks `annotator`'s claim on `item` done; false when they had no open claim on it (sent twice, or not theirs). */
  async submit(project: Project, item: string, annotator: string): Promise<boolean> {
    return this.run(() =>
      inTransaction(this.pool, async (c) => {
        const done = await c.query(
          'UPDATE assignments SET submitted_at = now() ' +
            'WHERE project_id = $1 AND item = $2 AND annotator = $3 AND submitted_at IS NULL',
          [project.id, item, annotator],
        );
        if ((done.rowCount ?? 0) === 0) return false;
        await c.query('UPDATE project_items SET submitted = submitted + 1 WHERE project_id = $1 AND item = $2', [
          project.id,
          item,
        ]);
        return true;
      }),
    );
  }

  /** The items `annotator` claimed (submitted or not), in order. */
  async claimed(project: Project, annotator: string): Promise<{ item: string; submitted: boolean }[]> {
    const rows = await this.run(() =>
      this.pool.query<{ item: string; submitted: boolean }>(
        'SELECT a.item, a.submitted_at IS NOT NULL AS submitted FROM assignments a ' +
          'JOIN project_items i USING (project_id, item) WHERE a.project_id = $1 AND a.annotator = $2 ORDER BY i.ord',
        [project.id, annotator],
      ),
    );
    return rows.rows;
  }

  async progress(project: Project): Promise<ProjectProgress> {
    return this.run(async () => {
      const totals = await this.pool.query<{ items: string; done: string; submitted: string }>(
        'SELECT COUNT(*) AS items, COUNT(*) FILTER (WHERE submitted >= $2) AS done, COALESCE(SUM(submitted), 0) AS submitted ' +
          'FROM project_items WHERE project_id = $1',
        [project.id, project.overlap],
      );
      const people = await this.pool.query<{ annotator: string; assigned: string; submitted: string }>(
        'SELECT annotator, COUNT(*) AS assigned, COUNT(submitted_at) AS submitted FROM assignments ' +
          'WHERE project_id = $1 GROUP BY annotator ORDER BY annotator',
        [project.id],
      );
      const t = totals.rows[0];
      return {
        items: Number(t?.items ?? 0),
        done: Number(t?.done ?? 0),
        submitted: Number(t?.submitted ?? 0),
        annotators: people.rows.map((r) => ({
          annotator: r.annotator,
          assigned: Number(r.assigned),
          submitted: Number(r.submitted),
        })),
      };
    });
  }

  private async run<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof LabelStoreError) throw err;
      throw serverError(err, this.server.url);
    }
  }
}
