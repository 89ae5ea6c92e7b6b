// The Experiments table's webview protocol (extension: src/extension/benchmarks/spb/experiments/table.ts, webview:
// webview/spb/experiments). The webview posts `ready`; the extension answers `show` with every row of the log (each with
// its coverage: the paired users and steps out of the benchmark's), and again whenever the log changes. `compare` opens a row's paired steps in Compare Runs; `diff` two rows' templates.
import { arrayOf, count, type Infer, message, messages, nullable, num, oneOf, shapeOf, str } from '../../core/guards';
import type { ExperimentTableRow, TableDelta } from '../../core/spb/experiments/tableRows';
import type { Coverage, CoverageCount } from '../../core/coverage';

export const EXPERIMENT_TABLE_VIEW_TYPE = 'personaLab.experimentTable';

export {
  sortTableRows,
  TABLE_METRICS,
  type ExperimentTableRow,
  type TableSortKey,
} from '../../core/spb/experiments/tableRows';

export interface ExperimentTableModel {
  benchmark: string;
  rows: ExperimentTableRow[];
}

const delta = shapeOf<TableDelta>()({ diff: nullable(num), ciLow: nullable(num), ciHigh: nullable(num), text: str });

const part = shapeOf<CoverageCount>()({ covered: count, total: count });
const coverage = shapeOf<Coverage>()({
  users: part,
  items: part,
  itemNoun: oneOf(['step', 'test action', 'question'] as const),
});

const row = shapeOf<ExperimentTableRow>()({
  id: count,
  kind: oneOf(['template', 'long-context'] as const),
  name: str,
  templateId: str,
  run: str,
  baseRun: str,
  sample: str,
  sampleUsers: count,
  createdAt: str,
  author: str,
  model: str,
  recall: nullable(num),
  coverage,
  deltas: arrayOf(delta),
  requests: count,
  tokens: count,
  thin: arrayOf(str),
});

const model = shapeOf<ExperimentTableModel>()({ benchmark: str, rows: arrayOf(row) });

export const isExtensionToWebview = messages(message('show', { model }));
export type ExtensionToWebview = Infer<typeof isExtensionToWebview>;

export const isWebviewToExtension = messages(
  message('ready'),
  message('compare', { id: count }),
  message('diff', { a: count, b: count }),
);
export type WebviewToExtension = Infer<typeof isWebviewToExtension>;
