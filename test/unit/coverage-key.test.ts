// Which units a run covers, not only how many: two runs of one user each, on different users, are not ranked against
// each other; the same steps listed in another order are the same coverage; both ways of counting agree.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sameCoverage } from '../../src/core/coverage';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { runCoverage } from '../../src/core/spb/score/coverage';
import { tableModels } from '../../src/core/spb/score/paperTables';
import { scoreRun } from '../../src/core/spb/score/run';
import type { Benchmark, Run } from '../../src/core/spb/types';
import { SAMPLE } from '../support/committedSample';

let root: string;
let bench: Benchmark;
const lines = () => readFileSync(join(SAMPLE, 'results/demo-llm/inference_results_weibo.jsonl'), 'utf8').split('\n');

/** A results line of the demo run keeping `steps` (by position) of its user. */
function keep(line: string, steps: number[]): string {
  const row = JSON.parse(line.replace(/\bNaN\b/g, 'null')) as { steps: unknown[] };
  const head = line.replace(/"steps": \[.*$/, '');
  return `${head}"steps": ${JSON.stringify(steps.map((i) => row.steps[i])).replace(/:null\b/g, ':NaN')}}`;
}

function writeRun(name: string, rows: string[]): void {
  mkdirSync(join(root, 'results', name));
  writeFileSync(join(root, 'results', name, 'inference_results_weibo.jsonl'), `${rows.join('\n')}\n`);
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'coverage-key-'));
  cpSync(join(SAMPLE, 'data'), join(root, 'data'), { recursive: true });
  mkdirSync(join(root, 'results'));
  const [a, b] = lines();
  writeRun('user-a', [keep(a, [0, 1])]);
  writeRun('user-b', [keep(b, [0, 1])]);
  writeRun('user-a-too', [keep(a, [0, 1])]);
  writeRun('both', [keep(a, [0, 1]), keep(b, [0, 1])]);
  writeRun('both-reversed', [keep(b, [1, 0]), keep(a, [1, 0])]);
  bench = await loadBenchmark(root);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const cov = (name: string) => runCoverage(bench, bench.runs.get(name)!).total;

describe('coverage is which units, not only how many', () => {
  it('two one-user runs of different users have the same counts but not the same coverage', () => {
    expect(cov('user-a').items).toEqual(cov('user-b').items);
    expect(cov('user-a').users).toEqual(cov('user-b').users);
    expect(sameCoverage(cov('user-a'), cov('user-b'))).toBe(false);
    expect(sameCoverage(cov('user-a'), cov('user-a-too'))).toBe(true);
  });

  it('the same steps in another order of rows and steps are the same coverage', () => {
    expect(sameCoverage(cov('both'), cov('both-reversed'))).toBe(true);
    expect(cov('both').key).toBe(cov('both-reversed').key);
    expect(sameCoverage(cov('both'), cov('user-a'))).toBe(false);
  });

  it('counting from the pick tables and from the rows gives the same key', () => {
    const loaded = bench.runs.get('both')!;
    // A copy of the run's maps has no pick tables: runCoverage counts its rows instead.
    const copy: Run = { ...loaded, results: new Map([...loaded.results].map(([p, m]) => [p, new Map(m)])) };
    expect(runCoverage(bench, copy).total).toEqual(cov('both'));
  });

  it('runs of different users are ranked against no one in the tables', () => {
    const scores = ['user-a', 'user-b'].map((n) => scoreRun(bench, bench.runs.get(n)!));
    for (const t of tableModels(scores)) for (const r of t.rows) expect(r.cells.every((c) => c.rank === 0)).toBe(true);
    const same = ['user-a', 'user-a-too', 'user-b'].map((n) => scoreRun(bench, bench.runs.get(n)!));
    // user-a and user-a-too tie everywhere (the same rows): a tie takes no mark either, so none has one
    for (const t of tableModels(same)) for (const r of t.rows) expect(r.cells.every((c) => c.rank === 0)).toBe(true);
  });
});
