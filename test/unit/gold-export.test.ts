// Gold decisions in a label export (`"kind":"gold"` lines, goldFile.ts): the round trip through `labels export` and
// `labels import` keeps the gold set and its trail, an old export without them imports as before, a bad gold line is
// a located problem; and test/reference/labels_gold.py computes the same counts and per-annotator figures from an
// export as `labels gold --json`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseLabelFile } from '../../src/core/labels/exportImport';
import { GoldStore } from '../../src/core/labels/goldStore';
import type { StepRef } from '../../src/core/labels/model';
import { mulberry32 } from '../../src/core/stats/random';
import { labelRow, labelsCli, labelStores } from './labelStore-fixture';

const stores = labelStores();
const golds: GoldStore[] = [];
afterEach(() => golds.splice(0).forEach((g) => g.close()));
const gold = (path: string, opts: Parameters<typeof GoldStore.open>[1] = {}) => {
  const g = GoldStore.open(path, opts);
  golds.push(g);
  return g;
};
const dir = () => mkdtempSync(join(tmpdir(), 'pl-gold-io-'));
const ref = (stepId: number, benchmark = 'spb', run = 'gpt'): StepRef => ({
  benchmark,
  platform: 'weibo',
  userId: 'we_0000000001',
  stepId,
  run,
});

function fixture(path: string) {
  const labels = stores.open(path);
  labels.add(labelRow({ author: 'ann', stepId: 1, label: 'A' }));
  labels.add(labelRow({ author: 'bob', stepId: 1, label: 'B' }));
  labels.add(labelRow({ author: 'ann', stepId: 2, label: 'A' }));
  labels.add(labelRow({ author: 'bob', stepId: 2, label: 'B' }));
  const g = gold(path);
  g.decide({ ref: ref(1), labels: ['A'], adjudicator: 'carol', note: 'ann is right' });
  g.decide({ ref: ref(2), labels: ['B'], adjudicator: 'carol' });
  g.undo(ref(2), 'carol');
  return labels;
}

describe('gold rows through export and import', () => {
  it('exports the whole trail as gold lines, and an import rebuilds the same gold set', async () => {
    const d = dir();
    fixture(join(d, 'a.db'));
    const file = join(d, 'out.jsonl');
    const exported = await labelsCli(['export', join(d, 'a.db')], { out: file });
    expect(exported.out).toContain('wrote 4 label(s) and 2 gold decision(s)');
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => l.kind === 'gold').map((l) => [l.step_id, l.labels, l.undone_by ?? null])).toEqual([
      [1, ['A'], null],
      [2, ['B'], 'carol'],
    ]);
    const imported = await labelsCli(['import', join(d, 'b.db'), file]);
    expect(imported.code).toBe(0);
    expect(imported.out).toContain('gold: 2 decision(s) added, 0 undone, 0 already present');
    expect(gold(join(d, 'b.db')).list({}, true)).toEqual(gold(join(d, 'a.db')).list({}, true));
    const a = JSON.parse((await labelsCli(['gold', join(d, 'a.db')], { json: true })).out) as unknown;
    const b = JSON.parse((await labelsCli(['gold', join(d, 'b.db')], { json: true })).out) as unknown;
    expect(b).toEqual(a);
    // Twice is once; the decisions never became anyone's labels.
    expect((await labelsCli(['import', join(d, 'b.db'), file])).out).toContain('0 decision(s) added, 0 undone, 2');
    expect(stores.open(join(d, 'b.db')).authors()).toEqual(['ann', 'bob']);
  });

  it('imports an old export without gold lines as before, and a dry run writes no decision', async () => {
    const d = dir();
    const old = join(d, 'old.jsonl');
    writeFileSync(
      old,
      JSON.stringify({ platform: 'weibo', user_id: 'we_0000000001', step_id: 1, author: 'ann', label: 'A' }) + '\n',
    );
    const r = await labelsCli(['import', join(d, 'x.db'), old]);
    expect(r.code).toBe(0);
    expect(r.out).not.toMatch(/^gold:/m);
    expect(gold(join(d, 'x.db')).list({}, true)).toEqual([]);
    fixture(join(d, 'a.db'));
    const file = join(d, 'out.jsonl');
    await labelsCli(['export', join(d, 'a.db')], { out: file });
    const dry = await labelsCli(['import', join(d, 'y.db'), file], { 'dry-run': true });
    expect(dry.out).toContain('dry run: 2 gold decision(s) not written');
  });

  it('says where a gold line is wrong and still imports the others', () => {
    const good = { kind: 'gold', platform: 'weibo', user_id: 'u', step_id: 1, labels: ['A'], adjudicator: 'c' };
    const text = [
      JSON.stringify({ ...good, uid: 'g1', created_at: '2026-12-06T00:00:00Z' }),
      JSON.stringify({ ...good, uid: 'g2', created_at: '2026-12-06T00:00:00Z', labels: 'A' }),
      JSON.stringify({ ...good, uid: 'g3' }),
    ].join('\n');
    const parsed = parseLabelFile(text, 'f.jsonl', 'jsonl');
    expect(parsed.gold?.map((g) => [g.gold.uid, g.line])).toEqual([['g1', 1]]);
    expect(parsed.rows).toEqual([]);
    expect(parsed.diagnostics.map((x) => [x.line, x.field, x.message])).toEqual([
      [2, 'labels', 'must be a list of label keys, got "A"'],
      [3, 'created_at', 'missing'],
    ]);
  });

  it('CSV carries labels only and says what it left out', async () => {
    const d = dir();
    fixture(join(d, 'a.db'));
    const r = await labelsCli(['export', join(d, 'a.db')], { format: 'csv' });
    expect(r.err).toContain('2 gold decision(s) left out: CSV carries labels only');
  });
});

describe('against test/reference/labels_gold.py --export', () => {
  it('gives the counts and per-annotator precision, recall and κ of labels gold --json', async () => {
    const d = dir();
    const path = join(d, 'labels.db');
    const labels = stores.open(path);
    const g = gold(path, {
      now: (() => {
        let t = 0;
        return () => `2026-12-06T00:00:${String(t++ % 60).padStart(2, '0')}.${String(t).padStart(3, '0')}Z`;
      })(),
    });
    const rng = mulberry32(7);
    for (const benchmark of ['spb', 'spb-b']) {
      for (let step = 0; step < 40; step++) {
        // two runs, so that "why runs fail" has runs to tell apart
        const run = step % 3 === 0 ? 'gpt' : 'qwen';
        const truth = ['A', 'B', 'C'].filter(() => rng() < 0.4);
        for (const author of ['ann', 'bob', 'cy']) {
          if (rng() < 0.35) continue;
          const given = ['A', 'B', 'C'].filter((l) => (truth.includes(l) ? rng() < 0.8 : rng() < 0.15));
          for (const label of given.length ? given : ['none'])
            labels.add(labelRow({ benchmark, author, stepId: step, label, run }));
        }
        if (rng() < 0.35) g.decide({ ref: ref(step, benchmark, run), labels: truth, adjudicator: 'carol' });
        if (rng() < 0.1) g.decide({ ref: ref(step, benchmark, run), labels: ['A'], adjudicator: 'carol' });
        if (rng() < 0.1) g.undo(ref(step, benchmark, run), 'carol');
      }
    }
    const file = join(d, 'export.jsonl');
    expect((await labelsCli(['export', path], { out: file })).code).toBe(0);
    const py = JSON.parse(
      execFileSync('python3', [join(__dirname, '../reference/labels_gold.py'), '--export', file], { encoding: 'utf8' }),
    ) as { counts: Record<string, number>; benchmarks: Record<string, unknown>[] };
    type Figure = Record<string, unknown>;
    const ours = JSON.parse((await labelsCli(['gold', path], { json: true })).out) as {
      counts: Record<string, number>;
      benchmarks: {
        benchmark: string;
        counts: Record<string, number>;
        annotators: Record<string, unknown>[];
        runs: { run: string; failing: number; open: number; byLabel: Record<string, { count: number }> }[];
      }[];
    };
    const point = ({ kappaCi: _ci, ...f }: Figure) => f;
    const asPy = ours.benchmarks.map((b) => ({
      benchmark: b.benchmark,
      counts: b.counts,
      annotators: b.annotators.map((a) => ({
        author: a.author,
        units: a.units,
        adjudicated: a.adjudicated,
        overall: point(a.overall as Figure),
        perLabel: Object.fromEntries(
          Object.entries(a.perLabel as Record<string, Figure>).map(([k, f]) => [k, point(f)]),
        ),
      })),
      runs: b.runs,
    }));
    // both runs of each benchmark have failing units, open ones and more than one label counted
    for (const b of ours.benchmarks) {
      expect(b.runs.map((r) => r.run)).toEqual(['gpt', 'qwen']);
      for (const r of b.runs) {
        expect(r.failing).toBeGreaterThan(0);
        expect(Object.values(r.byLabel).filter((c) => c.count > 0).length).toBeGreaterThan(1);
      }
      expect(b.runs.some((r) => r.open > 0)).toBe(true);
    }
    expect(ours.counts).toEqual(py.counts);
    expect(Object.values(ours.counts).every((n) => n > 0)).toBe(true);
    const round = (x: unknown): unknown =>
      typeof x === 'number'
        ? Math.round(x * 1e12) / 1e12
        : Array.isArray(x)
          ? x.map(round)
          : x && typeof x === 'object'
            ? Object.fromEntries(Object.entries(x).map(([k, v]) => [k, round(v)]))
            : x;
    expect(round(asPy)).toEqual(round(py.benchmarks));
    expect(asPy.flatMap((b) => b.annotators)).toHaveLength(6);
  });
});
