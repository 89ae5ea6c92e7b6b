// The experiment log as a table (the Experiments table view): one row per try with its template's name, its R and
// paired deltas with their intervals, what they are over (coverage), cost, sample and base run. An interval that cannot
// vary (every platform of the sample has one user, so resampling users within platforms always draws the same ones) is
// not shown as one: "CI n/a: N users".
import type { Coverage } from '../coverage';
import type { Benchmark } from '../spb/types';
import { TABLE_METRICS, type ExperimentTableRow, type TableDelta } from './tableRows';
import { intervalCannotVary, thinPlatforms } from './experiment';
import { deltaText } from './format';
import { MISSING } from '../glossary';
import { templateLabel, type ExperimentRow } from './log';

const finite = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? x : null);

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
 * What an experiment's figures are over: its paired users and steps (the steps both runs scored) out of the
 * benchmark's; without a base run, the sample's users and the steps its run made. A sample is part of the benchmark,
 * so its figures are never read as the whole benchmark's.
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

export function experimentTableRows(rows: readonly ExperimentRow[], size: BenchmarkSize): ExperimentTableRow[] {
  return rows.map((r) => {
    const thin = r.figures ? thinPlatforms(r.figures) : [];
    const deltas = TABLE_METRICS.map((m): TableDelta => {
      const s = r.figures?.summary.find((x) => x.metric === m);
      const diff = finite(s?.diff);
      const ciLow = finite(s?.ciLow);
      const ciHigh = finite(s?.ciHigh);
      if (diff === null || !s) return { diff: null, ciLow: null, ciHigh: null, text: MISSING };
      const collapsed = ciLow === null || ciHigh === null || (r.figures !== null && intervalCannotVary(r.figures));
      return {
        diff,
        ciLow: collapsed ? null : ciLow,
        ciHigh: collapsed ? null : ciHigh,
        text: deltaText(s, r.figures),
      };
    });
    const recall = finite(r.figures?.summary.find((x) => x.metric === 'Recall')?.meanB);
    return {
      id: r.id,
      kind: r.kind,
      name: templateLabel(r.template),
      templateId: r.template.id,
      run: r.run,
      baseRun: r.baseRun,
      sample: r.sample.name,
      sampleUsers: r.sample.users,
      createdAt: r.createdAt,
      author: r.author,
      model: r.endpoint.model,
      recall,
      coverage: experimentCoverage(r, size),
      deltas,
      requests: r.cost.requests,
      tokens: r.cost.promptTokens + r.cost.completionTokens,
      thin,
    };
  });
}

export {
  elideMiddle,
  sortTableRows,
  TABLE_METRICS,
  type ExperimentTableRow,
  type TableDelta,
  type TableSortKey,
} from './tableRows';
