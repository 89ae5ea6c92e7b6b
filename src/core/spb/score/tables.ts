// The paper's tables (4, 5, 6) as text, the `score --json` contract, and the reference eval report text.
import type { memoryJson } from './personaMemory';
import type { failedJson } from './failedRequests';
import { excelFixed, pyPercent, pyPercentFixed } from '../../io/pyNumber';
import { pctText } from '../../tables/format';
import type { RunScore } from './run';
import { METRIC_KEYS, PLATFORMS, type MetricKey, type Platform } from '../types';
import { METRIC_NAMES } from '../names';
import type { RunOrigin } from '../prompt/runOrigin';

export const PLATFORM_LABELS: Record<Platform, string> = {
  weibo: 'Weibo',
  xiaohongshu: 'Xiaohongshu',
  toutiao: 'Toutiao',
  zhihu: 'Zhihu',
  douban: 'Douban',
};

const orNull = (x: number) => (Number.isFinite(x) ? x : null);

export interface ScoreJson {
  /** present when the figures are over a sample's users only (score --sample) */
  sample?: { name: string; users: number };
  runs: {
    name: string;
    platforms: Record<string, Record<string, number | null>>;
    avg: Record<string, number | null>;
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
      return { name: s.name, platforms, avg };
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

interface Column {
  head: string;
  value: (s: RunScore) => number | undefined;
  /** the cell's text when it is not the value's percentage (the Avg. columns) */
  text?: (s: RunScore) => string;
}

function platformColumns(scores: readonly RunScore[]): Platform[] {
  return PLATFORMS.filter((p) => scores.some((s) => s.platforms.has(p)));
}

function renderTable(title: string, scores: readonly RunScore[], columns: Column[]): string {
  const header = ['Run', ...columns.map((c) => c.head)];
  const rows = scores.map((s) => [s.name, ...columns.map((c) => (c.text ? c.text(s) : pctText(c.value(s))))]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [title, fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n');
}

/** Table 4: Recall and F1^NS per platform plus Avg.; Table 5: R_stab and R_nov; Table 6: the four error rates. */
export function paperTables(scores: readonly RunScore[]): string {
  const platforms = platformColumns(scores);
  const per = (key: (typeof METRIC_KEYS)[number] | 'F1NS', short: string): Column[] => [
    ...platforms.map((p) => ({
      head: `${PLATFORM_LABELS[p]} ${short}`,
      value: (s: RunScore) => {
        const ps = s.platforms.get(p);
        return ps ? (key === 'F1NS' ? ps.f1ns : ps.metrics[key]) : undefined;
      },
    })),
  ];
  const interleave = (a: Column[], b: Column[]) => a.flatMap((c, i) => [c, b[i]]);
  const t4 = interleave(per('Recall', 'R'), per('F1NS', METRIC_NAMES.F1NS.short));
  const avg = (head: string, key: MetricKey | 'F1NS'): Column => ({
    head,
    value: (s) => statsAvg(s, key),
    text: (s) => statsAvgText(s, key),
  });
  t4.push(avg('Avg. R', 'Recall'), avg('Avg. F1^NS', 'F1NS'));
  const t5 = interleave(per('Recall_Stability', 'R_stab'), per('Recall_Novelty', 'R_nov'));
  t5.push(avg('Avg. R_stab', 'Recall_Stability'), avg('Avg. R_nov', 'Recall_Novelty'));
  const t6: Column[] = [];
  for (const p of platforms) {
    for (const [key, short] of [
      ['Error_Decay', METRIC_NAMES.Error_Decay.short],
      ['Error_Peer', METRIC_NAMES.Error_Peer.short],
      ['Error_Viral', METRIC_NAMES.Error_Viral.short],
      ['Error_Random', METRIC_NAMES.Error_Random.short],
    ] as const) {
      t6.push({ head: `${PLATFORM_LABELS[p]} ${short}`, value: (s) => s.platforms.get(p)?.metrics[key] });
    }
  }
  return [
    renderTable('Table 4. Recall and F1^NS (%), two-level macro average', scores, t4),
    renderTable('Table 5. Stability and novelty recall (%)', scores, t5),
    renderTable('Table 6. Error rates by distractor class (%)', scores, t6),
  ].join('\n\n');
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
