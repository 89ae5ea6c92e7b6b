// `score` on a folder holding a run of one user beside whole runs: every output says what the one-user run's figures
// cover (text, --json, LaTeX, Markdown, CSV), whole runs print as they did, and every text line fits 120 columns.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCommand, type CliOptions } from '../../src/cli/commands';
import { drawSample } from '../../src/core/spb/experiments/sample';
import { writeSample } from '../../src/core/experiments/sampleFile';
import { newSample } from '../../src/core/spb/experiments/sampleFile';
import { loadBenchmark } from '../../src/core/spb/format/load';
import type { ScoreJson } from '../../src/core/spb/score/tables';
import { PLATFORMS, type Benchmark } from '../../src/core/spb/types';
import { elideRunName, wrapLine } from '../../src/core/tables/text';
import { paperTablesText, tableModels } from '../../src/core/spb/score/paperTables';
import { scoreRun } from '../../src/core/spb/score/run';
import { SAMPLE } from '../support/committedSample';

let root: string;
let bench: Benchmark;
let userId: string;
const WEIBO_USERS = () => bench.users.get('weibo')!.size;

async function cli(args: string[], opts: CliOptions = {}): Promise<string> {
  const out: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((t) => out.push(String(t)) > 0);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    expect(await runCommand('score', args, { 'no-cache': true, ...opts })).toBe(0);
    return out.join('');
  } finally {
    vi.restoreAllMocks();
  }
}

const users = (b: Benchmark) => [...b.users.values()].reduce((n, m) => n + m.size, 0);
const steps = (b: Benchmark) =>
  [...b.users.values()].reduce((n, m) => n + [...m.values()].reduce((k, u) => k + u.steps.length, 0), 0);

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'score-coverage-'));
  cpSync(join(SAMPLE, 'data'), join(root, 'data'), { recursive: true });
  mkdirSync(join(root, 'results'));
  for (const run of ['demo-llm', 'random'])
    cpSync(join(SAMPLE, 'results', run), join(root, 'results', run), { recursive: true });
  // one-user: the first Weibo user of demo-llm, its first two steps only
  const line = readFileSync(join(SAMPLE, 'results/demo-llm/inference_results_weibo.jsonl'), 'utf8').split('\n')[0];
  const row = JSON.parse(line.replace(/\bNaN\b/g, 'null')) as { user_id: string; steps: unknown[] };
  userId = row.user_id;
  const first = line.replace(/"steps": \[.*$/, '');
  const kept = JSON.stringify(row.steps.slice(0, 2)).replace(/:null\b/g, ':NaN');
  mkdirSync(join(root, 'results', 'one-user'));
  writeFileSync(join(root, 'results', 'one-user', 'inference_results_weibo.jsonl'), `${first}"steps": ${kept}}\n`);
  bench = await loadBenchmark(root);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('score on a run of one user beside whole runs', () => {
  it('the text marks its row and says under the tables what it is over; every line fits 120 columns', async () => {
    const text = await cli([root]);
    const weiboSteps = bench.users.get('weibo')!.get(userId)!.steps.length;
    expect(weiboSteps).toBeGreaterThan(2);
    const weiboTotal = [...bench.users.get('weibo')!.values()].reduce((n, u) => n + u.steps.length, 0);
    const note =
      `  one-user: over 1 of ${users(bench)} users, 2 of ${steps(bench)} steps (Weibo: 1 of ${WEIBO_USERS()} users, ` +
      `2 of ${weiboTotal} steps; none of Xiaohongshu, Toutiao, Zhihu, Douban)`;
    expect(text).toContain(
      ['‡ Over part of the benchmark: these figures cover only what the run has results for', ...wrapLine(note)].join(
        '\n',
      ),
    );
    // the row is marked in each table (Table 6 is in blocks: once per block)
    expect(text.split('\n').filter((l) => l.startsWith('one-user ‡ ')).length).toBeGreaterThanOrEqual(3);
    expect(text.split('\n').filter((l) => /^(demo-llm|random) .*‡/.test(l))).toEqual([]);
    for (const l of text.split('\n')) expect(l.length, l).toBeLessThanOrEqual(120);
    // every platform and metric is still there, Table 6 split by platforms
    for (const head of ['Weibo', 'Xiaohongshu', 'Douban', 'Avg.', 'Err_random', 'F1^NS', 'R_nov'])
      expect(text).toContain(head);
  });

  it('--json gives each run its coverage in all and per platform', async () => {
    const json = JSON.parse(await cli([root], { json: true })) as ScoreJson;
    const one = json.runs.find((r) => r.name === 'one-user')!;
    expect(one.coverage.users).toEqual({ covered: 1, total: users(bench) });
    expect(one.coverage.steps).toEqual({ covered: 2, total: steps(bench) });
    expect(one.coverage.whole).toBe(false);
    expect(one.coverage.platforms.weibo).toMatchObject({ users: { covered: 1, total: WEIBO_USERS() }, whole: false });
    expect(Object.keys(one.coverage.platforms)).toEqual(PLATFORMS.filter((p) => bench.users.has(p)));
    expect(one.coverage.platforms.zhihu.users.covered).toBe(0);
    const whole = json.runs.find((r) => r.name === 'demo-llm')!;
    expect(whole.coverage).toMatchObject({
      users: { covered: users(bench), total: users(bench) },
      steps: { covered: steps(bench), total: steps(bench) },
      whole: true,
    });
  });

  it('LaTeX and Markdown mark the row and carry the footnote in every table; CSV adds a Coverage column', async () => {
    const tex = await cli([root], { format: 'latex' });
    expect(tex.match(/^one-user\$\^\{\\ddagger\}\$ & /gm)).toHaveLength(3);
    expect(
      tex.match(/\{\\footnotesize \$\^\{\\ddagger\}\$ Over part of the benchmark[^\n]*\\\\\none-user: over 1 of /g),
    ).toHaveLength(3);
    const md = await cli([root], { format: 'markdown' });
    expect(md.match(/^\| one-user ‡ \|/gm)).toHaveLength(3);
    expect(md.match(/^- one-user: over 1 of \d+ users, 2 of \d+ steps \(Weibo: /gm)).toHaveLength(3);
    const csv = (await cli([root], { format: 'csv' })).split('\r\n');
    expect(csv[0].endsWith(',Avg. R,Avg. F1^NS,Coverage')).toBe(true);
    expect(csv.find((l) => l.startsWith('one-user,'))).toMatch(/,"1 of \d+ users, 2 of \d+ steps \(Weibo: [^"]*\)"$/);
    expect(csv.find((l) => l.startsWith('demo-llm,'))).toMatch(/,"all \d+ users, all \d+ steps"$/);
  });

  it('whole runs print as before: no mark, footnote or column', async () => {
    const whole = { run: ['demo-llm', 'random'] };
    const text = await cli([root], whole);
    expect(text).not.toContain('‡');
    for (const l of text.split('\n')) expect(l.length, l).toBeLessThanOrEqual(120);
    expect(await cli([root], { ...whole, format: 'latex' })).not.toContain('ddagger');
    expect(await cli([root], { ...whole, format: 'csv' })).not.toContain('Coverage');
    expect(await cli([root], { ...whole, format: 'markdown' })).not.toContain('‡');
  });

  it('a run name too long for 120 columns keeps its start and end; no line is wider', () => {
    const long = `persona-lab-experiment-${'x'.repeat(120)}-mHMT`;
    const score = { ...scoreRun(bench, bench.runs.get('one-user')!), name: long };
    const text = paperTablesText([score, scoreRun(bench, bench.runs.get('random')!)]);
    for (const l of text.split('\n')) expect(l.length, l).toBeLessThanOrEqual(120);
    expect(text).toMatch(/^persona-lab-experiment-x+…x+-mHMT ‡/m);
    expect(elideRunName('abcdefghij', 7)).toBe('abcd…ij');
  });

  it('with --sample, a run over all of the sample is whole and a run over part of it says so', async () => {
    writeSample(root, newSample(bench, 'four', drawSample(bench, { users: 4, seed: 1 })));
    const text = await cli([root], { sample: 'four', run: ['demo-llm'] });
    expect(text).not.toContain('‡');
    const json = JSON.parse(await cli([root], { sample: 'four', run: ['demo-llm'], json: true })) as ScoreJson;
    expect(json.runs[0].coverage.users).toEqual({ covered: 4, total: 4 });
    expect(json.runs[0].coverage.whole).toBe(true);
  });

  it('marks best and second only among runs of the same coverage: the one-user run is ranked against none', async () => {
    const runs = ['demo-llm', 'one-user', 'random'].map((name) => scoreRun(bench, bench.runs.get(name)!));
    for (const table of tableModels(runs)) {
      const partial = table.rows.find((r) => r.run === 'one-user')!;
      expect(partial.cells.every((c) => c.rank === 0)).toBe(true);
      // the two whole runs are still ranked against each other: a best mark in every column where they differ
      table.columns.forEach((_, ci) => {
        const whole = table.rows.filter((r) => r.run !== 'one-user').map((r) => r.cells[ci]);
        if (whole[0].text !== whole[1].text && whole.every((c) => c.value !== null))
          expect(whole.map((c) => c.rank)).toContain(1);
      });
    }
    // and so in what `score --format` writes: no bold figure on the one-user row
    const markdown = await cli([root], { format: 'markdown' });
    const rows = markdown.split('\n').filter((l) => l.includes('one-user'));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).not.toMatch(/\*\*\d/);
  });
});
