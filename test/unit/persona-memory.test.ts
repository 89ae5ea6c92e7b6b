// Persona memory (our reading, docs/scoring.md): on a hand-made chain each kind appears where it was planted (a tag
// forgotten at step 3 and missed at 5, one dropped at 2 and missed at 3, one ignored, one never captured, one found by
// NFKC and case folding, a D_decay pick carried over and two re-inferred, a failed request passed over by the chain,
// a step after a gap left out), and score --json --memory equals the independent Python in
// test/reference/spb_memory.py there and on the sample.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { MEMORY_READING, runMemory, userMemory } from '../../src/core/spb/score/tagMemory';
import { writeMemoryChain } from '../fixtures/memoryChain';
import { OMNI_SAMPLE, SAMPLE } from '../support/committedSample';

const CLI = resolve('dist/cli.js');
const PY = resolve('test/reference/spb_memory.py');
const tmp = mkdtempSync(join(tmpdir(), 'pl-memory-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let root: string;
beforeAll(() => {
  root = join(tmp, 'chain');
  writeMemoryChain(root);
});

type Counts = Record<string, number>;
interface Memory {
  platforms: Record<string, Counts & { forgottenTags: unknown[] }>;
  total: Counts;
}

function ours(dir: string): Record<string, Memory & { reading: string }> {
  const out = JSON.parse(
    execFileSync(process.execPath, [CLI, 'score', dir, '--json', '--memory', '--no-cache'], { encoding: 'utf8' }),
  ) as { runs: { name: string; memory: Memory & { reading: string } }[] };
  return Object.fromEntries(out.runs.map((r) => [r.name, r.memory]));
}

function python(dir: string): Record<string, Memory> {
  return JSON.parse(execFileSync('python3', [PY, dir], { encoding: 'utf8' })) as Record<string, Memory>;
}

const KINDS = [
  'forgotten',
  'ignored',
  'neverCaptured',
  'carriedOver',
  'reInferred',
  'steps',
  'failed',
  'unchained',
  'personasWritten',
];
const pick = (c: Counts) => Object.fromEntries(KINDS.map((k) => [k, c[k]]));

function expectSame(a: Record<string, Memory>, b: Record<string, Memory>): void {
  expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
  for (const [run, x] of Object.entries(a)) {
    expect(pick(x.total), run).toEqual(pick(b[run].total));
    expect(Object.keys(x.platforms).sort(), run).toEqual(Object.keys(b[run].platforms).sort());
    for (const [p, v] of Object.entries(x.platforms)) {
      expect(pick(v), `${run} ${p}`).toEqual(pick(b[run].platforms[p]));
      expect(v.forgottenTags, `${run} ${p}`).toEqual(b[run].platforms[p].forgottenTags);
    }
  }
}

describe('persona memory', () => {
  it('classifies each planted step', async () => {
    const bench = await loadBenchmark(root);
    const user = bench.users.get('weibo')!.get('we_a')!;
    const result = bench.runs.get('m')!.results.get('weibo')!.get('we_a')!;
    const m = userMemory(user, result);
    expect(Object.fromEntries(m)).toEqual({
      1: { status: 'first' },
      2: { status: 'classified', missed: [], decayPicks: [] },
      3: {
        status: 'classified',
        missed: [{ tag: '#摄影#', kind: 'forgotten', droppedAt: 2 }],
        decayPicks: [{ tag: '#旧爱#', kind: 'reInferred' }],
      },
      4: { status: 'failed' },
      5: {
        status: 'classified',
        missed: [
          { tag: '#徒步#', kind: 'forgotten', droppedAt: 3 },
          { tag: '#咖啡#', kind: 'ignored' },
          { tag: '#ＤＯＧ#', kind: 'neverCaptured' },
        ],
        decayPicks: [{ tag: '#新欢#', kind: 'reInferred' }],
      },
      6: {
        status: 'classified',
        missed: [{ tag: '#Cat#', kind: 'ignored' }],
        decayPicks: [{ tag: '#coffee#', kind: 'carriedOver' }],
      },
    });
    const run = runMemory(bench, bench.runs.get('m')!);
    expect(run.total).toEqual({
      forgotten: 2,
      ignored: 2,
      neverCaptured: 1,
      carriedOver: 1,
      reInferred: 2,
      steps: 4,
      failed: 1,
      unchained: 1,
      personasWritten: 7,
    });
    expect(run.platforms.get('weibo')!.forgotten).toEqual([
      { userId: 'we_a', stepId: 3, tag: '#摄影#', droppedAt: 2 },
      { userId: 'we_a', stepId: 5, tag: '#徒步#', droppedAt: 3 },
    ]);
  });

  it('score --json --memory names the reading and gives the shares', () => {
    const m = ours(root).m;
    expect(m.reading).toBe(MEMORY_READING);
    const total = m.total as unknown as { missedTKeep: number; shares: Record<string, number | null> };
    expect(total.missedTKeep).toBe(5);
    expect(total.shares.forgotten).toBeCloseTo(0.4, 12);
    expect(total.shares.carriedOver).toBeCloseTo(1 / 3, 12);
  });

  it('equals the independent Python on the hand-made chain, the sample and generated folders', () => {
    expectSame(ours(root), python(root));
    expectSame(ours(SAMPLE), python(SAMPLE));
    let forgotten = 0;
    for (const seed of [7, 11]) {
      const dir = join(tmp, `gen-${seed}`);
      execFileSync(process.execPath, ['scripts/gen-sample.mjs', '--out', dir, '--seed', String(seed)], {
        stdio: 'ignore',
      });
      const a = ours(dir);
      expectSame(a, python(dir));
      forgotten += Object.values(a).reduce((n, m) => n + m.total.forgotten, 0);
    }
    // The generated runs do forget: the comparison covers that kind too.
    expect(forgotten).toBeGreaterThan(0);
  });

  it('the text tables say which figures are ours, and --memory is refused for OmniBehavior', () => {
    const text = execFileSync(process.execPath, [CLI, 'score', root, '--memory'], { encoding: 'utf8' });
    expect(text).toContain(`Persona memory (${MEMORY_READING}):`);
    expect(text).toContain('m: missed T_keep 5: forgotten 40.0 %, ignored 40.0 %, never captured 20.0 %');
    expect(() =>
      execFileSync(process.execPath, [CLI, 'score', OMNI_SAMPLE, '--memory'], {
        encoding: 'utf8',
        stdio: 'pipe',
      }),
    ).toThrow(/persona memory is of StreamProfileBench runs/);
  });
});
