// PersonaMem's part of the dashboard host (dashboard/part.ts): its panel of tables, restored after a reload.
import { PM_DASHBOARD_VIEW_TYPE } from '../../../../shared/personamem/dashboardProtocol';
import type { DashboardHost, DashboardPart } from '../../../dashboard/part';
import { restoreReusedPanel } from '../../../webviewPanel';
import type { PersonaMemStore } from '../store';
import { PersonaMemDashboardPanel } from './panel';

export function personaMemDashboard(store: PersonaMemStore, host: DashboardHost): DashboardPart {
  const panel = new PersonaMemDashboardPanel(host.extensionUri, store, host.labels);
  const restore = restoreReusedPanel(PM_DASHBOARD_VIEW_TYPE, panel, () => store.ready());
  return { show: () => panel.show(), dispose: () => (restore.dispose(), panel.dispose()) };
}
