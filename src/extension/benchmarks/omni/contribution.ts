// OmniBehavior in the extension.
import { omniBehavior, omniRoot } from '../../../core/formats';
import { omniAuditPart } from './audit/part';
import { omniComparePart } from './compare/part';
import { omniLabelPart } from './labels/part';
import { omniDashboard } from './dashboard/part';
import type { FormatContribution } from '../contribution';
import { omniFeatures } from './features';
import { OmniStore } from './store';
import { tracePanelOf } from './traceView';
import { watchOmni } from './watch';

export const omniContribution: FormatContribution<OmniStore> = {
  format: omniBehavior,
  contextKey: 'personaLab.omniLoaded',
  problems: { collection: 'personaLab.omni', source: 'Persona Lab (OmniBehavior)' },
  create: (state, host) => new OmniStore(state, host),
  rootOf: omniRoot,
  watch: (store) => watchOmni(store),
  audit: (store) => omniAuditPart(store, tracePanelOf(store)),
  labels: (store, host) => omniLabelPart(store, host),
  dashboard: (store, host) => omniDashboard(store, host),
  compare: (store, host) => omniComparePart(store, host),
  views: (store, context, host) => omniFeatures(store, context, host),
};
