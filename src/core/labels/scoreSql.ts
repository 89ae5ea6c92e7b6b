// The judge_scores table's statements (core/labels/scores.ts), prepared once per open store.
import type Database from 'better-sqlite3';
import { whereEquals } from '../storage/sqlite';
import type { JudgeDimension } from '../omni/types';
import type { ScoreKey, ScoreRow } from './scores';

interface DbScore {
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

const KEY_WHERE = 'benchmark = ? AND user_id = ? AND action_index = ? AND run = ? AND author = ? AND dimension = ?';
const keyParams = (k: ScoreKey) => [k.benchmark, k.userId, k.index, k.run, k.author, k.dimension];

const toRow = (r: DbScore): ScoreRow => ({
  benchmark: r.benchmark,
  userId: r.user_id,
  index: r.action_index,
  run: r.run,
  author: r.author,
  dimension: r.dimension as JudgeDimension,
  score: r.score,
  createdAt: r.created_at,
  contentHash: r.content_hash,
});

export function prepareScores(db: Database.Database) {
  const get = db.prepare<unknown[], DbScore>(`SELECT * FROM judge_scores WHERE ${KEY_WHERE}`);
  const upsert = db.prepare(
    'INSERT INTO judge_scores (benchmark, user_id, action_index, run, author, dimension, score, created_at, content_hash) ' +
      'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (benchmark, user_id, action_index, run, author, dimension) ' +
      'DO UPDATE SET score = excluded.score, created_at = excluded.created_at, content_hash = excluded.content_hash',
  );
  const remove = db.prepare(`DELETE FROM judge_scores WHERE ${KEY_WHERE}`);
  return {
    get(k: ScoreKey): ScoreRow | undefined {
      const r = get.get(...keyParams(k));
      return r ? toRow(r) : undefined;
    },
    /** Sets (or with null removes) the score at `key`; returns the row that was there before. */
    set(key: ScoreKey, row: ScoreRow | null): { before: ScoreRow | undefined; changed: boolean } {
      const before = this.get(key);
      if (row === null) {
        if (before) remove.run(...keyParams(key));
        return { before, changed: before !== undefined };
      }
      const same =
        before?.score === row.score && before.contentHash === row.contentHash && before.createdAt === row.createdAt;
      if (!same) upsert.run(...keyParams(key), row.score, row.createdAt, row.contentHash);
      return { before, changed: !same };
    },
    list(filter: ScoreFilter): ScoreRow[] {
      const { sql: where, params } = whereEquals<string | number>([
        ['benchmark', filter.benchmark],
        ['run', filter.run],
        ['user_id', filter.userId],
        ['action_index', filter.index],
        ['author', filter.author],
      ]);
      return db
        .prepare<unknown[], DbScore>(`SELECT * FROM judge_scores${where} ORDER BY id`)
        .all(...params)
        .map(toRow);
    },
  };
}
