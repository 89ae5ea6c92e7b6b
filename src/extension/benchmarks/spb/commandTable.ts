// StreamProfileBench's entries of the command table: its tree and step view, its dashboard, Compare Runs, its labels'
// step filter, prompt templates and experiments, and its re-runs. `own`: a StreamProfileBench benchmark is open.
import {
  compareExperiment,
  diffTemplates,
  newSampleCommand,
  promoteExperiment,
  runTemplateOnSample,
} from './experiments/commands';
import type { ExperimentDeps } from './experiments/commands';
import { runLongContextBaseline, showLongContextTable } from './experiments/longContext';
import type { FormatCommands } from '../../commands/command';
import { streamProfileBench } from '../../../core/formats';
import { chooseRun, copyUserId, revealUser, showDiagnostics } from './commands';
import { clearStepFilter, filterSteps, nextUnlabelled } from './labels/filterCommands';
import { spbLabels } from './labels/part';
import { runAblation } from './rerun/ablation';
import { rerunChain, rerunPlatforms, resumeRun } from './rerun/batch';
import { editPrompt } from './rerun/draft';
import { saveDraftAsTemplate } from './rerun/draftTemplate';
import { rerunFailed } from './rerun/failed';
import { rerunStep, type RerunDeps } from './rerun/step';
import { clearSampleFilter, filterTreeToSample } from './sampleCommands';
import { navigate, openStep, type StepViews } from './stepView';
import type { SpbStore } from './store';
import { newTemplate, previewPrompt, type TemplateDeps, type TemplateLibrary } from './templates';

/** What the table's handlers act on, made by features.ts. */
export interface SpbFeatures {
  store: SpbStore;
  stepViews: StepViews;
  templates: { library: TemplateLibrary; deps: TemplateDeps };
  rerun: RerunDeps;
  experiments: ExperimentDeps;
}

export function spbCommands(f: SpbFeatures): FormatCommands {
  const { store, stepViews, rerun, experiments: x } = f;
  return {
    'personaLab.showDiagnostics': { needs: 'own', make: () => () => showDiagnostics(store) },
    'personaLab.chooseRun': { needs: 'own', make: () => (arg) => chooseRun(store, arg) },
    'personaLab.revealUser': { needs: 'own', make: (c) => (arg) => revealUser(c.tree.view, store, arg) },
    'personaLab.copyUserId': { make: (c) => (node) => copyUserId(c.tree.view, node) },
    'personaLab.filterTreeToSample': { needs: 'own', make: () => (arg) => filterTreeToSample(store, arg) },
    'personaLab.clearSampleFilter': { make: () => () => clearSampleFilter(store) },
    'personaLab.openStep': { needs: 'own', make: () => (arg, options) => openStep(stepViews, store, arg, options) },
    'personaLab.nextStep': { make: () => () => navigate(stepViews, 'nextStep') },
    'personaLab.previousStep': { make: () => () => navigate(stepViews, 'previousStep') },
    'personaLab.nextUser': { make: () => () => navigate(stepViews, 'nextUser') },
    'personaLab.previousUser': { make: () => () => navigate(stepViews, 'previousUser') },
    'personaLab.openDashboard': { needs: 'own', make: (c) => () => c.dashboard.of(streamProfileBench.id)?.show() },
    'personaLab.filterSteps': { needs: 'own', make: (c) => (arg) => filterSteps(spbLabels(c.labels).filter, arg) },
    'personaLab.clearStepFilter': { make: (c) => () => clearStepFilter(spbLabels(c.labels).filter) },
    'personaLab.nextUnlabelledStep': {
      needs: 'own',
      make: (c) => (arg) => nextUnlabelled(spbLabels(c.labels).filter, arg),
    },
    'personaLab.newTemplate': { make: () => () => newTemplate(f.templates.library) },
    'personaLab.previewPrompt': {
      needs: 'own',
      make: () => (arg) => previewPrompt(store, f.templates.library, f.templates.deps, arg),
    },
    'personaLab.newSample': { needs: 'own', make: () => () => newSampleCommand(x) },
    'personaLab.runTemplateOnSample': { needs: 'own', make: () => (arg) => runTemplateOnSample(x, arg) },
    'personaLab.diffExperimentTemplates': { needs: 'own', make: () => (node, nodes) => diffTemplates(x, node, nodes) },
    'personaLab.compareExperiment': { needs: 'own', make: () => (node) => compareExperiment(x, node) },
    'personaLab.promoteExperiment': { needs: 'own', make: () => (node) => promoteExperiment(x, node) },
    'personaLab.showExperimentTable': { needs: 'own', make: () => () => x.showTable() },
    'personaLab.runLongContextBaseline': { needs: 'own', make: () => () => runLongContextBaseline(x) },
    'personaLab.showLongContextTable': { needs: 'own', make: () => (node) => showLongContextTable(x, node) },
    'personaLab.rerunStep': { needs: 'own', make: () => (arg) => rerunStep(rerun, arg) },
    'personaLab.editPrompt': { needs: 'own', make: () => (arg) => editPrompt(rerun, arg) },
    'personaLab.saveDraftAsTemplate': { needs: 'own', make: () => (arg) => saveDraftAsTemplate(rerun, arg) },
    'personaLab.rerunChain': { needs: 'own', make: () => (arg) => rerunChain(rerun, arg) },
    'personaLab.rerunPlatform': { needs: 'own', make: () => (arg) => rerunPlatforms(rerun, arg, false) },
    'personaLab.rerunBenchmark': { needs: 'own', make: () => (arg) => rerunPlatforms(rerun, arg, true) },
    'personaLab.resumeRun': { needs: 'loads', make: () => () => resumeRun(rerun) },
    'personaLab.rerunFailedRequests': { needs: 'own', make: () => (arg) => rerunFailed(rerun, arg) },
    'personaLab.runAblation': { needs: 'own', make: () => (arg) => runAblation(rerun, arg) },
  };
}
