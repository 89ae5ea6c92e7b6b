// PersonaMem in the extension: its store, tree, file watch, Problems collection, its dashboard, question view and
// labels.
import { personaMem } from '../../../core/personamem/format';
import { personaMemRoot } from '../../../core/personamem/load';
import type { FormatContribution } from '../contribution';
import { personaMemDashboard } from './dashboard/part';
import { personaMemLabelPart } from './labels/part';
import { activateQuestionView } from './questionView';
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
  views: (store, context) => activateQuestionView(store, context),
  labels: (store, host) => personaMemLabelPart(store, host),
};
