// The experiment log as a table (the Experiments table view): one row per try with its template's name, its R and
// paired deltas with their intervals, what they are over (coverage), cost, sample and base run. An interval that cannot
// vary (every platform of the sample has one user, so resampling users within platforms always draws the same ones) is
// not shown as one: "CI n/a: N users".
import { experimentCoverage, type BenchmarkSize } from './coverage';
import { TABLE_METRICS, type ExperimentTableRow, type TableDelta } from './tableRows';
import { intervalCannotVary, thinPlatforms } from './experiment';
import { deltaText } from './text';
import { MISSING } from '../../glossary';
import { templateLabel, type ExperimentRow } from './log';

const finite = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? x : null);

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

export { benchmarkSize, experimentCoverage, type BenchmarkSize } from './coverage';
export { elideMiddle } from '../../elide';
export { sortTableRows, TABLE_METRICS, type ExperimentTableRow, type TableDelta, type TableSortKey } from './tableRows';
