// "Why runs fail": each run's gold labels counted per label, so that runs compare on the same settled units. Only
// settled units count (adjudicated, or unanimous between two or more annotators); a unit still open or labelled by
// one annotator is not gold, and the figure says how many of the run's labelled units it leaves out. A share is of
// the run's settled units that carry at least one failure label (an empty gold set says "no failure label applies").
import type { GoldBenchmark, GoldReport } from './goldReport';

export interface LabelCount {
  label: string;
  count: number;
  /** count / failing; null when the run has no failing unit. */
  share: number | null;
}

export interface RunFailures {
  benchmark: string;
  run: string;
  /** Units of the run someone labelled or decided. */
  units: number;
  /** Of them, adjudicated or unanimous. */
  settled: number;
  /** Settled units whose gold set holds at least one label. */
  failing: number;
  /** Units left out: annotators differ with no decision, or one annotator only. */
  open: number;
  single: number;
  /** Every label found in the benchmark's gold, most frequent over all runs first; a run without it counts 0. */
  byLabel: LabelCount[];
}

function ofBenchmark(b: GoldBenchmark): RunFailures[] {
  const runs = new Map<string, RunFailures>();
  const total = new Map<string, number>();
  const counts = new Map<string, Map<string, number>>();
  for (const u of b.units) {
    let r = runs.get(u.ref.run);
    if (!r) {
      r = { benchmark: b.benchmark, run: u.ref.run, units: 0, settled: 0, failing: 0, open: 0, single: 0, byLabel: [] };
      runs.set(u.ref.run, r);
      counts.set(u.ref.run, new Map());
    }
    r.units++;
    if (u.status === 'open' || u.status === 'single') {
      r[u.status]++;
      continue;
    }
    r.settled++;
    const gold = u.gold ?? [];
    if (gold.length > 0) r.failing++;
    const mine = counts.get(u.ref.run)!;
    for (const label of gold) {
      mine.set(label, (mine.get(label) ?? 0) + 1);
      total.set(label, (total.get(label) ?? 0) + 1);
    }
  }
  const labels = [...total].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map(([label]) => label);
  return [...runs.values()]
    .sort((x, y) => (x.run < y.run ? -1 : x.run > y.run ? 1 : 0))
    .map((r) => ({
      ...r,
      byLabel: labels.map((label) => {
        const count = counts.get(r.run)!.get(label) ?? 0;
        return { label, count, share: r.failing > 0 ? count / r.failing : null };
      }),
    }));
}

/** Per benchmark of the report, its runs (sorted by name) with their gold labels counted. */
export function whyRunsFail(report: GoldReport): RunFailures[] {
  return report.benchmarks.flatMap(ofBenchmark);
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${(100 * x).toFixed(1)}%`);

/** The table `labels gold` prints: one block per benchmark, a row per run and label. */
export function formatWhyRunsFail(
  rows: readonly RunFailures[],
  names: ReadonlyMap<string, string> = new Map(),
): string {
  const out: string[] = [];
  for (const benchmark of [...new Set(rows.map((r) => r.benchmark))]) {
    const mine = rows.filter((r) => r.benchmark === benchmark);
    if (!mine.some((r) => r.settled > 0)) continue;
    out.push(
      '',
      `Why runs fail in ${benchmark} (settled units only: a share is of the run's settled units with a failure label):`,
    );
    for (const r of mine) {
      const left = r.open + r.single;
      out.push(
        `  ${r.run}: ${r.failing} failing of ${r.settled} settled` +
          (left > 0 ? ` (${left} of its ${r.units} labelled units not settled, left out)` : ''),
      );
      for (const c of r.byLabel)
        if (c.count > 0) out.push(`    ${names.get(c.label) ?? c.label}  ${c.count}  ${pct(c.share)}`);
    }
  }
  return out.join('\n');
}
