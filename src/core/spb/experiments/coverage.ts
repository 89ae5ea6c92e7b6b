// What an experiment's figures are over: its paired users and steps out of the benchmark's. An experiment runs on a
// sample, so its figures are never read as the whole benchmark's (the table, the tree, the CLI's log and its JSON).
import type { Coverage } from '../../coverage';
import type { Benchmark } from '../types';
import type { ExperimentRow } from './log';

/** The benchmark's users and steps: what an experiment's coverage counts against. */
export interface BenchmarkSize {
  users: number;
  steps: number;
}

export function benchmarkSize(bench: Benchmark): BenchmarkSize {
  let users = 0;
  let steps = 0;
  for (const byUser of bench.users.values())
    for (const u of byUser.values()) {
      users++;
      steps += u.steps.length;
    }
  return { users, steps };
}

/**
 * The paired users and steps (the steps both runs scored) out of the benchmark's; without a base run, the sample's
 * users and the steps its run made.
 */
export function experimentCoverage(r: ExperimentRow, size: BenchmarkSize): Coverage {
  const users = r.figures ? r.figures.pairedUsers : r.sample.users;
  const steps = r.figures ? r.figures.pairedSteps : r.cost.steps;
  return {
    users: { covered: users, total: size.users },
    items: { covered: steps, total: size.steps },
    itemNoun: 'step',
  };
}
