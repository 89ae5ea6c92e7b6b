// Figures over a sample's users: the core scoring takes the subset (a platform's figure is the macro average of the
// subset's per-user scores, which do not depend on the other users), `score --sample` prints the same numbers,
// and a sample naming users the benchmark lacks is scoped to those it has, with located problems.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { drawSample } from '../../src/core/spb/experiments/sample';
import { samplePath, writeSample } from '../../src/core/experiments/sampleFile';
import { newSample, readSample } from '../../src/core/spb/experiments/sampleFile';
import { loadSampleScope, sampleLabel, sampleScope } from '../../src/core/spb/experiments/sampleScope';
import { scoredSteps } from '../../src/core/spb/score/figures';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { tableModels } from '../../src/core/spb/score/paperTables';
import { scoreRun } from '../../src/core/spb/score/run';
import { aggregateUsers, nanMean } from '../../src/core/spb/score/step';
import type { ScoreJson } from '../../src/core/spb/score/tables';
import { METRIC_KEYS, type Benchmark } from '../../src/core/spb/types';
import { inSubset, subsetSize, userSubset } from '../../src/core/spb/score/userSubset';
import { runCommand, UsageError } from '../../src/cli/commands';
import { dashboardModel } from '../../src/extension/benchmarks/spb/dashboard/model';
import { isExtensionToWebview, isWebviewToExtension } from '../../src/shared/spb/dashboardProtocol';
import { sampleSummaries } from '../../src/core/spb/experiments/sampleScope';
import { SAMPLE } from '../support/committedSample';

let root: string;
let bench: Benchmark;
const NAME = 'pick9';

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'sample-scope-'));
  cpSync(join(SAMPLE, 'data'), join(root, 'data'), { recursive: true });
  cpSync(join(SAMPLE, 'results'), join(root, 'results'), { recursive: true });
  bench = await loadBenchmark(root);
  writeSample(root, newSample(bench, NAME, drawSample(bench, { users: 9, seed: 3 })));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

describe('scoreRun and scoredSteps over a user subset', () => {
  it('scores only the subset: per platform the macro average of those users, Avg. over their platforms', () => {
    const scope = loadSampleScope(bench, NAME);
    expect(scope.size).toBe(9);
    expect(scope.problems).toEqual([]);
    for (const run of bench.runs.values()) {
      const whole = scoreRun(bench, run);
      const sub = scoreRun(bench, run, scope.users);
      expect([...sub.platforms.keys()]).toEqual([...whole.platforms.keys()].filter((p) => scope.users.has(p)));
      for (const [platform, ps] of sub.platforms) {
        const ids = scope.users.get(platform)!;
        const mine = [...whole.platforms.get(platform)!.userScores].filter(([id]) => ids.has(id));
        expect([...ps.userScores]).toEqual(mine);
        const expected = aggregateUsers(mine.map(([, s]) => s));
        expect(ps.metrics).toEqual(expected.metrics);
        expect(ps.f1ns).toBe(expected.f1ns);
        expect(ps.users).toBe(mine.length);
      }
      for (const key of METRIC_KEYS)
        expect(sub.avg[key]).toBe(nanMean([...sub.platforms.values()].map((p) => p.metrics[key])));
      // a real subset: its figure is not the whole benchmark's
      expect(sub.avg.Recall).not.toBe(whole.avg.Recall);
      const points = scoredSteps(bench, run, scope.users);
      expect(points).toEqual(scoredSteps(bench, run).filter((p) => inSubset(scope.users, p.platform, p.userId)));
      expect(new Set(points.map((p) => p.userId)).size).toBeLessThanOrEqual(9);
    }
  });

  it('gives no platform for an empty subset, and the whole benchmark without one', () => {
    const run = bench.runs.get('demo-llm')!;
    expect(scoreRun(bench, run, new Map()).platforms.size).toBe(0);
    expect(scoreRun(bench, run, undefined)).toEqual(scoreRun(bench, run));
    expect(subsetSize(userSubset({ weibo: ['a', 'b'], zhihu: [] }))).toBe(2);
  });

  it('names the sample in every table title', () => {
    const scope = loadSampleScope(bench, NAME);
    const titles = tableModels([scoreRun(bench, bench.runs.get('random')!, scope.users)], scope.label).map(
      (t) => t.title,
    );
    expect(scope.label).toBe(sampleLabel(NAME, 9));
    expect(scope.label).toBe('sample pick9 (9 users)');
    for (const t of titles) expect(t).toMatch(/, on sample pick9 \(9 users\)$/);
  });
});

describe('a sample that no longer matches the benchmark', () => {
  it('keeps the users the benchmark has and says which are missing, located', () => {
    const sample = readSample(root, NAME);
    const platform = Object.keys(sample.users)[0] as keyof typeof sample.users;
    const broken = {
      ...sample,
      name: 'broken',
      users: { ...sample.users, [platform]: ['nobody_1', ...sample.users[platform]!] },
    };
    const scope = sampleScope(bench, broken);
    expect(scope.size).toBe(9);
    expect(scope.problems).toHaveLength(1);
    expect(scope.problems[0]).toContain(`${samplePath(root, 'broken')}: users.${platform}: 1 user(s) not in`);
    expect(scope.problems[0]).toContain('nobody_1');
  });
});

describe('persona-lab score --sample', () => {
  async function cli(opts: Record<string, unknown>): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((t) => (out.push(String(t)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((t) => (err.push(String(t)), true));
    const code = await runCommand('score', [root], { 'no-cache': true, ...opts });
    vi.restoreAllMocks();
    return { code, out: out.join(''), err: err.join('') };
  }

  it('prints the core figure on the sample (JSON), named as the sample', async () => {
    const { out } = await cli({ sample: NAME, json: true });
    const json = JSON.parse(out) as ScoreJson;
    const scope = loadSampleScope(bench, NAME);
    expect(json.sample).toEqual({ name: NAME, users: 9 });
    for (const r of json.runs) {
      const core = scoreRun(bench, bench.runs.get(r.name)!, scope.users);
      expect(r.avg.Recall).toBe(core.avg.Recall);
      expect(r.avg.F1NS).toBe(core.avg.F1NS);
      for (const [p, ps] of core.platforms) {
        expect(r.platforms[p].Recall).toBe(ps.metrics.Recall);
        expect(r.platforms[p].users).toBe(ps.users);
      }
    }
    const whole = JSON.parse((await cli({ json: true })).out) as ScoreJson;
    expect(whole.sample).toBeUndefined();
    expect(whole.runs[0].avg.Recall).not.toBe(json.runs[0].avg.Recall);
  });

  it('names the sample in the text and formatted tables', async () => {
    expect((await cli({ sample: NAME })).out).toMatch(/^On sample pick9 \(9 users\), not the whole benchmark/);
    const md = (await cli({ sample: NAME, format: 'markdown' })).out;
    expect(md).toContain('Table 4. Recall and F1^NS (%), two-level macro average, on sample pick9 (9 users)');
  });

  it('warns with the located problem and scores the users it has; refuses an unknown sample', async () => {
    const sample = readSample(root, NAME);
    const [platform, ids] = Object.entries(sample.users)[0];
    writeFileSync(
      samplePath(root, 'gone1'),
      JSON.stringify({ ...sample, name: 'gone1', users: { ...sample.users, [platform]: [...ids, 'xx_gone'] } }),
    );
    const { code, out, err } = await cli({ sample: 'gone1', json: true });
    expect(code).toBe(0);
    expect(err).toContain(`warning: ${samplePath(root, 'gone1')}: users.${platform}: 1 user(s) not in`);
    expect((JSON.parse(out) as ScoreJson).sample).toEqual({ name: 'gone1', users: 9 });
    await expect(cli({ sample: 'nope' })).rejects.toThrow(`${samplePath(root, 'nope')}: no such sample`);
    await expect(cli({ sample: NAME, 'write-reports': true })).rejects.toBeInstanceOf(UsageError);
  });
});

describe('the dashboard on a sample', () => {
  it('computes its tables and figures over the sample through the core, named in every title', () => {
    const scope = loadSampleScope(bench, NAME);
    const runs = [...bench.runs.keys()];
    const scores = runs.map((r) => scoreRun(bench, bench.runs.get(r)!, scope.users));
    const points = new Map(runs.map((r) => [r, scoredSteps(bench, bench.runs.get(r)!, scope.users)]));
    const sample = { name: NAME, users: scope.size, label: scope.label, problems: [] };
    const model = dashboardModel({
      benchmark: 'b',
      runs,
      selected: runs,
      focus: runs[0],
      scores,
      points,
      samples: sampleSummaries(root),
      sample,
    });
    expect(model.sample).toEqual(sample);
    expect(model.samples).toContainEqual({ name: NAME, users: 9 });
    const t4 = model.tables.find((t) => t.id === 't4')!;
    expect(t4.title).toContain('on sample pick9 (9 users)');
    // the Avg. R cell of each run is the core's figure on the sample
    const avgR = t4.columns.findIndex((c) => c.group === 'Avg.' && c.head === 'R');
    t4.rows.forEach((row, i) => expect(row.cells[avgR].value).toBe(scores[i].avg.Recall));
    expect(isExtensionToWebview({ type: 'dashboard', model })).toBe(true);
    expect(isExtensionToWebview({ type: 'dashboard', model: { ...model, sample: null } })).toBe(true);
    expect(isExtensionToWebview({ type: 'dashboard', model: { ...model, sample: { name: NAME } } })).toBe(false);
    expect(isWebviewToExtension({ type: 'setSample', name: NAME })).toBe(true);
    expect(isWebviewToExtension({ type: 'setSample' })).toBe(true);
    expect(isWebviewToExtension({ type: 'setSample', name: 3 })).toBe(false);
  });
});
