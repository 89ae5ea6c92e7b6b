// Gold rows: an adjudicator's decision of the labels one unit (a step or a test action, as labelledUnits defines it)
// settles on. They live in their own table (gold_labels), never in labels, so that no author list, count or κ among
// annotators can take a decision for an annotator's label. The table is a trail: a new decision of a unit supersedes
// the older one (the latest counts, gold.ts) and an undo marks the latest live decision undone, so an earlier one
// counts again; no decision is deleted. The columns and statements are shared by the SQLite file (goldStore.ts) and
// the label server (server/goldStore.ts), as sqlRows.ts does for labels.
import type { Adjudication } from './gold';
import { textProblem } from './storableText';
import { noteProblem, type StepRef } from './model';

/** How a unit's gold labels were settled. Unanimous units are derived (gold.ts), never stored. */
export type GoldHow = 'adjudicated';
export const GOLD_HOW: readonly GoldHow[] = ['adjudicated'];

export interface GoldRow {
  /** Names the decision across stores (export, import, server); random. */
  uid: string;
  ref: StepRef;
  /** The settled labels, sorted and distinct; empty: no failure label applies. */
  labels: string[];
  how: GoldHow;
  adjudicator: string;
  note: string;
  /** ISO 8601. */
  createdAt: string;
  /** Set when the decision was undone: by whom and when (ISO 8601). */
  undone?: { by: string; at: string };
}

export interface GoldFilter {
  benchmark?: string;
}

export interface DbGold {
  uid: string;
  benchmark: string;
  platform: string;
  user_id: string;
  step_id: number | string;
  run: string;
  labels: string;
  how: string;
  adjudicator: string;
  note: string;
  created_at: string;
  undone_by: string | null;
  undone_at: string | null;
}

export const GOLD_COLUMNS =
  'uid, benchmark, platform, user_id, step_id, run, labels, how, adjudicator, note, created_at, undone_by, undone_at';

export const GOLD_INSERT_SQL = `INSERT INTO gold_labels (${GOLD_COLUMNS}) VALUES (${GOLD_COLUMNS.split(',')
  .map(() => '?')
  .join(', ')}) ON CONFLICT DO NOTHING`;

const UNIT_WHERE = 'benchmark = ? AND platform = ? AND user_id = ? AND step_id = ? AND run = ?';
/** The latest live decision of a unit (the one an undo marks). */
export const GOLD_LATEST_SQL = `SELECT * FROM gold_labels WHERE ${UNIT_WHERE} AND undone_at IS NULL ORDER BY created_at DESC, id DESC LIMIT 1`;
export const GOLD_UNDO_SQL = 'UPDATE gold_labels SET undone_by = ?, undone_at = ? WHERE uid = ? AND undone_at IS NULL';
export const GOLD_BY_UID_SQL = 'SELECT * FROM gold_labels WHERE uid = ?';

export const unitParams = (r: StepRef): (string | number)[] => [r.benchmark, r.platform, r.userId, r.stepId, r.run];

export function goldParams(g: GoldRow): (string | number | null)[] {
  return [
    g.uid,
    ...unitParams(g.ref),
    JSON.stringify(g.labels),
    g.how,
    g.adjudicator,
    g.note,
    g.createdAt,
    g.undone?.by ?? null,
    g.undone?.at ?? null,
  ];
}

export function toGoldRow(r: DbGold): GoldRow {
  const labels: unknown = JSON.parse(r.labels);
  return {
    uid: r.uid,
    ref: { benchmark: r.benchmark, platform: r.platform, userId: r.user_id, stepId: Number(r.step_id), run: r.run },
    labels: Array.isArray(labels) ? labels.filter((l): l is string => typeof l === 'string') : [],
    how: 'adjudicated',
    adjudicator: r.adjudicator,
    note: r.note,
    createdAt: r.created_at,
    ...(r.undone_at !== null ? { undone: { by: r.undone_by ?? '', at: r.undone_at } } : {}),
  };
}

/** The WHERE of a gold filter; `live` keeps the decisions not undone. */
export function goldWhere(filter: GoldFilter, live: boolean): { sql: string; params: string[] } {
  const parts: string[] = [];
  const params: string[] = [];
  if (filter.benchmark !== undefined) {
    parts.push('benchmark = ?');
    params.push(filter.benchmark);
  }
  if (live) parts.push('undone_at IS NULL');
  return { sql: parts.length ? ` WHERE ${parts.join(' AND ')}` : '', params };
}

/** Why `g` cannot be stored, worded for a person (field first); null when it can. */
export function goldProblem(g: GoldRow): string | null {
  for (const [field, v] of [
    ['uid', g.uid],
    ['benchmark', g.ref.benchmark],
    ['platform', g.ref.platform],
    ['userId', g.ref.userId],
    ['run', g.ref.run],
    ['adjudicator', g.adjudicator],
    ['createdAt', g.createdAt],
  ] as const) {
    if (typeof v !== 'string') return `${field} must be a string`;
    const p = textProblem(v);
    if (p) return `${field} ${p}`;
  }
  if (!g.uid) return 'uid is empty';
  if (!g.ref.userId) return 'userId is empty';
  if (!g.adjudicator) return 'adjudicator is empty';
  if (!Number.isSafeInteger(g.ref.stepId) || g.ref.stepId < 0) return 'stepId must be a non-negative integer';
  if (!GOLD_HOW.includes(g.how)) return `how must be one of ${GOLD_HOW.join(', ')}`;
  if (!Array.isArray(g.labels)) return 'labels must be a list of label keys';
  for (const l of g.labels) {
    if (typeof l !== 'string' || l === '') return 'each label must be a non-empty string';
    const p = textProblem(l);
    if (p) return `a label ${p}`;
  }
  if (typeof g.note !== 'string') return 'a note must be a string';
  return noteProblem(g.note);
}

/** The labels as a decision keeps them: distinct and sorted. */
export const settledLabels = (labels: readonly string[]): string[] => [...new Set(labels)].sort();

/** The live decisions as gold.ts reads them (the latest of a unit counts). */
export function adjudicationsOf(rows: readonly GoldRow[]): Adjudication[] {
  return rows
    .filter((g) => !g.undone)
    .map((g) => ({
      ref: { ...g.ref },
      labels: g.labels,
      adjudicator: g.adjudicator,
      createdAt: g.createdAt,
      ...(g.note ? { note: g.note } : {}),
    }));
}
