// Re-runs against the configured endpoint: one step (shown beside the original in the step view, stored in the
// history), a chain, a platform or the whole benchmark (new run folders), and the persona ablation of a user. The
// command table registers the handlers (./step, ./batch, ./ablation) with the deps returned here.
import type { ReadOnlyDocs } from '../../../docs';
import type { EndpointService } from '../../../endpoint';
import type { StepPanel } from '../stepView';
import type { SpbStore } from '../store';
import type { TemplateLibrary } from '../templates';
import * as vscode from 'vscode';
import { DRAFT_LANGUAGE } from '../../../../core/rerun/draft';
import { RerunController } from './controller';
import { DraftDiagnostics, DraftFolding, DraftLens } from './draft';
import { AttemptHistory, historyPath } from './history';
import { retryAttempt, type RerunDeps } from './step';

export interface RerunFeatureDeps {
  docs: ReadOnlyDocs;
  endpoint: EndpointService;
  stepView: StepPanel;
  templates: TemplateLibrary;
}

export function activateRerun(
  context: vscode.ExtensionContext,
  store: SpbStore,
  features: RerunFeatureDeps,
): RerunDeps {
  const history = new AttemptHistory(historyPath(context));
  const drafts = new DraftDiagnostics();
  const controller = new RerunController(store, history, features.endpoint, features.stepView, features.docs);
  const deps: RerunDeps = {
    store,
    stepView: features.stepView,
    templates: features.templates,
    endpoint: features.endpoint,
    history,
    controller,
    drafts,
  };
  controller.retry = (ref, id) => retryAttempt(deps, ref, id);
  context.subscriptions.push(
    history,
    drafts,
    vscode.languages.registerCodeLensProvider({ language: DRAFT_LANGUAGE }, new DraftLens()),
    vscode.languages.registerFoldingRangeProvider({ language: DRAFT_LANGUAGE }, new DraftFolding()),
    features.stepView.setAddon(controller),
    features.endpoint.onDidChange(() => features.stepView.updateRerun()),
  );
  return deps;
}
