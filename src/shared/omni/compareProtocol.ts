// OmniBehavior's compare view protocol (extension: src/extension/benchmarks/omni/compare/panel.ts, webview:
// webview/omni/omnicompare). The page posts `ready`; the extension answers `show` with the comparison of run B
// against run A (src/core/omni/compare.ts), or `empty`, and again when the benchmark reloads. A changed answer's row
// asks for its test action in the trace view (`openAction`); the buttons ask for other runs or a swap.
import type { OmniComparison } from '../../core/omni/compare';
import { array, count, message, messages, object, safeInt, shapeOf, str, type Infer } from '../../core/guards';
import { COMPARE_FROM_WEBVIEW, compareToWebview } from '../compareProtocol';

export type { OmniChange, OmniChanged, OmniCompareRow, OmniComparison } from '../../core/omni/compare';

export const OMNI_COMPARE_VIEW_TYPE = 'personaLab.omni.compare';

const comparison = shapeOf<OmniComparison>()({
  runA: str,
  runB: str,
  rows: array,
  changed: array,
  scope: object({ paired: count, users: count, answers: count }),
});

export const isExtensionToWebview = compareToWebview(comparison);
export type ExtensionToWebview = Infer<typeof isExtensionToWebview>;

export const isWebviewToExtension = messages(
  ...COMPARE_FROM_WEBVIEW,
  message('openAction', { userId: str, index: safeInt }),
);
export type WebviewToExtension = Infer<typeof isWebviewToExtension>;
