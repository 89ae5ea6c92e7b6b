// Cross-checks `persona-lab score --json` (dist/cli.js) against the independent Python reference
// scorer in test/reference/spb_reference.py, on sample/ and on seeded adversarial benchmarks.
// `npm test` builds dist/ first.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE } from '../support/committedSample';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const REF = join(ROOT, 'test', 'reference', 'spb_reference.py');
const GEN = join(ROOT, 'test', 'reference', 'make_random_bench.py');
const SEEDS = [1, 2, 3, 4, 5, 11, 42];
const TOL = 1e-9;
const METRIC_KEYS = [
  'Recall',
  'Recall_Novelty',
  'Recall_Stability',
  'Error_Decay',
  'Error_Peer',
  'Error_Viral',
  'Error_Random',
  'F1NS',
];

type Figures = Record<string, unknown>;
interface RunScore {
  name: string;
  platforms: Record<string, Figures>;
  avg: Figures;
}
interface ScoreOut {
  runs: RunScore[];
}

/** Runs a command and returns its stdout. `okStatus` lists non-zero exit codes that still count as success
 * (the CLI exits 1 when the benchmark has errors such as unparseable lines, but still prints the score). */
function run(cmd: string, args: string[], okStatus: number[] = []): string {
  try {
    return execFileSync(cmd, args, {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (e) {
    const err = e as { status?: number; stderr?: string; stdout?: string };
    if (err.status !== undefined && okStatus.includes(err.status) && err.stdout) return err.stdout;
    throw new Error(
      `${cmd} ${args.join(' ')} failed (exit ${err.status}):\n${err.stderr ?? ''}\n${(err.stdout ?? '').slice(0, 2000)}`,
      { cause: e },
    );
  }
}

function parse(label: string, text: string): ScoreOut {
  let out: unknown;
  try {
    out = JSON.parse(text);
  } catch (e) {
    throw new Error(`${label}: output is not JSON (${(e as Error).message}):\n${text.slice(0, 2000)}`, { cause: e });
  }
  if (!out || typeof out !== 'object' || !Array.isArray((out as ScoreOut).runs)) {
    throw new Error(`${label}: output has no "runs" array:\n${text.slice(0, 2000)}`);
  }
  return out as ScoreOut;
}

function compareNumber(where: string, ours: unknown, ref: unknown, diffs: string[]): void {
  if (ref === null || ours === null || ours === undefined) {
    if (ours !== ref) diffs.push(`${where}: CLI=${JSON.stringify(ours)} reference=${JSON.stringify(ref)}`);
    return;
  }
  if (typeof ours !== 'number' || typeof ref !== 'number' || !(Math.abs(ours - ref) <= TOL)) {
    diffs.push(
      `${where}: CLI=${JSON.stringify(ours)} reference=${JSON.stringify(ref)}` +
        (typeof ours === 'number' && typeof ref === 'number' ? ` (|diff|=${Math.abs(ours - ref)})` : ''),
    );
  }
}

function compare(ours: ScoreOut, ref: ScoreOut): string[] {
  const diffs: string[] = [];
  const oNames = ours.runs.map((r) => r.name);
  const rNames = ref.runs.map((r) => r.name);
  if (JSON.stringify(oNames) !== JSON.stringify(rNames)) {
    diffs.push(`run names/order: CLI=${JSON.stringify(oNames)} reference=${JSON.stringify(rNames)}`);
  }
  for (const rr of ref.runs) {
    const or = ours.runs.find((r) => r.name === rr.name);
    if (!or) continue;
    const oPlat = Object.keys(or.platforms ?? {}).sort();
    const rPlat = Object.keys(rr.platforms).sort();
    if (JSON.stringify(oPlat) !== JSON.stringify(rPlat)) {
      diffs.push(`run ${rr.name}: platforms CLI=${JSON.stringify(oPlat)} reference=${JSON.stringify(rPlat)}`);
    }
    for (const p of rPlat) {
      const of = or.platforms?.[p];
      if (!of) continue;
      const rf = rr.platforms[p];
      for (const k of ['users', 'steps']) {
        if (of[k] !== rf[k])
          diffs.push(`run ${rr.name} / ${p} / ${k}: CLI=${JSON.stringify(of[k])} reference=${JSON.stringify(rf[k])}`);
      }
      for (const k of METRIC_KEYS) compareNumber(`run ${rr.name} / ${p} / ${k}`, of[k], rf[k], diffs);
    }
    if (!or.avg) {
      diffs.push(`run ${rr.name}: CLI has no "avg"`);
    } else {
      for (const k of METRIC_KEYS) compareNumber(`run ${rr.name} / avg / ${k}`, or.avg[k], rr.avg[k], diffs);
    }
  }
  return diffs;
}

function crosscheck(dir: string, runArgs: string[] = []): { diffs: string[]; ref: ScoreOut } {
  const ref = parse(`reference on ${dir}`, run('python3', [REF, dir, ...runArgs]));
  const ours = parse(`CLI on ${dir}`, run(process.execPath, [CLI, 'score', dir, '--json', ...runArgs], [1]));
  return { diffs: compare(ours, ref), ref };
}

describe('score --json agrees with the independent Python reference (1e-9)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'spb-crosscheck-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('the reference passes its own hand-computed self-test', () => {
    expect(run('python3', [REF, '--self-test'])).toContain('all checks passed');
  });

  it('dist/cli.js is built', () => {
    expect(existsSync(CLI), `${CLI} missing: run npm run build`).toBe(true);
  });

  it('sample/', () => {
    expect(existsSync(join(SAMPLE, 'data')), 'sample/data is missing: the sample benchmark must exist').toBe(true);
    expect(existsSync(join(SAMPLE, 'results')), 'sample/results is missing: the sample benchmark must exist').toBe(
      true,
    );
    const { diffs, ref } = crosscheck(SAMPLE);
    expect(ref.runs.length, 'sample/ has no runs').toBeGreaterThan(0);
    expect(diffs, `sample/: ${diffs.length} difference(s):\n${diffs.join('\n')}`).toEqual([]);
  });

  it('--run selects runs the same way', () => {
    const dir = join(tmp, 'run-filter');
    run('python3', [GEN, dir, '--seed', '7']);
    const all = crosscheck(dir).ref.runs.map((r) => r.name);
    expect(all.length).toBeGreaterThan(2);
    const pick = [all[2], all[0]];
    const { diffs, ref } = crosscheck(
      dir,
      pick.flatMap((n) => ['--run', n]),
    );
    expect(ref.runs.map((r) => r.name)).toEqual([all[0], all[2]]);
    expect(diffs, `--run ${pick.join(' --run ')}: ${diffs.length} difference(s):\n${diffs.join('\n')}`).toEqual([]);
  });

  for (const seed of SEEDS) {
    it(`random adversarial benchmark, seed ${seed}`, () => {
      const dir = join(tmp, `seed-${seed}`);
      run('python3', [GEN, dir, '--seed', String(seed)]);
      const { diffs, ref } = crosscheck(dir);
      expect(ref.runs.length).toBeGreaterThan(0);
      expect(
        diffs,
        `seed ${seed} (regenerate: python3 test/reference/make_random_bench.py DIR --seed ${seed}): ` +
          `${diffs.length} difference(s):\n${diffs.join('\n')}`,
      ).toEqual([]);
    });
  }
});
