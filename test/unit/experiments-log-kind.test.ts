// The experiment log's v2 migration (a `kind` per row, the long-context Table 7 rows): a v1 file written with the
// old schema keeps every row and field and reads back as 'template', and a long-context row round-trips, NaN
// figures included.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EXPERIMENT_MIGRATIONS,
  EXPERIMENTS_SCHEMA_VERSION,
  ExperimentLog,
  type ExperimentInput,
} from '../../src/core/spb/experiments/log';
import { experimentsJson, experimentsTable } from '../../src/core/spb/experiments/text';
import { LONG_CONTEXT_READING, longContextTableOf } from '../../src/core/spb/experiments/longContext';
import { migrateSchema } from '../../src/core/storage/sqlite';
import type { PairedSummaryRow } from '../../src/core/spb/score/pairedSummary';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'pl-explog-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const summaryRow = (metric: PairedSummaryRow['metric'], meanA: number, meanB: number): PairedSummaryRow => ({
  metric,
  meanA,
  meanB,
  diff: meanB - meanA,
  ciLow: meanB - meanA - 0.05,
  ciHigh: meanB - meanA + 0.05,
  userWtl: { win: 2, tie: 1, loss: 0 },
  stepWtl: { win: 2, tie: 1, loss: 0 },
  users: 3,
});

describe('experiment log migrations', () => {
  it('keeps every field of a v1 row and reads it back as a template experiment', () => {
    const path = join(tmp(), 'experiments.db');
    const raw = new Database(path);
    migrateSchema(raw, EXPERIMENT_MIGRATIONS, 'experiment log', 1);
    expect(raw.pragma('user_version', { simple: true })).toBe(1);
    const figures = {
      baseRun: 'base',
      run: 'exp-s-abc',
      pairedSteps: 4,
      pairedUsers: 2,
      usersByPlatform: { weibo: 2 },
      onlyBase: 0,
      onlyRun: 1,
      summary: [summaryRow('Recall', 0.5, 0.75)],
      flips: { gained: 1, lost: 0, newWrong: 0, droppedWrong: 0, top: [] },
    };
    raw
      .prepare(
        `INSERT INTO experiments (created_at, author, run, base_run, sample, sample_seed, sample_users, template_id,
           template_hash, template_text, system_message, model, base_url, temperature, max_tokens, persona_mode,
           paired_steps, paired_users, figures, flips, requests, prompt_tokens, completion_tokens, latency_ms)
         VALUES ('2025-01-02T03:04:05.000Z', 'alice', 'exp-s-abc', 'base', 's', 7, 2, 'abc', 'h', 'T {{posts}}',
           'sys', 'm', 'http://127.0.0.1:1/v1', 0.5, 64, 'full', 4, 2, ?, ?, 5, 100, 20, 1234.5)`,
      )
      .run(JSON.stringify(figures), JSON.stringify(figures.flips));
    raw.close();

    // Reading (mustExist) migrates a copy in memory and never writes the file; opening to write migrates it.
    const log = ExperimentLog.open(path, { mustExist: true });
    const rows = log.list();
    log.close();
    const version = () => {
      const check = new Database(path, { readonly: true });
      const v: unknown = check.pragma('user_version', { simple: true });
      check.close();
      return v;
    };
    expect(version()).toBe(1);
    ExperimentLog.open(path).close();
    expect(version()).toBe(EXPERIMENTS_SCHEMA_VERSION);
    expect(EXPERIMENTS_SCHEMA_VERSION).toBe(3);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toEqual({
      id: 1,
      kind: 'template',
      createdAt: '2025-01-02T03:04:05.000Z',
      author: 'alice',
      run: 'exp-s-abc',
      baseRun: 'base',
      sample: { name: 's', seed: 7, users: 2 },
      // logged before names were kept: '' and shown by its id
      template: { id: 'abc', hash: 'h', text: 'T {{posts}}', name: '' },
      systemMessage: 'sys',
      endpoint: { baseURL: 'http://127.0.0.1:1/v1', model: 'm', temperature: 0.5, maxTokens: 64 },
      personaMode: 'full',
      figures,
      scopes: null,
      cost: { requests: 5, steps: 4, promptTokens: 100, completionTokens: 20, latencyMs: 1234.5, unknownUsage: 0 },
    });
    expect(experimentsTable(rows).split('\n')[1]).toMatch(/^\S+ \S+\s+template\s+alice\s+abc\s/);
  });

  it('round-trips a long-context row: its kind, its Table 7 rows per platform (NaN kept), and its cost', () => {
    const path = join(tmp(), 'experiments.db');
    const weibo = [summaryRow('Recall', 0.4, 0.6), { ...summaryRow('Error_Viral', NaN, 0.1), diff: NaN }];
    const avg = [summaryRow('Recall', 0.45, 0.55), summaryRow('Error_Viral', 0.2, 0.1)];
    const entry: ExperimentInput = {
      kind: 'long-context',
      createdAt: '2025-02-03T04:05:06.000Z',
      author: 'bob',
      run: 'longctx-s-abc',
      baseRun: 'stream',
      sample: { name: 's', seed: 1, users: 3 },
      template: { id: 'abc', hash: 'h', text: 'T', name: 'shorter-persona' },
      systemMessage: 'sys',
      endpoint: { baseURL: 'http://user:pw@127.0.0.1:1/v1', model: 'm', temperature: 0, maxTokens: null },
      personaMode: 'none',
      figures: {
        baseRun: 'stream',
        run: 'longctx-s-abc',
        pairedSteps: 3,
        pairedUsers: 3,
        usersByPlatform: { weibo: 2, zhihu: 1 },
        onlyBase: 0,
        onlyRun: 0,
        summary: avg,
        flips: { gained: 2, lost: 1, newWrong: 0, droppedWrong: 1, top: [] },
      },
      scopes: [
        { scope: 'weibo', rows: weibo },
        { scope: 'all', rows: avg },
      ],
      cost: { requests: 3, steps: 3, promptTokens: 900, completionTokens: 30, latencyMs: 12, unknownUsage: 0 },
    };
    const log = ExperimentLog.open(path);
    log.record(entry);
    // a resumed run records again: the row is replaced, not added
    log.record({
      ...entry,
      cost: { ...entry.cost, requests: 4 },
      endpoint: { ...entry.endpoint, model: 'm2', temperature: 0.5 },
    });
    const rows = log.list();
    log.close();
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row.kind).toBe('long-context');
    expect(row.endpoint.baseURL).toBe('http://127.0.0.1:1/v1');
    expect(row.scopes).toEqual(entry.scopes);
    expect(Number.isNaN(row.scopes![0].rows[1].meanA)).toBe(true);
    expect(row.cost.requests).toBe(4);
    // the whole row is the last record's: a run resumed with another model says so
    expect(row.endpoint.model).toBe('m2');
    expect(row.endpoint.temperature).toBe(0.5);
    expect(longContextTableOf(row.figures, row.scopes)).toEqual({
      baseRun: 'stream',
      run: 'longctx-s-abc',
      pairedSteps: 3,
      usersByPlatform: { weibo: 2, zhihu: 1 },
      onlyBase: 0,
      onlyRun: 0,
      scopes: entry.scopes,
    });
    const text = experimentsTable(rows);
    expect(text.split('\n')[1]).toMatch(/^\S+ \S+\s+long-context\s+bob\s+shorter-persona\s/);
    expect(text).toContain(`long-context rows: ${LONG_CONTEXT_READING}.`);
    const json = experimentsJson(rows) as { kind: string; scopes: { rows: { meanA: number | null }[] }[] }[];
    expect(json[0].kind).toBe('long-context');
    expect(json[0].scopes[0].rows[1].meanA).toBeNull();
  });
});
