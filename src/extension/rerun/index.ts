// Re-runs against the configured endpoint: one step (shown beside the original in the step view, stored in the
// history), a chain, a platform or the whole benchmark (new run folders), and the persona ablation of a user.
import * as vscode from 'vscode';
import type { ReadOnlyDocs } from '../docs';
import type { EndpointService } from '../endpoint';
import type { StepPanel } from '../stepView';
import type { BenchmarkStore } from '../store';
import type { TemplateLibrary } from '../templates';
import { runAblation } from './ablation';
import { rerunChain, rerunPlatforms, resumeRun } from './batch';
import { RerunController } from './controller';
import { AttemptHistory, historyPath } from './history';
import { rerunStep, type RerunDeps } from './step';

export interface RerunFeatureDeps {
  docs: ReadOnlyDocs;
  endpoint: EndpointService;
  stepView: StepPanel;
  templates: TemplateLibrary;
}

export function activateRerun(context: vscode.ExtensionContext, store: BenchmarkStore, features: RerunFeatureDeps): void {
  const history = new AttemptHistory(historyPath(context));
  const controller = new RerunController(store, history, features.endpoint, features.stepView, features.docs);
  const deps: RerunDeps = { store, stepView: features.stepView, templates: features.templates, endpoint: features.endpoint, history, controller };
  context.subscriptions.push(
    history,
    features.stepView.setAddon(controller),
    features.endpoint.onDidChange(() => features.stepView.updateRerun()),
    vscode.commands.registerCommand('personaLab.rerunStep', (arg?: unknown) => rerunStep(deps, arg)),
    vscode.commands.registerCommand('personaLab.rerunChain', (arg?: unknown) => rerunChain(deps, arg)),
    vscode.commands.registerCommand('personaLab.rerunPlatform', (arg?: unknown) => rerunPlatforms(deps, arg, false)),
    vscode.commands.registerCommand('personaLab.rerunBenchmark', (arg?: unknown) => rerunPlatforms(deps, arg, true)),
    vscode.commands.registerCommand('personaLab.resumeRun', () => resumeRun(deps)),
    vscode.commands.registerCommand('personaLab.runAblation', (arg?: unknown) => runAblation(deps, arg)),
  );
}
