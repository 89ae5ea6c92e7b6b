// `score --write-reports` writes eval_report_<platform>.txt byte for byte as the reference runner does, and the
// reference's stats.py reads every figure back. The reference side is test/reference/spb_report.py (the rules of
// BenchEvaluator.print_report and stats.py's parse_report_file). `npm test` builds dist/ first.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pyPercent } from '../../src/core/io/pyNumber';
import { SAMPLE } from '../support/committedSample';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist/cli.js');
const REPORT = join(ROOT, 'test/reference/spb_report.py');
const GEN = join(ROOT, 'test/reference/make_random_bench.py');
const work = mkdtempSync(join(tmpdir(), 'pl-report-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface ScoreJson {
  runs: { name: string; platforms: Record<string, Record<string, number | null>> }[];
}

/** Our reports (through the CLI, as a user runs it) and the reference's, as { "<run>/<file>": text }. */
function bothReports(bench: string): { ours: Map<string, string>; ref: Map<string, string>; json: ScoreJson } {
  const r = spawnSync(process.execPath, [CLI, 'score', bench, '--json', '--write-reports'], { encoding: 'utf8' });
  expect([0, 1], r.stderr).toContain(r.status);
  const refOut = join(work, `ref-${Math.random().toString(36).slice(2)}`);
  const written = JSON.parse(
    execFileSync('python3', [REPORT, 'write', bench, refOut], { encoding: 'utf8' }),
  ) as string[];
  const ours = new Map<string, string>();
  const ref = new Map<string, string>();
  for (const rel of written) {
    ref.set(rel, readFileSync(join(refOut, rel), 'utf8'));
    ours.set(rel, readFileSync(join(bench, 'results', rel), 'utf8'));
  }
  for (const run of readdirSync(join(bench, 'results'))) {
    for (const f of readdirSync(join(bench, 'results', run))) {
      if (f.startsWith('eval_report_'))
        expect(ref.has(`${run}/${f}`), `the reference writes no ${run}/${f}`).toBe(true);
    }
  }
  return { ours, ref, json: JSON.parse(r.stdout) as ScoreJson };
}

function checkBench(bench: string): number {
  const { ours, ref, json } = bothReports(bench);
  expect(ref.size).toBeGreaterThan(0);
  for (const [rel, text] of ref) expect(ours.get(rel), rel).toBe(text);
  // stats.py reads every figure back, equal to the JSON figure rounded as the report rounds it.
  const files = [...ours.keys()].map((rel) => join(bench, 'results', rel));
  const read = JSON.parse(execFileSync('python3', [REPORT, 'read', ...files], { encoding: 'utf8' })) as Record<
    string,
    Record<string, number>
  >;
  for (const run of json.runs) {
    for (const [platform, fig] of Object.entries(run.platforms)) {
      const got = read[join(bench, 'results', run.name, `eval_report_${platform}.txt`)];
      for (const key of [
        'Recall',
        'Recall_Novelty',
        'Recall_Stability',
        'Error_Decay',
        'Error_Peer',
        'Error_Viral',
        'Error_Random',
        'F1NS',
      ]) {
        const want = fig[key];
        const name = key === 'F1NS' ? 'F1^NS' : key;
        if (want === null) expect(got[name], `${run.name}/${platform} ${name} is N/A`).toBeUndefined();
        else expect(got[name], `${run.name}/${platform} ${name}`).toBe(Number(pyPercent(want).slice(0, -1)));
      }
    }
  }
  // The tables' Avg. cells are stats.py's Avg. of those reports, as its xlsx shows them.
  const avg = JSON.parse(
    execFileSync('python3', [REPORT, 'avg', join(bench, 'results')], { encoding: 'utf8' }),
  ) as Record<string, Record<string, string>>;
  const csv = spawnSync(process.execPath, [CLI, 'score', bench, '--format', 'csv'], { encoding: 'utf8' }).stdout;
  const AVG_COLUMNS: Record<string, string> = {
    'Avg. R': 'Recall',
    'Avg. F1^NS': 'F1^NS',
    'Avg. R_stab': 'Recall_Stability',
    'Avg. R_nov': 'Recall_Novelty',
  };
  let cells = 0;
  let head: string[] = [];
  for (const line of csv.split(/\r?\n/).filter(Boolean)) {
    const row = line.split(',');
    if (row[0] === 'Run') {
      head = row;
      continue;
    }
    head.forEach((h, i) => {
      const metric = AVG_COLUMNS[h];
      if (!metric) return;
      cells++;
      expect(row[i], `${row[0]} ${h}`).toBe(avg[row[0]]?.[metric] ?? '');
    });
  }
  expect(cells).toBe(4 * json.runs.length);
  return ref.size;
}

function writeJsonl(path: string, rows: unknown[]): void {
  mkdirSync(resolve(path, '..'), { recursive: true });
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

const meta = (m: Partial<Record<'T_keep' | 'T_new' | 'D_decay' | 'D_cluster' | 'D_viral' | 'D_random', string[]>>) => ({
  T_keep: [],
  T_new: [],
  D_decay: [],
  D_cluster: [],
  D_viral: [],
  D_random: [],
  ...m,
});

describe('eval_report_<platform>.txt', () => {
  it('matches the reference byte for byte on sample/', () => {
    const bench = join(work, 'sample');
    cpSync(SAMPLE, bench, { recursive: true });
    expect(checkBench(bench)).toBeGreaterThanOrEqual(5);
  });

  it('matches on edge cases: a platform with no scored step, NaN metrics, users left out of F1^NS', () => {
    const bench = join(work, 'edges');
    const user = (id: string, platform: string, metas: ReturnType<typeof meta>[]) => ({
      user_id: id,
      platform,
      username: 'U_00000000',
      total_steps: metas.length,
      prediction_tasks: metas.map((m, i) => ({
        step_id: i + 1,
        total_steps: metas.length,
        candidate_pool: Object.values(m).flat(),
        meta: m,
      })),
    });
    const result = (id: string, platform: string, preds: string[][]) => ({
      user_id: id,
      platform,
      username: 'U_00000000',
      steps: preds.map((p, i) => ({ step_id: i + 1, prediction: p, metrics: null })),
    });
    // weibo: no step has a positive, so nothing is scored and every figure is N/A.
    writeJsonl(join(bench, 'data/weibo_inference_tasks.jsonl'), [
      user('we_0000000001', 'weibo', [meta({ D_decay: ['a'] }), meta({ D_viral: ['b'] })]),
    ]);
    writeJsonl(join(bench, 'results/run-a/inference_results_weibo.jsonl'), [
      result('we_0000000001', 'weibo', [['a'], ['b']]),
    ]);
    // douban: one user with T_new only (R_S NaN: left out of F1^NS), one with a = b = 0, one that counts; no D_random.
    writeJsonl(join(bench, 'data/douban_inference_tasks.jsonl'), [
      user('do_0000000001', 'douban', [meta({ T_new: ['n1', 'n2'], D_decay: ['d'] })]),
      user('do_0000000002', 'douban', [meta({ T_new: ['n1'], T_keep: ['k1'], D_cluster: ['p'] })]),
      user('do_0000000003', 'douban', [
        meta({ T_new: ['n1', 'n2', 'n3'], T_keep: ['k1', 'k2'], D_viral: ['v'] }),
        meta({ T_keep: ['k3'], D_decay: ['d'] }),
      ]),
    ]);
    writeJsonl(join(bench, 'results/run-a/inference_results_douban.jsonl'), [
      result('do_0000000001', 'douban', [['n1', 'd']]),
      result('do_0000000002', 'douban', [['p']]),
      result('do_0000000003', 'douban', [['n1', 'k1', 'v'], ['k3']]),
    ]);
    expect(checkBench(bench)).toBe(2);
    const weibo = readFileSync(join(bench, 'results/run-a/eval_report_weibo.txt'), 'utf8');
    expect(weibo).toContain('Users: 0  |  Total Steps: 0');
    expect(weibo).toContain('  Recall                   : N/A');
    expect(readFileSync(join(bench, 'results/run-a/eval_report_douban.txt'), 'utf8')).toContain(
      'Users: 3  |  Total Steps: 4',
    );
  });

  for (const seed of [1, 2, 3]) {
    it(`matches on the random adversarial benchmark of seed ${seed}`, () => {
      const bench = join(work, `seed-${seed}`);
      execFileSync('python3', [GEN, bench, '--seed', String(seed)]);
      expect(checkBench(bench)).toBeGreaterThan(0);
    });
  }
});

describe('pyPercent', () => {
  it("agrees with Python's f'{v:.2%}' on exact ties (half to even), near ties and ordinary values", () => {
    const values: number[] = [0, 1, Number.NaN, 1 / 3, 2 / 3, 0.5, 0.1, 0.7, 1e-9, 0.99999, 0.123449999];
    for (let n = 0; n < 800; n++) values.push(n / 800, (n + 0.5) / 800, n / 8 / 100);
    for (let n = 0; n < 400; n++) values.push(((n * 7919) % 1000) / 997);
    const py = execFileSync(
      'python3',
      ['-c', 'import json,sys,math\nfor v in json.load(sys.stdin): print("N/A" if v is None else f"{v:.2%}")'],
      {
        input: JSON.stringify(values.map((v) => (Number.isNaN(v) ? null : v))),
        encoding: 'utf8',
      },
    )
      .trim()
      .split('\n');
    // Exact ties at two decimals: 100·v has a fractional part of an odd number of eighths.
    const ties = values.filter((v) => Number.isInteger(v * 100 * 8) && (v * 100 * 8) % 2 === 1).length;
    expect(ties).toBeGreaterThan(100);
    expect(values.map(pyPercent)).toEqual(py);
  });
});
