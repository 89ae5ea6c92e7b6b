// PersonaMem's compare view protocol (extension: src/extension/benchmarks/personamem/compare/panel.ts, webview:
// webview/personamem/personamemcompare). The page posts `ready`; the extension answers `show` with the comparison of run B
// against run A (src/core/personamem/compare.ts), or `empty`, and again when the benchmark reloads. A differing
// question's row asks for it in the question view (`openQuestion`); the buttons ask for other runs or a swap.
import type { PmComparison } from '../../core/personamem/compare';
import { array, count, message, messages, object, shapeOf, str, type Infer } from '../../core/guards';
import { COMPARE_FROM_WEBVIEW, compareToWebview } from '../compareProtocol';

export type { PmComparison, PmCompareRow, PmDiffering } from '../../core/personamem/compare';

export const PM_COMPARE_VIEW_TYPE = 'personaLab.personamem.compare';

const comparison = shapeOf<PmComparison>()({
  runA: str,
  runB: str,
  split: str,
  overall: object({ slice: str, head: str, units: count, items: count }),
  byType: array,
  differing: array,
  onlyA: count,
  onlyB: count,
});

export const isExtensionToWebview = compareToWebview(comparison);
export type ExtensionToWebview = Infer<typeof isExtensionToWebview>;

export const isWebviewToExtension = messages(...COMPARE_FROM_WEBVIEW, message('openQuestion', { questionId: str }));
export type WebviewToExtension = Infer<typeof isWebviewToExtension>;
