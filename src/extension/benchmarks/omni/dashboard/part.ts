// OmniBehavior's dashboard: its scores and bias diagnostics (panel.ts), restored after a reload of the window.
import { OMNI_DASHBOARD_VIEW_TYPE } from '../../../../shared/omni/dashboardProtocol';
import type { OmniStore } from '../store';
import { restoreReusedPanel } from '../../../webviewPanel';
import type { DashboardHost, DashboardPart } from '../../../dashboard/part';
import { OmniDashboardPanel } from './panel';

export function omniDashboard(store: OmniStore, host: DashboardHost): DashboardPart {
  const panel = new OmniDashboardPanel(host.extensionUri, store, host.labels);
  const restore = restoreReusedPanel(OMNI_DASHBOARD_VIEW_TYPE, panel, () => store.ready());
  return { show: () => panel.show(), dispose: () => (restore.dispose(), panel.dispose()) };
}
