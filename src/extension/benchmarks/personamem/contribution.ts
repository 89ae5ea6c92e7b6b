// PersonaMem in the extension: its store, tree, file watch, Problems collection, dashboard, Compare Runs, question
// view, re-runs, labels, its part of the PI audit and its rows of the Experiments view.
import { personaMem } from '../../../core/personamem/format';
import { personaMemRoot } from '../../../core/personamem/load';
import type { FormatContribution } from '../contribution';
import { personaMemAuditPart } from './audit/part';
import { personaMemComparePart } from './compare/part';
import { personaMemDashboard } from './dashboard/part';
import { pmExperimentsPart } from './experiments/part';
import { personaMemLabelPart } from './labels/part';
import { activateQuestionView } from './questionView';
import { activatePmRerun } from './rerun';
import { PersonaMemStore } from './store';
import { watchPersonaMem } from './watch';

export const personaMemContribution: FormatContribution<PersonaMemStore> = {
  format: personaMem,
  contextKey: 'personaLab.personamemLoaded',
  problems: { collection: 'personaLab.personamem', source: 'Persona Lab (PersonaMem)' },
  create: (state, host) => new PersonaMemStore(state, host),
  rootOf: personaMemRoot,
  watch: (store) => watchPersonaMem(store),
  dashboard: (store, host) => personaMemDashboard(store, host),
  compare: (store, host) => personaMemComparePart(store, host),
  views: (store, context) => activateQuestionView(store, context),
  rerun: (store, host) => activatePmRerun(store, host),
  audit: (store) => personaMemAuditPart(store),
  labels: (store, host) => personaMemLabelPart(store, host),
  experiments: (store) => pmExperimentsPart(store),
};
