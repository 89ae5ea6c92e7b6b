// StreamProfileBench's own features: the step view, its tree's sample filter message, prompt templates, re-runs and
// template experiments, and the command table entries that act on them.
import type * as vscode from 'vscode';
import { activateExperiments } from './experiments';
import type { FeatureHost, FormatFeatures } from '../contribution';
import { spbCommands } from './commandTable';
import { activateRerun } from './rerun';
import { sampleMessage } from './sampleCommands';
import { activateStepView } from './stepView';
import type { SpbStore } from './store';
import { activateTemplates } from './templates';

export function spbFeatures(store: SpbStore, context: vscode.ExtensionContext, host: FeatureHost): FormatFeatures {
  const { docs, endpoint } = host;
  const stepViews = activateStepView(context, store);
  const stepView = stepViews.main;
  const library = activateTemplates(context, store);
  const rerun = activateRerun(context, store, { docs, endpoint, stepView, templates: library });
  const experiments = activateExperiments(context, rerun, docs);
  const commands = spbCommands({
    store,
    stepViews,
    templates: { library, deps: { docs, stepView } },
    rerun,
    experiments,
  });
  const message = sampleMessage(store, host.tree.message);
  return { commands, dispose: () => message.dispose() };
}
