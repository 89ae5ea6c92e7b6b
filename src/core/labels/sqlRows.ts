// The labels table's columns and key as SQL, shared by the embedded SQLite store (store.ts) and the PostgreSQL one
// (server/store.ts): one statement text with `?` placeholders, numbered for PostgreSQL by pgSql() (storage/postgres.ts).
import type { LabelKey, LabelRow, LabelTarget } from './model';

export interface DbRow {
  benchmark: string;
  platform: string;
  user_id: string;
  step_id: number;
  run: string;
  label: string;
  target_kind: string;
  tag: string;
  span_field: string;
  span_start: number;
  span_end: number;
  note: string;
  author: string;
  created_at: string;
  content_hash: string;
  history_index: number;
}

/** target_kind, tag, span_field, span_start, span_end, history_index: unused columns hold '' or -1. */
export function targetColumns(t: LabelTarget): [string, string, string, number, number, number] {
  switch (t.kind) {
    case 'tag':
      return ['tag', t.tag, '', -1, -1, -1];
    case 'span':
      return ['span', '', t.field, t.start, t.end, -1];
    case 'history':
      return ['history', '', '', -1, -1, t.historyIndex];
    default:
      return [t.kind, '', '', -1, -1, -1];
  }
}

export function keyParams(k: LabelKey): (string | number)[] {
  return [k.benchmark, k.platform, k.userId, k.stepId, k.run, k.author, ...targetColumns(k.target), k.label];
}

export function toRow(r: DbRow): LabelRow {
  const target: LabelTarget =
    r.target_kind === 'tag'
      ? { kind: 'tag', tag: r.tag }
      : r.target_kind === 'span'
        ? { kind: 'span', field: r.span_field, start: r.span_start, end: r.span_end }
        : r.target_kind === 'history'
          ? { kind: 'history', historyIndex: r.history_index }
          : r.target_kind === 'action'
            ? { kind: 'action' }
            : { kind: 'step' };
  return {
    benchmark: r.benchmark,
    platform: r.platform,
    userId: r.user_id,
    stepId: r.step_id,
    run: r.run,
    author: r.author,
    target,
    label: r.label,
    note: r.note,
    createdAt: r.created_at,
    contentHash: r.content_hash,
  };
}

export const KEY_WHERE =
  'benchmark = ? AND platform = ? AND user_id = ? AND step_id = ? AND run = ? AND author = ? AND target_kind = ? AND ' +
  'tag = ? AND span_field = ? AND span_start = ? AND span_end = ? AND history_index = ? AND label = ?';
export const COLUMNS =
  'benchmark, platform, user_id, step_id, run, author, target_kind, tag, span_field, span_start, span_end, history_index, label, ' +
  'note, created_at, content_hash';
