// The gold set (src/core/labels/gold.ts) and the annotators against it with bootstrap intervals
// (src/core/labels/goldAgreement.ts): hand-made label sets where each status and figure is known, and a random set
// checked against the independent Python reimplementation in test/reference/labels_gold.py.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { goldSet, type Adjudication } from '../../src/core/labels/gold';
import { annotatorsVsGold, cellOf, cohenInterval, fleissInterval } from '../../src/core/labels/goldAgreement';
import type { LabelRow, StepRef } from '../../src/core/labels/model';
import { mulberry32 } from '../../src/core/stats/random';

const ref = (stepId: number, userId = 'u1'): StepRef => ({
  benchmark: 'b',
  platform: 'weibo',
  userId,
  stepId,
  run: 'r',
});

function row(author: string, stepId: number, label: string, userId = 'u1'): LabelRow {
  return {
    ...ref(stepId, userId),
    author,
    target: { kind: 'step' },
    label,
    note: '',
    createdAt: '2026-12-01T00:00:00Z',
    contentHash: '',
  };
}

const decide = (stepId: number, labels: string[], createdAt: string, adjudicator = 'carol'): Adjudication => ({
  ref: ref(stepId),
  labels,
  adjudicator,
  createdAt,
});

// Step 1: both say A (unanimous). Step 2: A vs B (open). Step 3: only ann (single). Step 4: A vs B, decided B.
const rows = [
  row('ann', 1, 'A'),
  row('bob', 1, 'A'),
  row('ann', 2, 'A'),
  row('bob', 2, 'B'),
  row('ann', 3, 'A'),
  row('ann', 4, 'A'),
  row('bob', 4, 'B'),
];

describe('goldSet', () => {
  it('settles unanimous and adjudicated units, leaves open and single ones out of gold, and counts each', () => {
    const g = goldSet(rows, [decide(4, ['B'], '2026-12-02T00:00:00Z')]);
    expect(g.counts).toEqual({ adjudicated: 1, unanimous: 1, open: 1, single: 1 });
    expect(g.units.map((u) => [u.ref.stepId, u.status, u.gold])).toEqual([
      [1, 'unanimous', ['A']],
      [2, 'open', null],
      [3, 'single', null],
      [4, 'adjudicated', ['B']],
    ]);
    expect(g.units[3]).toMatchObject({ adjudicator: 'carol', annotators: [{ author: 'ann' }, { author: 'bob' }] });
  });

  it('takes the latest decision when one is changed, and opens the unit again when it is undone', () => {
    const first = decide(2, ['A'], '2026-12-02T00:00:00Z');
    const changed = decide(2, ['A', 'B'], '2026-12-03T00:00:00Z', 'dave');
    expect(goldSet(rows, [changed, first]).units[1]).toMatchObject({ status: 'adjudicated', gold: ['A', 'B'] });
    expect(goldSet(rows, [first]).units[1]).toMatchObject({ status: 'adjudicated', gold: ['A'] });
    // Undo removes the decision row: the unit is open again, as before any decision.
    expect(goldSet(rows, []).units[1]).toMatchObject({ status: 'open', gold: null });
  });

  it('settles a unit on "no label applies" and keeps a decision on a unit no annotator did', () => {
    const g = goldSet(rows, [decide(2, [], '2026-12-02T00:00:00Z'), decide(9, ['C'], '2026-12-02T00:00:00Z')]);
    expect(g.units.find((u) => u.ref.stepId === 2)).toMatchObject({ status: 'adjudicated', gold: [] });
    expect(g.units.find((u) => u.ref.stepId === 9)).toMatchObject({ status: 'adjudicated', annotators: [] });
    expect(g.counts.adjudicated).toBe(2);
  });
});

describe('annotatorsVsGold', () => {
  it('counts each annotator against gold on the settled units they did', () => {
    const g = goldSet(rows, [decide(4, ['B'], '2026-12-02T00:00:00Z')]);
    const [ann, bob] = annotatorsVsGold(g, { resamples: 200 });
    expect(ann).toMatchObject({ author: 'ann', units: 2, adjudicated: 1 });
    // ann on step 4 gave A where gold is B: A is a false positive, B a false negative.
    expect(ann.perLabel.map((f) => [f.label, f.tp, f.fp, f.fn, f.tn])).toEqual([
      ['A', 1, 1, 0, 0],
      ['B', 0, 0, 1, 1],
    ]);
    expect(ann.perLabel[0].precision).toBe(0.5);
    expect(ann.perLabel[0].recall).toBe(1);
    expect(Number.isNaN(ann.perLabel[1].precision)).toBe(true);
    expect(bob.perLabel.map((f) => [f.label, f.tp, f.fp, f.fn, f.tn])).toEqual([
      ['A', 1, 0, 0, 1],
      ['B', 1, 0, 0, 1],
    ]);
    expect(bob.overall.kappa).toBe(1);
  });
});

describe('bootstrap intervals of κ', () => {
  it('is a single point where every unit agrees and both labels occur', () => {
    const cells = [...Array(20)].map((_, i) => [cellOf(i % 2 === 0, i % 2 === 0)]);
    const ci = cohenInterval(cells);
    expect(ci.low).toBe(1);
    expect(ci.high).toBe(1);
  });

  it('is wide on ten units with one disagreement among few positives', () => {
    const cells = [cellOf(true, true), cellOf(true, false), ...[...Array(8)].map(() => cellOf(false, false))].map(
      (c) => [c],
    );
    const ci = cohenInterval(cells);
    expect(ci.high - ci.low).toBeGreaterThan(0.5);
    expect(ci.defined).toBeLessThan(ci.resamples); // some resamples have no positive at all: κ undefined, left out
  });

  it('narrows as the units grow, for the same rate of agreement', () => {
    const make = (n: number) => {
      const rng = mulberry32(3);
      return [...Array(n)].map(() => {
        const a = rng() < 0.4;
        return [cellOf(a, rng() < 0.85 ? a : !a)];
      });
    };
    const small = cohenInterval(make(30));
    const large = cohenInterval(make(600));
    expect(large.high - large.low).toBeLessThan((small.high - small.low) / 2);
  });

  it('gives Fleiss κ an interval around its value', () => {
    const rng = mulberry32(5);
    const rowsOf = [...Array(40)].map(() => {
      const p = rng() < 0.5 ? 0.9 : 0.1;
      const yes = [0, 1, 2].filter(() => rng() < p).length;
      return [yes, 3 - yes];
    });
    const ci = fleissInterval(rowsOf);
    expect(ci.low).toBeLessThan(ci.high);
    expect(ci.low).toBeGreaterThan(0);
  });
});

describe('against test/reference/labels_gold.py', () => {
  const dir = mkdtempSync(join(tmpdir(), 'persona-gold-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the same gold counts, units and per-annotator figures with intervals on a random set', () => {
    const rng = mulberry32(11);
    const labels = ['A', 'B', 'C'];
    const authors = ['ann', 'bob', 'cy'];
    const all: LabelRow[] = [];
    const adjudications: Adjudication[] = [];
    for (let step = 0; step < 60; step++) {
      const truth = labels.filter(() => rng() < 0.35);
      for (const author of authors) {
        if (rng() < 0.3) continue;
        const given = labels.filter((l) => (truth.includes(l) ? rng() < 0.85 : rng() < 0.1));
        for (const l of given.length ? given : ['A']) all.push(row(author, step, l, `u${step % 4}`));
      }
      if (rng() < 0.3) {
        const a = { ...decide(step, truth, `2026-12-0${1 + Math.floor(rng() * 3)}T00:00:00Z`) };
        adjudications.push({ ...a, ref: ref(step, `u${step % 4}`) });
      }
    }
    const opts = { resamples: 300, seed: 42 };
    const file = join(dir, 'input.json');
    writeFileSync(file, JSON.stringify({ rows: all, adjudications, ...opts }));
    const py = JSON.parse(
      execFileSync('python3', [join(__dirname, '../reference/labels_gold.py'), file], { encoding: 'utf8' }),
    ) as {
      counts: Record<string, number>;
      units: { key: unknown[]; status: string; gold: string[] | null }[];
      annotators: {
        author: string;
        units: number;
        adjudicated: number;
        perLabel: Record<string, unknown>[];
        overall: Record<string, unknown>;
      }[];
    };
    const g = goldSet(all, adjudications);
    expect(g.counts).toEqual(py.counts);
    expect(Object.values(g.counts).every((n) => n > 0)).toBe(true);
    expect(
      g.units.map((u) => ({
        key: [u.ref.benchmark, u.ref.platform, u.ref.userId, u.ref.stepId, u.ref.run],
        status: u.status,
        gold: u.gold,
      })),
    ).toEqual(py.units);
    const nan = (x: number) => (Number.isNaN(x) ? null : x);
    const asPy = (f: ReturnType<typeof annotatorsVsGold>[number]['overall']) => ({
      label: f.label,
      tp: f.tp,
      fp: f.fp,
      fn: f.fn,
      tn: f.tn,
      precision: nan(f.precision),
      recall: nan(f.recall),
      kappa: nan(f.kappa),
      ci: [nan(f.kappaCi.low), nan(f.kappaCi.high), f.kappaCi.defined],
    });
    const ours = annotatorsVsGold(g, opts).map((a) => ({
      author: a.author,
      units: a.units,
      adjudicated: a.adjudicated,
      perLabel: a.perLabel.map(asPy),
      overall: asPy(a.overall),
    }));
    expect(ours.length).toBe(3);
    // Interpolated quantiles may differ in the last bits between the two languages: compared to 1e-12.
    const round = (x: unknown): unknown =>
      typeof x === 'number'
        ? Math.round(x * 1e12) / 1e12
        : Array.isArray(x)
          ? x.map(round)
          : x && typeof x === 'object'
            ? Object.fromEntries(Object.entries(x).map(([k, v]) => [k, round(v)]))
            : x;
    expect(round(ours)).toEqual(round(py.annotators));
  });
});
