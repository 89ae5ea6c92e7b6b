// StreamProfileBench's dashboard: the tables and figures of its runs (panel.ts), restored after a reload of the window.
import { DASHBOARD_VIEW_TYPE } from '../../../../shared/spb/dashboardProtocol';
import type { SpbStore } from '../store';
import { restoreReusedPanel } from '../../../webviewPanel';
import type { DashboardHost, DashboardPart } from '../../../dashboard/part';
import { DashboardPanel } from './panel';

export function spbDashboard(store: SpbStore, host: DashboardHost): DashboardPart {
  const panel = new DashboardPanel(host.extensionUri, store, host.state, host.labels);
  const restore = restoreReusedPanel(DASHBOARD_VIEW_TYPE, panel, () => store.ready());
  return { show: () => panel.show(), dispose: () => (restore.dispose(), panel.dispose()) };
}
