// StreamProfileBench in the extension. The first contribution is also what an unrecognised target is opened as.
import { streamProfileBench } from '../../../core/formats';
import { spbAuditPart } from './audit/part';
import { spbLabelPart } from './labels/part';
import { spbDashboard } from './dashboard/part';
import { spbComparePart } from './compare/part';
import type { FormatContribution } from '../contribution';
import { spbFeatures } from './features';
import { spbExperimentsOf } from './experiments';
import { SpbStore } from './store';
import { watchSpb } from './watch';

export const spbContribution: FormatContribution<SpbStore> = {
  format: streamProfileBench,
  contextKey: 'personaLab.loaded',
  problems: { collection: 'personaLab', source: 'Persona Lab' },
  create: (state, host) => new SpbStore(state, host),
  rootOf: (target) => target,
  watch: (store, host) => watchSpb({ spb: store, open: (target, quiet) => host.open(target, quiet) }),
  audit: (store) => spbAuditPart(store),
  labels: (store, host) => spbLabelPart(store, host),
  dashboard: (store, host) => spbDashboard(store, host),
  views: (store, context, host) => spbFeatures(store, context, host),
  compare: (store, host) => spbComparePart(store, host),
  experiments: (store) => spbExperimentsOf(store),
};
