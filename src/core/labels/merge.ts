// Merging another annotator's label file into the store without silent loss.
//
// Rows are compared per group: one author's labels on one target (a step, a tag or a span of one step of one run).
// Authors never conflict with each other (both sets of rows are kept; that is what agreement is computed on).
// - incoming rows already present with the same note: identical, kept once;
// - a group the store does not have yet: its rows are added;
// - a group the store has, where the import would add a label or change a note: a conflict, listed for the user.
// An import never removes anything on its own. Nothing is written until resolve(), which re-plans inside its
// transaction and writes everything or nothing.
import type { Diagnostic } from '../io/diagnostics';
import { describeKey, groupKey, labelKey, type LabelAction, type LabelRow } from './model';
import type { ImportedRow } from './exportImport';
import type { LabelStore } from './store';

export type ConflictDecision = 'local' | 'incoming' | 'both';
export const CONFLICT_DECISIONS: readonly ConflictDecision[] = ['local', 'incoming', 'both'];

export interface ImportConflict {
  /** Stable id of the group (author + target). */
  id: string;
  description: string;
  local: LabelRow[];
  incoming: ImportedRow[];
}

export interface ImportPlan {
  /** Rows of groups the store does not have: added by resolve(). */
  additions: ImportedRow[];
  /** Incoming rows already in the store with the same note. */
  identical: number;
  conflicts: ImportConflict[];
  /** Rows repeated inside the import file itself (the first occurrence counts). */
  diagnostics: Diagnostic[];
}

export type ResolveResult =
  | { ok: true; added: number; removed: number; notesChanged: number; inverse: LabelAction }
  | { ok: false; message: string; unresolved: ImportConflict[] };

function groupOf(r: LabelRow): string {
  return groupKey(r);
}

/** Computes what an import would do. Reads only. */
export function planImport(store: LabelStore, rows: readonly ImportedRow[], file = 'import'): ImportPlan {
  const diagnostics: Diagnostic[] = [];
  const seen = new Map<string, ImportedRow>();
  const groups = new Map<string, ImportedRow[]>();
  for (const r of rows) {
    const k = labelKey(r.row);
    const first = seen.get(k);
    if (first) {
      if (first.row.note !== r.row.note) {
        diagnostics.push({
          severity: 'error',
          file,
          line: r.line,
          field: 'note',
          message: `same label as line ${first.line} with a different note; this line is not imported`,
        });
      }
      continue;
    }
    seen.set(k, r);
    const g = groupOf(r.row);
    const list = groups.get(g);
    if (list) list.push(r);
    else groups.set(g, [r]);
  }
  const plan: ImportPlan = { additions: [], identical: 0, conflicts: [], diagnostics };
  const stepCache = new Map<string, LabelRow[]>();
  for (const [id, incoming] of groups) {
    const first = incoming[0].row;
    const stepId = JSON.stringify([first.benchmark, first.platform, first.userId, first.stepId, first.run]);
    let onStep = stepCache.get(stepId);
    if (!onStep) {
      onStep = store.listByStep(first);
      stepCache.set(stepId, onStep);
    }
    const local = onStep.filter((r) => groupOf(r) === id);
    if (local.length === 0) {
      plan.additions.push(...incoming);
      continue;
    }
    const byLabel = new Map(local.map((r) => [r.label, r]));
    let differs = false;
    for (const r of incoming) {
      const mine = byLabel.get(r.row.label);
      if (mine && mine.note === r.row.note) plan.identical++;
      else differs = true;
    }
    if (differs) plan.conflicts.push({ id, description: describeKey(first), local, incoming });
  }
  return plan;
}

function joinNotes(a: string, b: string): string {
  if (!a) return b;
  if (!b || a === b) return a;
  return `${a}\n${b}`;
}

/** The actions that carry out a plan with the given decisions. */
function actionsFor(plan: ImportPlan, decisions: ReadonlyMap<string, ConflictDecision>): LabelAction[] {
  const actions: LabelAction[] = plan.additions.map((r) => ({ kind: 'add', row: r.row }));
  for (const c of plan.conflicts) {
    const d = decisions.get(c.id);
    if (d === 'incoming') {
      for (const r of c.local) actions.push({ kind: 'remove', key: r });
      for (const r of c.incoming) actions.push({ kind: 'add', row: r.row });
    } else if (d === 'both') {
      const byLabel = new Map(c.local.map((r) => [r.label, r]));
      for (const r of c.incoming) {
        const mine = byLabel.get(r.row.label);
        if (!mine) actions.push({ kind: 'add', row: r.row });
        else if (mine.note !== r.row.note)
          actions.push({ kind: 'setNote', key: mine, note: joinNotes(mine.note, r.row.note) });
      }
    }
  }
  return actions;
}

/**
 * Writes the import in one transaction. `decisions` maps conflict ids to a choice ('local' keeps the store's rows,
 * 'incoming' replaces the group by the file's rows, 'both' adds the missing labels and joins differing notes).
 * When a conflict has no decision (including one that appeared since the plan was shown), nothing is written.
 */
export function resolveImport(
  store: LabelStore,
  rows: readonly ImportedRow[],
  decisions: ReadonlyMap<string, ConflictDecision> | ConflictDecision,
  file = 'import',
): ResolveResult {
  return store.transaction((): ResolveResult => {
    const plan = planImport(store, rows, file);
    const chosen =
      typeof decisions === 'string' ? new Map(plan.conflicts.map((c) => [c.id, decisions] as const)) : decisions;
    const unresolved = plan.conflicts.filter((c) => !chosen.has(c.id));
    if (unresolved.length > 0) {
      return {
        ok: false,
        message: `${unresolved.length} conflict(s) without a decision; nothing was imported`,
        unresolved,
      };
    }
    const result = store.applyInTx({ kind: 'batch', actions: actionsFor(plan, chosen) });
    let added = 0;
    let removed = 0;
    let notesChanged = 0;
    const count = (a: LabelAction) => {
      // The inverse of what was done: an add undoes a removal, and so on.
      if (a.kind === 'remove') added++;
      else if (a.kind === 'add') removed++;
      else if (a.kind === 'setNote') notesChanged++;
      else if (a.kind === 'batch') a.actions.forEach(count);
    };
    count(result.inverse);
    return { ok: true, added, removed, notesChanged, inverse: result.inverse };
  });
}

/** An import in two stages: look at `plan`, then `resolve()`; the store is untouched until then. */
export class ImportSession {
  readonly plan: ImportPlan;
  constructor(
    private readonly store: LabelStore,
    readonly rows: readonly ImportedRow[],
    readonly file = 'import',
  ) {
    this.plan = planImport(store, rows, file);
  }

  get conflicts(): ImportConflict[] {
    return this.plan.conflicts;
  }

  resolve(decisions: ReadonlyMap<string, ConflictDecision> | ConflictDecision = new Map()): ResolveResult {
    return resolveImport(this.store, this.rows, decisions, this.file);
  }
}
