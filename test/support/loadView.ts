// What a user sees of a StreamProfileBench load, for comparing a warm open (through the persistent index) with a
// cold one: every run's scores first (a warm open scores from the index's pick tables, before any row is read
// back), then the users, every results map as a plain Map (a warm open's are LazyResults), and the problems.
import { scoreRun } from '../../src/core/spb/score/run';
import type { Benchmark } from '../../src/core/spb/types';

export function loadView(bench: Benchmark) {
  const scores = [...bench.runs.values()].map((run) => scoreRun(bench, run));
  const runs = [...bench.runs.values()].map((run) => ({
    ...run,
    results: new Map([...run.results].map(([platform, rows]) => [platform, new Map(rows)])),
  }));
  return { scores, users: bench.users, runs, diagnostics: bench.diagnostics };
}
