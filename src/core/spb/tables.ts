// The paper's tables (4, 5, 6) as text, the `score --json` contract, and the reference eval report text.
import { pyPercent } from '../io/pyNumber';
import type { RunScore } from './score/run';
import { METRIC_KEYS, PLATFORMS, type Platform } from './types';
import { METRIC_NAMES } from './names';

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

const pct = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '—' : (100 * x).toFixed(2));

interface Column {
  head: string;
  value: (s: RunScore) => number | undefined;
}

function platformColumns(scores: readonly RunScore[]): Platform[] {
  return PLATFORMS.filter((p) => scores.some((s) => s.platforms.has(p)));
}

function renderTable(title: string, scores: readonly RunScore[], columns: Column[]): string {
  const header = ['Run', ...columns.map((c) => c.head)];
  const rows = scores.map((s) => [s.name, ...columns.map((c) => pct(c.value(s)))]);
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
  t4.push({ head: 'Avg. R', value: (s) => s.avg.Recall }, { head: 'Avg. F1^NS', value: (s) => s.avg.F1NS });
  const t5 = interleave(per('Recall_Stability', 'R_stab'), per('Recall_Novelty', 'R_nov'));
  t5.push(
    { head: 'Avg. R_stab', value: (s) => s.avg.Recall_Stability },
    { head: 'Avg. R_nov', value: (s) => s.avg.Recall_Novelty },
  );
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
