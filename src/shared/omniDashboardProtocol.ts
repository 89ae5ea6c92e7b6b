// The OmniBehavior dashboard's webview protocol (extension: src/extension/traces/dashboard.ts, webview:
// webview/omnidash). The webview posts `ready`; the extension answers `show` with the selected run's scores and bias
// diagnostics (or `empty`), and again whenever the benchmark reloads or another run is chosen.
import type { BiasDiagnostics } from '../core/omni/bias';
import type { FieldScore } from '../core/omni/score';
import type { ComponentId } from '../core/omni/types';

export const OMNI_DASHBOARD_VIEW_TYPE = 'personaLab.omniDashboard';

export const COMPONENT_LABELS: Record<ComponentId, string> = {
  videoBinary: 'Video (binary, mean F1)',
  liveBinary: 'Live (binary, mean F1)',
  adsBinary: 'Ads (binary, mean F1)',
  shopBinary: 'Shop (binary, mean F1)',
  videoContinuous: 'Video (100 − NMAE)',
  shopText: 'Shop text (judge × 10)',
};

export interface OmniDashboardModel {
  root: string;
  run: string;
  overall: number | null;
  /** Answers that count, and answers left out of every metric for want of a usable predicted value. */
  answered: number;
  leftOut: number;
  components: { id: ComponentId; value: number | null }[];
  fields: FieldScore[];
  bias: BiasDiagnostics;
}

export type ExtensionToWebview = { type: 'show'; model: OmniDashboardModel } | { type: 'empty'; message: string };
export type WebviewToExtension = { type: 'ready' } | { type: 'chooseRun' };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isWebviewToExtension(v: unknown): v is WebviewToExtension {
  return isRecord(v) && (v.type === 'ready' || v.type === 'chooseRun');
}

export function isExtensionToWebview(v: unknown): v is ExtensionToWebview {
  if (!isRecord(v)) return false;
  if (v.type === 'empty') return typeof v.message === 'string';
  if (v.type !== 'show' || !isRecord(v.model)) return false;
  const m = v.model;
  return (
    typeof m.run === 'string' && typeof m.root === 'string' && (m.overall === null || typeof m.overall === 'number') &&
    typeof m.answered === 'number' && typeof m.leftOut === 'number' &&
    Array.isArray(m.components) && Array.isArray(m.fields) && isRecord(m.bias) && Array.isArray(m.bias.perScene) &&
    typeof m.bias.reading === 'string'
  );
}
