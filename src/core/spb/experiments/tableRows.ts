// The Experiments table's row shape and its column sort: no Node imports, since the webview sorts with it too.
import type { Coverage } from '../../coverage';
import type { CompareMetric } from '../score/runCompare';

/** The table's delta columns, in order. */
export const TABLE_METRICS = [
  'Recall',
  'Recall_Stability',
  'Recall_Novelty',
  'F1NS',
] as const satisfies readonly CompareMetric[];

export interface TableDelta {
  /** B − A as a fraction; null when undefined (no base run, or the metric is undefined on the sample) */
  diff: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  /** "+1.2 [−0.5, +3.0]", "+1.1 (CI n/a: 5 users)" or "—" (no difference) */
  text: string;
}

export interface ExperimentTableRow {
  id: number;
  kind: 'template' | 'long-context';
  /** the template's name (its id for rows logged before names) */
  name: string;
  templateId: string;
  run: string;
  /** '' without a base run */
  baseRun: string;
  sample: string;
  sampleUsers: number;
  createdAt: string;
  author: string;
  model: string;
  /** the experiment's own R over the paired steps, a fraction; null without a base run or when undefined */
  recall: number | null;
  /** what the figures are over: the paired users and steps out of the benchmark's (an experiment is rarely whole) */
  coverage: Coverage;
  /** in TABLE_METRICS order */
  deltas: TableDelta[];
  requests: number;
  tokens: number;
  /** platforms of the sample with one user: their part of an interval cannot vary */
  thin: string[];
}

export type TableSortKey = 'createdAt' | 'name' | 'sample' | 'baseRun' | 'requests' | 'recall' | `delta${number}`;

/** Rows in the order of one column; undefined deltas go last whatever the direction, ties by time (newest first). */
export function sortTableRows(
  rows: readonly ExperimentTableRow[],
  key: TableSortKey,
  descending: boolean,
): ExperimentTableRow[] {
  const value = (r: ExperimentTableRow): string | number | null => {
    if (key.startsWith('delta')) return r.deltas[Number(key.slice(5))]?.diff ?? null;
    return r[key as 'createdAt' | 'name' | 'sample' | 'baseRun' | 'requests' | 'recall'];
  };
  return [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    if (x === null || y === null) return x === y ? b.createdAt.localeCompare(a.createdAt) : x === null ? 1 : -1;
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return c !== 0 ? (descending ? -c : c) : b.createdAt.localeCompare(a.createdAt);
  });
}
