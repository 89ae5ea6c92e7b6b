// The PersonaMem dashboard's model (core/personamem/dashboard.ts): its per-split tables hold the figures
// `persona-lab score --json` prints for the same folder, each table says which split and how much of it each run
// answered, a run over part of a split is marked, and the table by context length appears with two splits.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPmDashboard, pmDashboardTables, type PmDashboardModel } from '../../src/core/personamem/dashboard';
import { personaMem } from '../../src/core/personamem/format';
import { scorePersonaMemRun } from '../../src/core/personamem/score';
import { SKILL_HEADS, type PersonaMemBench } from '../../src/core/personamem/types';
import { formatTable } from '../../src/core/tables/format';
import { generatePersonaMem } from '../../scripts/gen-personamem/generate.mjs';
import { PMEM_SAMPLE } from '../support/committedSample';
import type { PmScoreJson, PmTally } from '../support/personaMemScoreJson';

const CLI = resolve(__dirname, '../../dist/cli.js');

function scoreJson(dir: string): PmScoreJson {
  const r = spawnSync(process.execPath, [CLI, 'score', dir, '--json'], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as PmScoreJson;
}

async function dashboard(dir: string): Promise<PmDashboardModel> {
  const bench = (await personaMem.load(dir)).bench as PersonaMemBench;
  return buildPmDashboard(
    bench,
    [...bench.runs.values()].map((run) => scorePersonaMemRun(bench, run)),
  );
}

const pct = (t: PmTally | undefined) => (t?.accuracy === null || t === undefined ? '—' : (100 * t.accuracy).toFixed(2));
/** A table's cells by row name and column head. */
const cells = (m: PmDashboardModel, id: string) => {
  const t = pmDashboardTables(m).find((x) => x.id === id)!;
  expect(t, id).toBeDefined();
  return new Map(t.rows.map((r) => [r.run, new Map(t.columns.map((c, i) => [c.head, r.cells[i].text]))]));
};

describe('PersonaMem dashboard model on the sample', () => {
  it('the per-type and per-topic tables hold the figures of score --json, per split', async () => {
    const json = scoreJson(PMEM_SAMPLE);
    const m = await dashboard(PMEM_SAMPLE);
    expect(m.splits.map((s) => s.split)).toEqual(['32k']);
    const types = cells(m, 'personamem-types-32k');
    const topics = cells(m, 'personamem-topics-32k');
    expect([...types.keys()]).toEqual(json.runs.map((r) => r.name));
    let checked = 0;
    for (const run of json.runs) {
      const row = types.get(run.name)!;
      expect(row.get('Overall')).toBe(pct(run));
      for (const [skill, t] of Object.entries(run.byType)) {
        expect(row.get(SKILL_HEADS[skill] ?? skill), `${run.name} ${skill}`).toBe(pct(t));
        checked++;
      }
      for (const [topic, t] of Object.entries(run.byTopic)) {
        expect(topics.get(run.name)!.get(topic), `${run.name} ${topic}`).toBe(pct(t));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('every table says its split and what each run answered of it; the partial run is marked and footnoted', async () => {
    const json = scoreJson(PMEM_SAMPLE);
    const m = await dashboard(PMEM_SAMPLE);
    const split = m.splits[0];
    expect(split.questions).toBe(json.splits[0].questions);
    for (const run of json.runs) {
      const cover = split.runs.find((r) => r.run === run.name)!;
      expect(cover.covered).toBe(run.coverage.questions.covered);
      expect(cover.total).toBe(run.coverage.questions.total);
      expect(cover.whole).toBe(run.coverage.whole);
      const { covered, total } = run.coverage.questions;
      expect(cover.text).toContain(covered === total ? `all ${total} questions` : `${covered} of ${total} questions`);
      expect(cover.text).toContain(run.coverage.whole ? 'the whole split' : 'part of the split');
      expect(cover.text).toContain('32k split');
    }
    // the sample has one whole run and one over part of the split
    expect(json.runs.map((r) => r.coverage.whole).sort()).toEqual([false, true]);
    const partial = json.runs.find((r) => !r.coverage.whole)!;
    for (const t of [split.types, split.topics]) {
      expect(t.table.title).toContain(`32k split (${json.splits[0].questions} questions)`);
      expect(t.covers).toMatch(/^Over the 32k split: /);
      for (const run of json.runs) {
        const { covered, total } = run.coverage.questions;
        const part = run.coverage.whole ? `all ${total} questions (whole)` : `${covered} of ${total} questions (part)`;
        expect(t.covers).toContain(`${run.name} ${part}`);
      }
      const md = formatTable(t.table, 'markdown');
      expect(md).toContain(`| ${partial.name.replace(/_/g, '\\_')} ‡ |`);
      expect(md).toContain('Over part of the 32k split');
    }
    // the two runs answered different questions: neither figure is ranked against the other's
    for (const t of [split.types, split.topics])
      expect(t.table.rows.flatMap((r) => r.cells.map((c) => c.rank))).not.toContain(1);
    expect(m.lengths).toBeNull();
    expect(m.lengthsNote).toContain('32k split only');
  });
});

describe('PersonaMem dashboard model over two splits', () => {
  it('per split its own runs, and by context length each model with what it answered of each split', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-pmem-dash-'));
    const models = [
      { name: 'a', skill: 0.7, answered: 1 },
      { name: 'b', skill: 0.4, answered: 0.6 },
      { name: 'c', skill: 0.2, answered: 1 },
    ];
    generatePersonaMem(dir, { seed: 3, size: '32k', personas: 3, questions: 5, models });
    generatePersonaMem(dir, { seed: 4, size: '128k', personas: 2, questions: 6, models: [models[0]] });
    const json = scoreJson(dir);
    const m = await dashboard(dir);
    expect(m.splits.map((s) => [s.split, s.runs.map((r) => r.run)])).toEqual([
      ['32k', ['32k_a', '32k_b', '32k_c']],
      ['128k', ['128k_a']],
    ]);
    expect(m.lengths!.table.title).toContain('splits 32k, 128k');
    const lengths = cells(m, 'personamem-lengths');
    for (const { model, splits } of json.byContextLength)
      for (const [size, t] of Object.entries(splits))
        expect(lengths.get(model)!.get(size), `${model} ${size}`).toBe(pct(t));
    expect(lengths.get('b')!.get('128k')).toBe('—');
    const b = json.runs.find((r) => r.name === '32k_b')!;
    expect(b.coverage.whole).toBe(false);
    const row = m.lengths!.table.rows.find((r) => r.run === 'b')!;
    expect(row.coverage).toEqual({
      whole: false,
      text: `32k ${b.coverage.questions.covered} of ${b.coverage.questions.total} questions (part)`,
    });
    // best and second best among the whole runs only (a and c); the partial run b is never marked
    const types = m.splits[0].types.table;
    const ranks = (run: string) => types.rows.find((r) => r.run === run)!.cells.map((c) => c.rank);
    expect(ranks('32k_b').every((r) => r === 0)).toBe(true);
    const overall = (run: string) => types.rows.find((r) => r.run === run)!.cells[0].value!;
    expect(ranks(overall('32k_a') > overall('32k_c') ? '32k_a' : '32k_c')[0]).toBe(1);
    expect(m.lengths!.covers).toContain('a: 32k all 15 questions (whole), 128k all 12 questions (whole)');
  });
});
