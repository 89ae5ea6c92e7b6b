// Samples: seeded and stratified (same seed, same users), by signature from a base run's scores, saved and read
// back with located messages, and checked against the benchmark they are used on.
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { allocate, drawSample, userSignature } from '../../src/core/spb/experiments/sample';
import { samplePath, writeSample } from '../../src/core/experiments/sampleFile';
import { checkSample, newSample, readSample } from '../../src/core/spb/experiments/sampleFile';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { runCommand, UsageError } from '../../src/cli/commands';
import { writeTinyBench } from '../support/tinyBench';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
  vi.restoreAllMocks();
});

function bench(users: Record<string, number> = { weibo: 20, xiaohongshu: 10, zhihu: 6 }) {
  const root = writeTinyBench({ users, steps: 4 }, 'exp-sample-');
  roots.push(root);
  return root;
}

/** A base run where weibo user u picks: u % 3 == 0 a decay tag at step 1, u % 3 == 1 nothing at step 1. */
function writeBaseRun(root: string, n: number): void {
  const dir = join(root, 'results', 'base');
  mkdirSync(dir, { recursive: true });
  const lines = [];
  for (let u = 0; u < n; u++) {
    const id = `we_${String(u).padStart(10, '0')}`;
    const steps = [1, 2, 4].map((s) => {
      const good = [`#k${u}${s}#`, `#n${u}${s}#`];
      const prediction = s === 1 && u % 3 === 0 ? [`#d${u}${s}#`, good[0]] : s === 1 && u % 3 === 1 ? [] : good;
      return { step_id: s, prediction };
    });
    lines.push(JSON.stringify({ user_id: id, platform: 'weibo', username: `U_0${u}`, steps }));
  }
  writeFileSync(join(dir, 'inference_results_weibo.jsonl'), lines.join('\n') + '\n');
}

describe('allocate', () => {
  it('gives each non-empty stratum one, the rest by largest remainder', () => {
    expect(allocate([20, 10, 6], 9)).toEqual([4, 3, 2]);
    expect(allocate([20, 0, 6], 2)).toEqual([1, 0, 1]);
    expect(allocate([5, 3], 100)).toEqual([5, 3]);
    // fewer users than strata: proportional only
    expect(allocate([20, 10, 6], 1)).toEqual([1, 0, 0]);
  });
});

describe('drawSample', () => {
  it('is the same for the same seed, differs for another, and keeps every platform', async () => {
    const b = await loadBenchmark(bench());
    const a1 = drawSample(b, { users: 9, seed: 7 });
    const a2 = drawSample(b, { users: 9, seed: 7 });
    const other = drawSample(b, { users: 9, seed: 8 });
    expect(a2.users).toEqual(a1.users);
    expect(other.users).not.toEqual(a1.users);
    expect(a1.strata.map((s) => [s.key, s.population, s.drawn])).toEqual([
      ['weibo', 20, 4],
      ['xiaohongshu', 10, 3],
      ['zhihu', 6, 2],
    ]);
    expect(a1.users.weibo).toHaveLength(4);
    // in file order, no duplicates
    const order = [...b.users.get('weibo')!.keys()];
    const idx = a1.users.weibo!.map((id) => order.indexOf(id));
    expect(idx).toEqual([...idx].sort((x, y) => x - y));
    expect(new Set(idx).size).toBe(4);
  });

  it('by signature: strata from the base run scores, through the core scoring', async () => {
    const root = bench({ weibo: 9 });
    writeBaseRun(root, 9);
    const b = await loadBenchmark(root);
    const run = b.runs.get('base')!;
    const sigs = [...b.users.get('weibo')!.values()].map((u) => userSignature(run, u));
    expect(sigs).toEqual(['decay', 'r0', 'clean', 'decay', 'r0', 'clean', 'decay', 'r0', 'clean']);
    const s = drawSample(b, { users: 3, seed: 1, by: 'signature', baseRun: run });
    expect(s.baseRun).toBe('base');
    expect(s.strata.map((x) => [x.key, x.population, x.drawn])).toEqual([
      ['weibo/decay', 3, 1],
      ['weibo/r0', 3, 1],
      ['weibo/clean', 3, 1],
    ]);
    const picked = s.users.weibo!.map((id) => userSignature(run, b.users.get('weibo')!.get(id)!));
    expect(picked.sort()).toEqual(['clean', 'decay', 'r0']);
    expect(() => drawSample(b, { users: 3, seed: 1, by: 'signature' })).toThrow(/needs a base run/);
  });
});

describe('sample files', () => {
  it('round-trips, never overwrites, and reports a changed tasks file and missing users', async () => {
    const root = bench();
    const b = await loadBenchmark(root);
    const sample = newSample(b, 's1', drawSample(b, { users: 5, seed: 3 }));
    const path = writeSample(root, sample);
    expect(path).toBe(join(root, '.personalab', 'samples', 's1.json'));
    expect(readSample(root, 's1')).toEqual(sample);
    expect(() => writeSample(root, sample)).toThrow(/exists; choose another sample name/);
    expect(checkSample(b, sample)).toEqual({ errors: [], warnings: [] });

    appendFileSync(join(root, 'data', 'weibo_inference_tasks.jsonl'), '\n');
    const changed = checkSample(b, sample);
    expect(changed.warnings).toEqual([
      expect.stringMatching(/s1\.json: tasks\.weibo: data\/weibo_inference_tasks\.jsonl changed since the sample/),
    ]);

    const gone = { ...sample, users: { ...sample.users, weibo: ['we_nobody', ...sample.users.weibo!] } };
    expect(checkSample(b, gone).errors).toEqual([
      `${path}: users.weibo: 1 user(s) not in data/weibo_inference_tasks.jsonl: we_nobody`,
    ]);
  });

  it('says where a sample file is wrong', async () => {
    const root = bench({ weibo: 2 });
    const b = await loadBenchmark(root);
    const sample = newSample(b, 'bad', drawSample(b, { users: 2, seed: 1 }));
    const path = writeSample(root, sample);
    const json = JSON.parse(readFileSync(path, 'utf8')) as { users: { weibo: unknown[] } };
    json.users.weibo[1] = 42;
    writeFileSync(path, JSON.stringify(json));
    expect(() => readSample(root, 'bad')).toThrow(`${path}: users.weibo[1]: expected a string`);
    writeFileSync(path, '{"format": "persona-lab-sample",');
    expect(() => readSample(root, 'bad')).toThrow(new RegExp(`^${path.replace(/[.]/g, '\\.')}: not JSON: `));
    expect(() => readSample(root, 'nope')).toThrow(/nope\.json: no such sample \(samples: bad\)/);
  });
});

describe('persona-lab sample', () => {
  it('writes the sample and prints its strata', async () => {
    const root = bench();
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((t) => (out.push(String(t)), true));
    expect(await runCommand('sample', [root], { users: '6', seed: '11', out: 'cli' })).toBe(0);
    const s = readSample(root, 'cli');
    expect(s.seed).toBe(11);
    expect(Object.values(s.users).flat()).toHaveLength(6);
    expect(out.join('')).toContain(`wrote ${samplePath(root, 'cli')}: 6 users, 24 steps (seed 11, by platform)`);
  });

  it('refuses bad options with the option named', async () => {
    const root = bench({ weibo: 2 });
    const usage = (opts: Record<string, string>) => runCommand('sample', [root], { out: 'x', ...opts });
    await expect(usage({ users: '0' })).rejects.toThrow(
      new UsageError('--users: expected a whole number ≥ 1, got "0"'),
    );
    await expect(usage({ users: '2', seed: '-1' })).rejects.toThrow(/--seed: expected a whole number ≥ 0/);
    await expect(usage({ users: '2', by: 'mood' })).rejects.toThrow(/--by: expected one of platform, signature/);
    await expect(usage({ users: '2', by: 'signature' })).rejects.toThrow(/--by signature needs --base-run/);
    await expect(usage({ users: '2', out: '../x' })).rejects.toThrow(/--out \.\.\/x: letters, digits/);
    await expect(usage({ users: '2', 'base-run': 'nope', by: 'signature' })).rejects.toThrow(/no run "nope"/);
  });
});
