// Failed requests (the reference's error record): counted per run and platform, the official R̄ with them and R̄
// without them (named as our reading), equal to the independent Python in test/reference/spb_failed.py on the sample
// and on a copy with error records planted (a user whose every step failed, and an empty reply that is no error).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXCLUDING_FAILED, isErrorRecord } from '../../src/core/spb/score/failedRequests';
import { pyJsonDumps, pyJsonLoads } from '../../src/core/io/pyjson';
import { SAMPLE } from '../support/committedSample';

const CLI = resolve('dist/cli.js');
const PY = resolve('test/reference/spb_failed.py');
const loads = (line: string): unknown => {
  const r = pyJsonLoads(line);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};
const tmp = mkdtempSync(join(tmpdir(), 'pl-failed-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Failed {
  failed: number;
  steps: number;
  platforms: Record<
    string,
    { failed: number; steps: number; Recall: number | null; RecallExcludingFailed: number | null }
  >;
  avg: { Recall: number | null; RecallExcludingFailed: number | null };
}

function ours(dir: string, extra: string[] = []): Record<string, Failed> {
  const out = JSON.parse(
    execFileSync(process.execPath, [CLI, 'score', dir, '--json', ...extra], { encoding: 'utf8' }),
  ) as {
    runs: { name: string; failedRequests: Failed & { excluding: string } }[];
  };
  for (const r of out.runs) expect(r.failedRequests.excluding).toBe(EXCLUDING_FAILED);
  return Object.fromEntries(out.runs.map((r) => [r.name, r.failedRequests]));
}

function python(dir: string): Record<string, Failed> {
  return JSON.parse(execFileSync('python3', [PY, dir], { encoding: 'utf8' })) as Record<string, Failed>;
}

function expectSame(a: Record<string, Failed>, b: Record<string, Failed>): void {
  expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
  for (const [run, x] of Object.entries(a)) {
    const y = b[run];
    expect([x.failed, x.steps], run).toEqual([y.failed, y.steps]);
    for (const [p, v] of Object.entries(x.platforms)) {
      expect([v.failed, v.steps], `${run} ${p}`).toEqual([y.platforms[p].failed, y.platforms[p].steps]);
      expect(v.Recall ?? NaN).toBeCloseTo(y.platforms[p].Recall ?? NaN, 12);
      expect(v.RecallExcludingFailed ?? NaN).toBeCloseTo(y.platforms[p].RecallExcludingFailed ?? NaN, 12);
    }
    expect(x.avg.RecallExcludingFailed ?? NaN).toBeCloseTo(y.avg.RecallExcludingFailed ?? NaN, 12);
  }
}

describe('failed requests', () => {
  it('knows the error record, and nothing else, as one', () => {
    const err = { prediction: [], reasoning: 'Error: 429 Too Many Requests', personaSummary: '' };
    expect(isErrorRecord(err)).toBe(true);
    expect(isErrorRecord({ ...err, prediction: ['#a#'] })).toBe(false);
    expect(isErrorRecord({ ...err, personaSummary: 'p' })).toBe(false);
    expect(isErrorRecord({ ...err, reasoning: 'The posts are empty.' })).toBe(false);
  });

  it('matches the independent Python on the sample', () => {
    const a = ours(SAMPLE);
    expectSame(a, python(SAMPLE));
    expect(a['demo-llm'].failed).toBeGreaterThan(0);
  });

  it('matches it on planted error records (a user whose every step failed), cached and not', () => {
    const dir = join(tmp, 'bench');
    cpSync(SAMPLE, dir, { recursive: true });
    const file = join(dir, 'results', 'random', 'inference_results_weibo.jsonl');
    const rows = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => loads(l) as { steps: { prediction: unknown[]; reasoning: string; persona_summary: string }[] });
    const fail = (s: (typeof rows)[number]['steps'][number]) =>
      Object.assign(s, { prediction: [], reasoning: 'Error: Connection error.', persona_summary: '' });
    rows[0].steps.forEach(fail); // every step of the first user
    fail(rows[1].steps[0]);
    // an empty reply that is no error record: counted as a step, not as a failure
    Object.assign(rows[2].steps[0], { prediction: [], reasoning: 'nothing fits', persona_summary: 'p' });
    writeFileSync(file, rows.map((r) => pyJsonDumps(r)).join('\n') + '\n');
    const a = ours(dir);
    expectSame(a, python(dir));
    expectSame(ours(dir, ['--no-cache']), a);
    const weibo = a.random.platforms.weibo;
    expect(weibo.failed).toBe(rows[0].steps.length + 1);
    expect(weibo.RecallExcludingFailed).not.toBe(weibo.Recall);
    const text = execFileSync(process.execPath, [CLI, 'score', dir], { encoding: 'utf8' });
    expect(text).toContain(`random: ${a.random.failed} of ${a.random.steps} steps; Avg. R `);
    // a note over 120 columns goes on, indented, on the next line
    expect(text.replace(/\n {6}/g, ' ')).toContain(EXCLUDING_FAILED);
  });
});
