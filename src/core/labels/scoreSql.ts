// The judge_scores table's statements (core/labels/scores.ts), prepared once per open store.
import type Database from 'better-sqlite3';
import { whereEquals } from '../storage/sqlite';
import type { ScoreKey, ScoreRow } from './scores';

export interface DbScore {
  benchmark: string;
  user_id: string;
  action_index: number;
  run: string;
  author: string;
  dimension: string;
  score: number;
  created_at: string;
  content_hash: string;
}

export interface ScoreFilter {
  benchmark?: string;
  run?: string;
  userId?: string;
  index?: number;
  author?: string;
}

export const SCORE_KEY_WHERE =
  'benchmark = ? AND user_id = ? AND action_index = ? AND run = ? AND author = ? AND dimension = ?';
export const scoreKeyParams = (k: ScoreKey) => [k.benchmark, k.userId, k.index, k.run, k.author, k.dimension];

export const scoreToRow = (r: DbScore): ScoreRow => ({
  benchmark: r.benchmark,
  userId: r.user_id,
  index: r.action_index,
  run: r.run,
  author: r.author,
  dimension: r.dimension as ScoreKey['dimension'],
  score: r.score,
  createdAt: r.created_at,
  contentHash: r.content_hash,
});

export const SCORE_UPSERT_SQL =
  'INSERT INTO judge_scores (benchmark, user_id, action_index, run, author, dimension, score, created_at, content_hash) ' +
  'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (benchmark, user_id, action_index, run, author, dimension) ' +
  'DO UPDATE SET score = excluded.score, created_at = excluded.created_at, content_hash = excluded.content_hash';

export function prepareScores(db: Database.Database) {
  const get = db.prepare<unknown[], DbScore>(`SELECT * FROM judge_scores WHERE ${SCORE_KEY_WHERE}`);
  const upsert = db.prepare(SCORE_UPSERT_SQL);
  const remove = db.prepare(`DELETE FROM judge_scores WHERE ${SCORE_KEY_WHERE}`);
  return {
    get(k: ScoreKey): ScoreRow | undefined {
      const r = get.get(...scoreKeyParams(k));
      return r ? scoreToRow(r) : undefined;
    },
    /** Sets (or with null removes) the score at `key`; returns the row that was there before. */
    set(key: ScoreKey, row: ScoreRow | null): { before: ScoreRow | undefined; changed: boolean } {
      const before = this.get(key);
      if (row === null) {
        if (before) remove.run(...scoreKeyParams(key));
        return { before, changed: before !== undefined };
      }
      const same =
        before?.score === row.score && before.contentHash === row.contentHash && before.createdAt === row.createdAt;
      if (!same) upsert.run(...scoreKeyParams(key), row.score, row.createdAt, row.contentHash);
      return { before, changed: !same };
    },
    list(filter: ScoreFilter): ScoreRow[] {
      const { sql: where, params } = scoreWhere(filter);
      return db
        .prepare<unknown[], DbScore>(`SELECT * FROM judge_scores${where} ORDER BY id`)
        .all(...params)
        .map(scoreToRow);
    },
  };
}

/** The WHERE clause of a score filter (both stores). */
export function scoreWhere(filter: ScoreFilter): { sql: string; params: (string | number)[] } {
  return whereEquals<string | number>([
    ['benchmark', filter.benchmark],
    ['run', filter.run],
    ['user_id', filter.userId],
    ['action_index', filter.index],
    ['author', filter.author],
  ]);
}
