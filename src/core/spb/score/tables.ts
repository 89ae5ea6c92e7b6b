// The `score --json` contract, the paper's Avg. as stats.py computes it, and the reference eval report text.
import type { memoryJson } from './tagMemory';
import type { failedJson } from './failedRequests';
import { excelFixed, pyPercent, pyPercentFixed } from '../../io/pyNumber';
import type { RunScore } from './run';
import { runCoverageJson } from './coverage';
import { METRIC_KEYS, type MetricKey, type Platform } from '../types';
import { PLATFORM_LABELS } from '../names';
import type { RunOrigin } from '../prompt/runOrigin';

export { PLATFORM_LABELS };

const orNull = (x: number) => (Number.isFinite(x) ? x : null);

export interface ScoreJson {
  /** present when the figures are over a sample's users only (score --sample) */
  sample?: { name: string; users: number };
  runs: {
    name: string;
    platforms: Record<string, Record<string, number | null>>;
    avg: Record<string, number | null>;
    /** what the figures cover: users and steps with a result, in all and per platform (docs/scoring.md) */
    coverage: ReturnType<typeof runCoverageJson>;
    /** set by `score --json`: what prompt made the run (null: not made by Persona Lab, e.g. a released run) */
    origin?: RunOrigin | null;
    /** set by `score --json`: steps with the reference's error record, and R̄ with and without them */
    failedRequests?: ReturnType<typeof failedJson>;
    /** set by `score --json --memory`: persona memory, our reading */
    memory?: ReturnType<typeof memoryJson>;
  }[];
}

export function scoreJson(scores: readonly RunScore[], sample?: { name: string; users: number }): ScoreJson {
  return {
    ...(sample ? { sample } : {}),
    runs: scores.map((s) => {
      const platforms: Record<string, Record<string, number | null>> = {};
      for (const [platform, p] of s.platforms) {
        const row: Record<string, number | null> = { users: p.users, steps: p.steps };
        for (const key of METRIC_KEYS) row[key] = orNull(p.metrics[key]);
        row.F1NS = orNull(p.f1ns);
        platforms[platform] = row;
      }
      const avg: Record<string, number | null> = {};
      for (const key of METRIC_KEYS) avg[key] = orNull(s.avg[key]);
      avg.F1NS = orNull(s.avg.F1NS);
      return { name: s.name, platforms, avg, coverage: runCoverageJson(s.coverage) };
    }),
  };
}

// stats.py's task_order: the order in which it sums a model's platform figures.
const STATS_ORDER: readonly Platform[] = ['zhihu', 'weibo', 'toutiao', 'xiaohongshu', 'douban'];

/**
 * "Avg." as the authors' stats.py computes the paper's: the mean, in percent, of the platform figures as the eval
 * reports print them (f"{v:.2%}", read back with float()), over the platforms whose report has the figure (an `N/A`
 * line does not match its regex). Undefined when none has. `RunScore.avg` is the unrounded mean, which the JSON keeps.
 */
export function statsAvg(score: RunScore, key: MetricKey | 'F1NS'): number | undefined {
  const held: number[] = [];
  for (const p of STATS_ORDER) {
    const ps = score.platforms.get(p);
    const v = ps ? (key === 'F1NS' ? ps.f1ns : ps.metrics[key]) : NaN;
    if (Number.isFinite(v)) held.push(Number(pyPercentFixed(v, 2)));
  }
  return held.length ? held.reduce((s, x) => s + x, 0) / held.length : undefined;
}

/** The Avg. cell's text: stats.py's mean as its xlsx shows it (number format "0.00"), or "—". */
export function statsAvgText(score: RunScore, key: MetricKey | 'F1NS'): string {
  const v = statsAvg(score, key);
  return v === undefined ? '—' : excelFixed(v, 2);
}

/**
 * `eval_report_<platform>.txt` byte for byte as the reference runner writes it (`BenchEvaluator.print_report` in
 * bench_inference.py of WaterWang-001/StreamProfileBench): `=` rules of 50 around each section title, the M̄ block,
 * `Users: N  |  Total Steps: M` (users with at least one scored step, scored steps), the F1^NS section, lines joined
 * with `\n` and no final newline. Its `stats.py` reads the M̄ block with `Overall Macro Average.*?\n=+\n(.*?)\n\s*Users:`.
 */
export function evalReport(score: RunScore, platform: Platform): string | null {
  const p = score.platforms.get(platform);
  if (!p) return null;
  const section = (title: string) => `\n${'='.repeat(50)}\n${title}\n${'='.repeat(50)}`;
  const lines = [
    section('Overall Macro Average (M\u0304)'),
    ...METRIC_KEYS.map((k) => `  ${k.padEnd(25)}: ${pyPercent(p.metrics[k])}`),
    `\nUsers: ${p.users}  |  Total Steps: ${p.steps}`,
    section('F1^NS \u2014 Novelty-Stability Harmonic Mean'),
    `  F1^NS                    : ${pyPercent(p.f1ns)}`,
  ];
  return lines.join('\n');
}
