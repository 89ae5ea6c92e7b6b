// What a user sees of a StreamProfileBench load, for comparing a warm open (through the persistent index) with a
// cold one: every run's scores first (a warm open scores from the index's pick tables, before any row is read
// back), then the users, every results map as a plain Map (a warm open's are LazyResults, a figures-only open's users
// and per-user scores LazyMaps), and the problems.
import { scoreRun } from '../../src/core/spb/score/run';
import type { Benchmark } from '../../src/core/spb/types';

export function loadView(bench: Benchmark) {
  const scores = [...bench.runs.values()].map((run) => {
    const score = scoreRun(bench, run);
    const platforms = [...score.platforms].map(([p, s]) => [p, { ...s, userScores: new Map(s.userScores) }] as const);
    return { ...score, platforms: new Map(platforms) };
  });
  const runs = [...bench.runs.values()].map((run) => ({
    ...run,
    results: new Map([...run.results].map(([platform, rows]) => [platform, new Map(rows)])),
  }));
  const users = new Map([...bench.users].map(([platform, byId]) => [platform, new Map(byId)]));
  return { scores, users, runs, diagnostics: bench.diagnostics };
}
