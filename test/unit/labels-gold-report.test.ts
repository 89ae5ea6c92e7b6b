// The gold set report (src/core/labels/goldReport.ts) on a hand-made set where every status and figure is known, κ's
// interval wide on few units and narrow on many, the summary's κ intervals (agreementIntervals.ts), and the CLI's
// `labels gold` and `labels summary` on a label database with decisions (text and --json).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pairIntervals } from '../../src/core/labels/agreementIntervals';
import type { Adjudication } from '../../src/core/labels/gold';
import { goldReport, goldReportJson } from '../../src/core/labels/goldReport';
import { GoldStore } from '../../src/core/labels/goldStore';
import { formatWhyRunsFail, whyRunsFail } from '../../src/core/labels/whyRunsFail';
import type { LabelRow, StepRef } from '../../src/core/labels/model';
import { labelRow, labelsCli, labelStores } from './labelStore-fixture';

const ref = (stepId: number): StepRef => ({
  benchmark: 'spb',
  platform: 'weibo',
  userId: 'we_0000000001',
  stepId,
  run: 'gpt',
});
const row = (author: string, stepId: number, label: string): LabelRow => labelRow({ author, stepId, label });
const decide = (stepId: number, labels: string[]): Adjudication => ({
  ref: ref(stepId),
  labels,
  adjudicator: 'carol',
  createdAt: '2026-12-06T00:00:00.000Z',
});

// Step 1 unanimous (A), 2 open (A | B), 3 adjudicated to B (ann A+B, bob B), 4 by ann only.
const rows = [
  row('ann', 1, 'A'),
  row('bob', 1, 'A'),
  row('ann', 2, 'A'),
  row('bob', 2, 'B'),
  row('ann', 3, 'A'),
  row('ann', 3, 'B'),
  row('bob', 3, 'B'),
  row('ann', 4, 'C'),
];
const decisions = [decide(3, ['B'])];

describe('whyRunsFail', () => {
  // gpt: steps 1 (A) and 3 (B) settled and failing, 2 open, 4 single. qwen: 5 unanimous A, 6 adjudicated to none.
  const qwen = (stepId: number): StepRef => ({ ...ref(stepId), run: 'qwen' });
  const more = [
    labelRow({ author: 'ann', stepId: 5, label: 'A', run: 'qwen' }),
    labelRow({ author: 'bob', stepId: 5, label: 'A', run: 'qwen' }),
    labelRow({ author: 'ann', stepId: 6, label: 'C', run: 'qwen' }),
    labelRow({ author: 'bob', stepId: 6, label: 'B', run: 'qwen' }),
  ];
  const r = goldReport([...rows, ...more], [...decisions, { ...decide(6, []), ref: qwen(6) }], { resamples: 50 });

  it('counts each run’s gold labels over its settled units, with each label’s share of its failing ones', () => {
    expect(whyRunsFail(r)).toEqual([
      {
        benchmark: 'spb',
        run: 'gpt',
        units: 4,
        settled: 2,
        failing: 2,
        open: 1,
        single: 1,
        byLabel: [
          { label: 'A', count: 1, share: 0.5 },
          { label: 'B', count: 1, share: 0.5 },
        ],
      },
      {
        benchmark: 'spb',
        run: 'qwen',
        units: 2,
        settled: 2,
        failing: 1,
        open: 0,
        single: 0,
        byLabel: [
          { label: 'A', count: 1, share: 1 },
          { label: 'B', count: 0, share: 0 },
        ],
      },
    ]);
  });

  it('says what it leaves out, in the text and the JSON', () => {
    const text = formatWhyRunsFail(whyRunsFail(r), new Map([['A', 'Alpha']]));
    expect(text).toContain("Why runs fail in spb (settled units only: a share is of the run's settled units");
    expect(text).toContain('  gpt: 2 failing of 2 settled (2 of its 4 labelled units not settled, left out)');
    expect(text).toContain('    Alpha  1  50.0%');
    expect(text).toContain('  qwen: 1 failing of 2 settled\n    Alpha  1  100.0%');
    const json = goldReportJson(r, false).benchmarks[0].runs;
    expect(json[1]).toEqual({
      run: 'qwen',
      units: 2,
      settled: 2,
      failing: 1,
      open: 0,
      single: 0,
      byLabel: { A: { count: 1, share: 1 }, B: { count: 0, share: 0 } },
    });
  });
});

describe('goldReport', () => {
  it('counts adjudicated, unanimous, open and single units and scores each annotator against gold', () => {
    const r = goldReport(rows, decisions, { resamples: 200 });
    expect(r.counts).toEqual({ units: 4, adjudicated: 1, unanimous: 1, open: 1, single: 1 });
    expect(r.benchmarks.map((b) => [b.benchmark, b.unit.key])).toEqual([['spb', 'step']]);
    const json = goldReportJson(r);
    expect(json.benchmarks[0].units!.map((u) => [u.stepId, u.status, u.gold])).toEqual([
      [1, 'unanimous', ['A']],
      [2, 'open', null],
      [3, 'adjudicated', ['B']],
      [4, 'single', null],
    ]);
    const [ann, bob] = json.benchmarks[0].annotators;
    expect(ann).toMatchObject({ author: 'ann', units: 2, adjudicated: 1 });
    // ann gave A where gold is B on step 3: a false positive of A; B she got right.
    expect(ann.perLabel.A).toMatchObject({ tp: 1, fp: 1, fn: 0, tn: 0, precision: 0.5, recall: 1, kappa: 0 });
    expect(ann.perLabel.B).toMatchObject({ tp: 1, fp: 0, fn: 0, tn: 1, precision: 1, recall: 1, kappa: 1 });
    expect(bob.perLabel.A).toMatchObject({ tp: 1, tn: 1, kappa: 1 });
    expect(bob.overall).toMatchObject({ tp: 2, fp: 0, fn: 0, tn: 2, precision: 1, recall: 1, kappa: 1 });
  });

  it('gives κ an interval that is wide on few units and narrow on many, for the same rate of agreement', () => {
    const set = (n: number) => {
      const labelled: LabelRow[] = [];
      const gold: Adjudication[] = [];
      for (let i = 0; i < n; i++) {
        const truth = i % 2 === 0;
        const given = truth !== (i % 10 === 1 || i % 10 === 4);
        labelled.push(row('ann', i, given ? 'A' : 'none'), row('bob', i, 'none'));
        gold.push(decide(i, truth ? ['A'] : ['none']));
      }
      const a = goldReport(labelled, gold).benchmarks[0].annotators.find((x) => x.author === 'ann')!;
      return a.perLabel.find((f) => f.label === 'A')!;
    };
    const few = set(10);
    const many = set(500);
    expect(few.kappa).toBeCloseTo(many.kappa, 10);
    expect(few.kappaCi.high - few.kappaCi.low).toBeGreaterThan(0.5);
    expect(many.kappaCi.high - many.kappaCi.low).toBeLessThan(0.2);
    expect(many.kappaCi.low).toBeLessThan(many.kappa);
    expect(many.kappaCi.high).toBeGreaterThan(many.kappa);
    // Seeded: the same figures read twice are the same.
    expect(set(10).kappaCi).toEqual(few.kappaCi);
  });

  it('gives each pair of annotators an interval around their κ', () => {
    const ci = pairIntervals(rows, 'ann', 'bob', { resamples: 300 });
    expect([...ci.perLabel.keys()]).toEqual(['A', 'B']);
    expect(ci.overall.low).toBeLessThanOrEqual(ci.overall.high);
    expect(ci.overall.defined).toBeGreaterThan(0);
  });
});

describe('labels gold and labels summary on a label database', () => {
  const stores = labelStores();
  const golds: GoldStore[] = [];
  afterEach(() => golds.splice(0).forEach((g) => g.close()));
  const fixture = () => {
    const path = join(mkdtempSync(join(tmpdir(), 'pl-gold-cli-')), 'labels.db');
    const labels = stores.open(path);
    for (const r of rows) labels.add(r);
    const g = GoldStore.open(path);
    golds.push(g);
    g.decide({ ref: ref(2), labels: ['A'], adjudicator: 'carol' });
    g.decide({ ref: ref(3), labels: ['B'], adjudicator: 'carol', note: 'B only' });
    g.undo(ref(2), 'carol');
    return path;
  };

  it('prints the counts, the open units and each annotator against gold', async () => {
    const { code, out, err } = await labelsCli(['gold', fixture()]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('Gold set: 4 unit(s): 1 adjudicated, 1 unanimous, 1 open, 1 by one annotator only');
    expect(out).toContain('Open in spb (no decision, the annotators differ):');
    expect(out).toContain('  weibo · we_0000000001 · step 2 · run gpt  —  ann: A | bob: B');
    expect(out).toContain('Against gold in spb (2 settled step(s);');
    expect(out).toMatch(/ann\s+\(all labels\)\s+2\s+1\s+0\.667\s+1\.000\s+0\.500\s+\[0\.000, 1\.000\]/);
  });

  it('--json gives the report the core computes, and refuses --project on a file', async () => {
    const path = fixture();
    const { code, out } = await labelsCli(['gold', path], { json: true });
    expect(code).toBe(0);
    const json = JSON.parse(out) as ReturnType<typeof goldReportJson>;
    const g = GoldStore.open(path, { readOnly: true });
    golds.push(g);
    const expected = goldReportJson(goldReport(stores.open(path).list(), g.adjudications()));
    expect(json).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(json.benchmarks[0].units!.find((u) => u.stepId === 3)).toMatchObject({
      status: 'adjudicated',
      adjudicator: 'carol',
      note: 'B only',
    });
    const refused = await labelsCli(['gold', path], { project: 'week-1' });
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('--project needs a label server URL');
  });

  it('summary adds κ intervals and the lines against gold', async () => {
    const path = fixture();
    const text = await labelsCli(['summary', path]);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/ann vs bob: overall \[(-?\d\.\d{3}|n\/a)/);
    expect(text.out).toContain('Against gold in spb');
    const json = JSON.parse((await labelsCli(['summary', path], { json: true })).out) as {
      authors: string[];
      agreements: { overall: { ci: unknown } }[];
      gold: { counts: Record<string, number>; benchmarks: { annotators: { author: string }[] }[] };
    };
    // The adjudicator is no author: only the annotators are listed and paired.
    expect(json.authors).toEqual(['ann', 'bob']);
    expect(json.agreements).toHaveLength(1);
    expect(Array.isArray(json.agreements[0].overall.ci)).toBe(true);
    expect(json.gold.counts).toEqual({ units: 4, adjudicated: 1, unanimous: 1, open: 1, single: 1 });
    expect(json.gold.benchmarks[0].annotators.map((a) => a.author)).toEqual(['ann', 'bob']);
  });
});
