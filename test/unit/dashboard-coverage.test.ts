// The run dashboard and Compare Runs beside a run over part of the benchmark: its figures say what they cover, they
// are never marked best against whole-benchmark figures, it is not ticked by default, and a comparison of runs that
// cover different steps says what it is over.
import { describe, expect, it } from 'vitest';
import { scoredSteps } from '../../src/core/spb/score/figures';
import { pairedSummary } from '../../src/core/spb/score/pairedSummary';
import { runCoverage } from '../../src/core/spb/score/coverage';
import { scoreRun } from '../../src/core/spb/score/run';
import { compareRuns } from '../../src/core/spb/score/runCompare';
import { compareModel } from '../../src/extension/benchmarks/spb/compare/model';
import { dashboardModel, defaultRuns } from '../../src/extension/benchmarks/spb/dashboard/model';
import { isExtensionToWebview } from '../../src/shared/spb/dashboardProtocol';
import { memBench, split } from './compare-fixture';

const s = split({ tKeep: ['k1', 'k2'], tNew: ['n1', 'n2'], dDecay: ['d'], dRandom: ['r'] });
const users = ['we_1', 'we_2', 'we_3'].map((userId) => ({ platform: 'weibo' as const, userId, steps: [s, s] }));
const every = (picks: string[]) => Object.fromEntries(users.map((u) => [u.userId, { 1: picks, 2: picks }]));
// "good" hits 3 of 4 positives everywhere, "fair" 2, "poor" 1; "one-user" hits all 4 on one step of one user.
const bench = memBench(users, {
  good: every(['k1', 'k2', 'n1']),
  fair: every(['k1', 'n1']),
  poor: every(['k1']),
  'one-user': { we_1: { 1: ['k1', 'k2', 'n1', 'n2'] } },
});
const runs = [...bench.runs.keys()];

function input(selected: string[]) {
  const scores = selected.map((r) => scoreRun(bench, bench.runs.get(r)!));
  const points = new Map(selected.map((r) => [r, scoredSteps(bench, bench.runs.get(r)!)]));
  return { benchmark: 'mem', runs, selected, focus: selected[0], scores, points };
}
const model = (selected: string[]) => dashboardModel(input(selected));

describe('run dashboard beside a partial run', () => {
  it('marks best and second best only among runs of the same coverage', () => {
    const m = model(runs);
    const t4 = m.tables.find((t) => t.id === 't4')!;
    const col = t4.columns.findIndex((c) => c.group === 'Weibo' && c.head === 'R');
    const avg = t4.columns.findIndex((c) => c.group === 'Avg.' && c.head === 'R');
    const rank = (run: string, ci: number) => t4.rows.find((r) => r.run === run)!.cells[ci].rank;
    // one-user's R 100.00 is the highest figure, but over 1 of 6 steps: no mark, and the whole runs keep theirs
    expect(t4.rows.find((r) => r.run === 'one-user')!.cells[col].text).toBe('100.00');
    for (const ci of [col, avg]) {
      expect([rank('good', ci), rank('fair', ci), rank('poor', ci), rank('one-user', ci)]).toEqual([1, 2, 0, 0]);
    }
  });

  it("says each partial run's coverage, and says the figures are not all on the whole benchmark", () => {
    const m = model(runs);
    expect(m.coverage).toEqual({ 'one-user': 'over 1 of 3 users, 1 of 6 steps' });
    expect(m.scopeLabel).toBe('Whole benchmark (1 run over part of it)');
    expect(model(['good', 'fair']).scopeLabel).toBe('Whole benchmark');
    expect(model(['good', 'fair']).coverage).toEqual({});
    // every run's coverage when the panel gives it: the unticked partial run says what it covers beside its checkbox
    const coverages = new Map(runs.map((r) => [r, runCoverage(bench, bench.runs.get(r)!).total]));
    const unticked = dashboardModel({ ...input(['good', 'fair']), coverages });
    expect(unticked.coverage).toEqual({ 'one-user': 'over 1 of 3 users, 1 of 6 steps' });
    expect(unticked.scopeLabel).toBe('Whole benchmark');
    expect(isExtensionToWebview({ type: 'dashboard', model: m })).toBe(true);
  });

  it('ticks only the whole runs by default when there are any', () => {
    const coverageOf = (r: string) => runCoverage(bench, bench.runs.get(r)!).total;
    expect(defaultRuns(runs, coverageOf)).toEqual(['good', 'fair', 'poor']);
    // only partial runs: all of them, there is nothing whole to keep them from
    expect(defaultRuns(['one-user'], coverageOf)).toEqual(['one-user']);
  });
});

describe('Compare Runs beside a partial run', () => {
  const coverage = (a: string, b: string) => ({
    a: runCoverage(bench, bench.runs.get(a)!),
    b: runCoverage(bench, bench.runs.get(b)!),
  });
  const opts = { scope: 'all' as const, sortMetric: 'Recall' as const, order: 'regression' as const };

  it("says each side's coverage and what the comparison is over when they cover different steps", () => {
    const cmp = compareRuns(bench, bench.runs.get('good')!, bench.runs.get('one-user')!);
    const m = compareModel(
      cmp,
      pairedSummary(cmp, 'all', { resamples: 10 }),
      runs,
      ['all', 'weibo'],
      opts,
      {},
      {
        ...coverage('good', 'one-user'),
      },
    );
    expect(m.coverage).toEqual({
      a: 'all 3 users, all 6 steps',
      b: '1 of 3 users, 1 of 6 steps',
      whole: [true, false],
      over: "The runs cover different steps: every figure here is over the 1 scored step of 1 user that both have, not over either run's own coverage.",
    });
    expect(isExtensionToWebview({ type: 'compare', model: m })).toBe(true);
  });

  it('says nothing more of two runs that cover the same steps', () => {
    const cmp = compareRuns(bench, bench.runs.get('good')!, bench.runs.get('fair')!);
    const m = compareModel(cmp, [], runs, ['all', 'weibo'], opts, {}, coverage('good', 'fair'));
    expect(m.coverage?.over).toBeNull();
    expect(m.coverage?.whole).toEqual([true, true]);
  });
});
