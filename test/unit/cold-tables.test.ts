// A cold figures-only load (`score --no-cache`) keeps each tasks file's users as tables (step ids and split tables),
// not as users with step objects, meta lists and split indexes, and prints and reports what a load for every
// purpose does (issue #47 item 2).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiagnosticSink } from '../../src/core/io/diagnostics';
import type { ScoreOutput } from '../../src/core/formats/descriptor';
import { streamProfileBench } from '../../src/core/spb/format/format';
import { Interner, readTaskTables, readTasksFile } from '../../src/core/spb/format/tasks';
import { totalsIn } from '../../src/core/spb/score/coverage';
import { splitTableOf } from '../../src/core/spb/score/table';
import { LazyMap } from '../../src/core/lazyMap';
import { copySample } from '../support/indexFolder';
import { SAMPLE } from '../support/committedSample';

const OUTPUTS: ScoreOutput[] = [
  { kind: 'json' },
  { kind: 'text' },
  { kind: 'table', format: 'markdown' },
  { kind: 'table', format: 'csv' },
];

/** Scores the folder both ways without an index; every output and the problems must match. The cold bench. */
async function coldAgainstFull(root: string) {
  const full = await streamProfileBench.load(root, {});
  const cold = await streamProfileBench.load(root, { figuresOnly: true });
  for (const output of OUTPUTS) {
    expect((await cold.opened.score({ output })).text).toBe((await full.opened.score({ output })).text);
  }
  expect(cold.opened.diagnostics).toEqual(full.opened.diagnostics);
  // The users are kept as counts and totals only: no user, and so no step object, is reachable from the bench.
  expect(cold.bench.users.size).toBe(full.bench.users.size);
  for (const [platform, users] of cold.bench.users) {
    expect(users).toBeInstanceOf(LazyMap);
    expect((users as LazyMap<string, unknown>).isPending).toBe(true);
    expect(users.size).toBe(full.bench.users.get(platform)!.size);
    expect(() => users.get('anyone')).toThrow(/keeps no users' steps/);
  }
  return cold.bench;
}

describe('a cold figures-only load', () => {
  it('reads a tasks file as tables: the step ids and the split tables of the full read, no steps', async () => {
    for (const platform of ['weibo', 'zhihu'] as const) {
      const file = join(SAMPLE, 'data', `${platform}_inference_tasks.jsonl`);
      const fullSink = new DiagnosticSink('f');
      const users = await readTasksFile(file, 'f', platform, fullSink, new Interner());
      const sink = new DiagnosticSink('f');
      const tables = await readTaskTables(file, 'f', platform, sink, new Interner());
      expect(sink.items).toEqual(fullSink.items);
      expect([...tables.users.keys()]).toEqual([...users.keys()]);
      expect(tables.totals).toEqual(totalsIn(users, platform));
      for (const [id, user] of users) {
        const t = tables.users.get(id)!;
        expect(Object.keys(t).sort()).toEqual(['splits', 'stepIds', 'userId']);
        expect(t.stepIds).toBeInstanceOf(Int32Array);
        expect([...t.stepIds]).toEqual(user.steps.map((s) => s.stepId));
        expect([...t.splits]).toEqual([...splitTableOf(user)!]);
      }
    }
  });

  it('scores the sample as the full load does, keeping no users', async () => {
    await coldAgainstFull(SAMPLE);
  });

  it('scores a generated folder as the full load does', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pl-cold-tables-'));
    execFileSync(process.execPath, ['scripts/gen-sample.mjs', '--seed', '11', '--out', root], { stdio: 'ignore' });
    await coldAgainstFull(root);
  }, 60_000);

  it('reports the problems of broken rows as the full load does', async () => {
    const root = copySample();
    const edit = (rel: string, change: (rows: Record<string, unknown>[]) => void) => {
      const file = join(root, rel);
      const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      const rows = lines.map((l) => JSON.parse(l.replace(/\bNaN\b/g, 'null')) as Record<string, unknown>);
      change(rows);
      writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    };
    type Step = { step_id?: number; prediction: unknown[]; metrics?: Record<string, number> | null };
    edit('results/random/inference_results_weibo.jsonl', (rows) => {
      const steps = rows[0].steps as Step[];
      steps[0].metrics = { ...steps[0].metrics, Recall: 0.123 }; // stored metrics that disagree
      steps[0].prediction.push(5, null, '#nowhere#', steps[0].prediction[0]); // picks that never match
      steps.push({ step_id: 9999, prediction: [], metrics: null }); // no such step
      rows.push({ ...rows[1] }, { ...rows[1], user_id: 'nobody' }); // a duplicate row, an unknown user
    });
    edit('data/zhihu_inference_tasks.jsonl', (rows) => {
      // A step without positives, whose stored metrics then disagree with it.
      const tasks = rows[0].prediction_tasks as { meta: Record<string, unknown[]> }[];
      tasks[0].meta = Object.fromEntries(Object.keys(tasks[0].meta).map((k) => [k, []]));
    });
    const bench = await coldAgainstFull(root);
    const messages = bench.diagnostics.map((d) => d.message).join('\n');
    expect(messages).toMatch(/stored metrics disagree with the recomputed ones \(Recall 0.123 vs/);
    expect(messages).toMatch(/stored values, but the step has no positives/);
    expect(messages).toMatch(/has no step 9999/);
    expect(messages).toMatch(/duplicate result row/);
    expect(messages).toMatch(/unknown user nobody/);
  });
});
