// A figures-only benchmark (format/figuresOnly.ts) as plain data, so that a worker thread can hand what a cold
// `score` computes to the extension host: per tasks file its users' count and totals, per results file its row count
// and figures, and the problems found. Rebuilt on the other side with the same keepTotals and keepFigures a
// figures-only load uses, it scores as that load does (scoreRun, runCoverage and failedRequests read the attached
// figures), and reading a user or a row of it is an error that says so.
import { isDiagnostic } from '../../io/diagnostics';
import { arrayOf, count, num, object, oneOf, recordOf, refine, str, type Guard, type Infer } from '../../guards';
import { figuresOf, totalsOf, type PlatformFigures } from '../score/stored';
import { LazyResults } from './lazyResults';
import { keepFigures, keepTotals } from './figuresOnly';
import { emptyBenchmark, METRIC_KEYS, PLATFORMS, type Benchmark, type Run } from '../types';

const isMetrics = refine(recordOf(num), (m) => METRIC_KEYS.every((k) => k in m));
const isCoverageCount = object({ covered: count, total: count });

const isPlatformFigures: Guard<PlatformFigures> = object({
  score: object({ users: count, steps: count, metrics: isMetrics, f1ns: num, f1nsHarmonicOfMeans: num }),
  coverage: object({ users: isCoverageCount, items: isCoverageCount, key: str }),
  failed: object({ failed: count, steps: count, recallExcludingFailed: num }),
}) as Guard<PlatformFigures>;

const platform = oneOf(PLATFORMS);

export const isFiguresSummary = object({
  root: str,
  diagnostics: arrayOf(isDiagnostic),
  tasks: arrayOf(object({ platform, rel: str, count, totals: object({ users: count, steps: count }) })),
  runs: arrayOf(
    object({
      name: str,
      files: arrayOf(object({ platform, rel: str, rows: count, figures: isPlatformFigures })),
    }),
  ),
});

export type FiguresSummary = Infer<typeof isFiguresSummary>;

/** The summary of a benchmark a figures-only load made; throws if some map of it carries no figures. */
export function summarizeFigures(bench: Benchmark): FiguresSummary {
  const tasks: FiguresSummary['tasks'] = [];
  for (const [p, users] of bench.users) {
    const totals = totalsOf(users);
    const rel = bench.taskFiles.get(p);
    if (!totals || rel === undefined) throw new Error(`${p}: not from a figures-only load`);
    tasks.push({ platform: p, rel, count: users.size, totals: { ...totals } });
  }
  const runs = [...bench.runs.values()].map((run) => ({
    name: run.name,
    files: [...run.results].map(([p, results]) => {
      const figures = figuresOf(results, bench.users.get(p));
      const rel = run.files.get(p);
      if (!figures || rel === undefined || !(results instanceof LazyResults))
        throw new Error(`${run.name}/${p}: not from a figures-only load`);
      return { platform: p, rel, rows: results.rows, figures };
    }),
  }));
  return { root: bench.root, diagnostics: [...bench.diagnostics], tasks, runs };
}

/** The figures-only benchmark a summary describes: its figures are the summarised load's, and it keeps no rows. */
export function benchFromSummary(s: FiguresSummary): Benchmark {
  const bench = emptyBenchmark(s.root, s.diagnostics);
  for (const t of s.tasks) {
    bench.users.set(t.platform, keepTotals(t.rel, t.count, t.totals));
    bench.taskFiles.set(t.platform, t.rel);
  }
  for (const r of s.runs) {
    const run: Run = { name: r.name, results: new Map(), files: new Map() };
    for (const f of r.files) {
      const users = bench.users.get(f.platform);
      if (!users) continue;
      run.results.set(f.platform, keepFigures(f.rel, f.platform, users, { figures: f.figures, rows: f.rows }));
      run.files.set(f.platform, f.rel);
    }
    bench.runs.set(r.name, run);
  }
  return bench;
}
