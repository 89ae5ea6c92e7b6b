// Re-runs against the configured endpoint: one step (shown beside the original in the step view, stored in the
// history), a chain, a platform or the whole benchmark (new run folders), and the persona ablation of a user. The
// command table registers the handlers (./step, ./batch, ./ablation) with the deps returned here.
import type { ReadOnlyDocs } from '../../../docs';
import type { EndpointService } from '../../../endpoint';
import type { StepPanel } from '../stepView';
import type { SpbStore } from '../store';
import type { TemplateLibrary } from '../templates';
import type * as vscode from 'vscode';
import { parseDraft } from '../../../../core/spb/rerun/draft';
import { registerFallbackDraftKind } from '../../../rerun/draftKinds';
import { RerunController } from './controller';
import { SAVE_AS_TEMPLATE, sendStepDraft } from './draft';
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
  const controller = new RerunController(store, history, features.endpoint, features.stepView, features.docs);
  const deps: RerunDeps = {
    store,
    stepView: features.stepView,
    templates: features.templates,
    endpoint: features.endpoint,
    history,
    controller,
  };
  controller.retry = (ref, id) => retryAttempt(deps, ref, id);
  context.subscriptions.push(
    history,
    // The step drafts have no header of a kind: they are the drafts no other kind owns.
    registerFallbackDraftKind({
      parse: parseDraft,
      send: (doc, draft) => sendStepDraft(deps, doc, draft),
      commands: [SAVE_AS_TEMPLATE],
    }),
    features.stepView.setAddon(controller),
    features.endpoint.onDidChange(() => features.stepView.updateRerun()),
  );
  return deps;
}
