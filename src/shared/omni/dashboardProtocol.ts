// The OmniBehavior dashboard's webview protocol (extension: src/extension/benchmarks/omni/dashboard/panel.ts, webview:
// webview/omni/omnidash). The webview posts `ready`; the extension answers `show` with the selected run's scores and bias
// diagnostics (or `empty`), and again whenever the benchmark reloads or another run is chosen. `saveChart` asks to save
// the bias chart as SVG or PNG (src/shared/chartExport.ts).
import type { BiasDiagnostics } from '../../core/omni/bias';
import type { JudgeAgreement } from '../../core/omni/judgeAgreement';
import type { FieldScore } from '../../core/omni/score';
import type { ComponentId } from '../../core/omni/types';
import { saveChartShape } from '../chartExport';
import { array, type Infer, message, messages, nullable, num, object, shapeOf, str } from '../../core/guards';

export const OMNI_DASHBOARD_VIEW_TYPE = 'personaLab.omniDashboard';

export { COMPONENT_LABELS } from '../../core/omni/fields';

export interface OmniDashboardModel {
  root: string;
  run: string;
  overall: number | null;
  /** Why the overall is missing ("not judged yet: Judge Run…", what the run covers); null when it has a value. */
  overallReason: string | null;
  /** "over 1 of 6 users, 78 of 495 test actions" when the run is of part of the benchmark, else null. */
  coverage: string | null;
  /** "made here by Run Test Actions…" when the run shown is the one last made in this window, else null. */
  made: string | null;
  /** Answers that count, and answers left out of every metric for want of a usable predicted value. */
  answered: number;
  leftOut: number;
  /** `why`: why a component has no value, or why it is 0 (componentNote); null when the figure speaks for itself. */
  components: { id: ComponentId; value: number | null; why: string | null }[];
  fields: FieldScore[];
  bias: BiasDiagnostics;
  /** The judge against people's scores of the run's utterances, per dimension (Your scores in the trace view). */
  judge: JudgeAgreement;
}

const omniDashboardModel = shapeOf<OmniDashboardModel>()({
  run: str,
  root: str,
  overall: nullable(num),
  overallReason: nullable(str),
  coverage: nullable(str),
  made: nullable(str),
  answered: num,
  leftOut: num,
  components: array,
  fields: array,
  bias: object({ perScene: array, reading: str }),
  judge: object({ run: str, dimensions: array, scoredByPeople: num, judgedToo: num }),
});

export const isExtensionToWebview = messages(
  message('show', { model: omniDashboardModel }),
  message('empty', { message: str }),
);
export type ExtensionToWebview = Infer<typeof isExtensionToWebview>;

export const isWebviewToExtension = messages(
  message('ready'),
  message('chooseRun'),
  message('saveChart', saveChartShape),
);
export type WebviewToExtension = Infer<typeof isWebviewToExtension>;
