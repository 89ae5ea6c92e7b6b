// OmniBehavior re-runs in the workbench: Re-run Test Action and Edit Prompt on the trace view (attempts shown beside
// the selected run's answers), Run Test Actions… and Judge Run…. Activation only wires.
import * as vscode from 'vscode';
import type { OmniStore } from '../store';
import type { EndpointService } from '../../../endpoint';
import type { TracePanel } from '../traceView/panel';
import { isOmniDraft, omniHistoryBlock, parseOmniDraft } from '../../../../core/omni/run/draft';
import { registerDraftKind } from '../../../rerun/draftKinds';
import { editTestActionPrompt, postAttempts, rerunTestAction, sendOmniDraft, type OmniRerunDeps } from './actions';
import { openAttemptDocument } from './documents';
import { Attempts } from './attemptsView';
import { OmniSources } from './sources';

export type { OmniRerunDeps };

export function activateOmniRerun(
  context: vscode.ExtensionContext,
  store: OmniStore,
  trace: TracePanel,
  endpoint: EndpointService,
): OmniRerunDeps {
  const sources = new OmniSources(() => store.bench?.root);
  const attempts = new Attempts(store);
  const deps: OmniRerunDeps = { store, trace, endpoint, sources, attempts };
  context.subscriptions.push(
    sources,
    { dispose: () => attempts.dispose() },
    registerDraftKind({
      owns: isOmniDraft,
      parse: parseOmniDraft,
      send: (doc, draft) => sendOmniDraft(deps, doc, draft),
      fold: omniHistoryBlock,
    }),
    trace.onDidShow((ref) => void postAttempts(deps, ref)),
    trace.onDidAskRerun(({ ref, msg }) => {
      if (msg.type === 'rerunAction') void rerunTestAction(deps, ref);
      else if (msg.type === 'editPrompt') void editTestActionPrompt(deps, ref, msg.field);
      else void openAttemptDocument(deps, ref, msg.id, msg.field, msg.which);
    }),
  );
  return deps;
}
