// The PersonaMem dashboard's webview protocol (extension: src/extension/benchmarks/personamem/dashboard/panel.ts,
// webview: webview/personamem/personamemdash). The page posts `ready`; the extension answers `show` with the tables of every
// run, per split and by context length (src/core/personamem/dashboard.ts), or `empty`, and again whenever the
// benchmark reloads. `copyTable` asks for a table as LaTeX, Markdown or CSV on the clipboard; `saveChart` for a chart
// as SVG or PNG (src/shared/chartExport.ts). Only types are imported from the core.
import type { PmDashboardModel } from '../../core/personamem/dashboard';
import { TABLE_FORMATS } from '../../core/tables/format';
import { saveChartShape } from '../chartExport';
import {
  array,
  arrayOf,
  message,
  messages,
  oneOf,
  shapeOf,
  str,
  union,
  literal,
  object,
  type Infer,
} from '../../core/guards';
import { whyRunsFailMessage } from '../whyRunsFailProtocol';

export type { PmDashboardModel, PmDashSplit, PmDashTable, PmRunCover } from '../../core/personamem/dashboard';

export const PM_DASHBOARD_VIEW_TYPE = 'personaLab.personamem.dashboard';

const dashTable = object({ table: object({ id: str, title: str, columns: array, rows: array }), covers: str });

const pmDashboardModel = shapeOf<PmDashboardModel>()({
  root: str,
  splits: array,
  unanswered: arrayOf(str),
  lengths: union(literal(null), dashTable),
  lengthsNote: str,
});

export const isExtensionToWebview = messages(
  message('show', { model: pmDashboardModel }),
  message('empty', { message: str }),
  whyRunsFailMessage,
);
export type ExtensionToWebview = Infer<typeof isExtensionToWebview>;

export const isWebviewToExtension = messages(
  message('ready'),
  message('copyTable', { table: str, format: oneOf(TABLE_FORMATS) }),
  message('saveChart', saveChartShape),
);
export type WebviewToExtension = Infer<typeof isWebviewToExtension>;
