// PersonaMem's part of the re-runs: Re-run (r) and Edit Prompt (e) in the question view, its drafts' kind (read,
// squiggles, Ctrl+Enter), the attempts listed under the question, and its batch runs (Batch Run…). Activation only
// wires.
import * as vscode from 'vscode';
import { isPmDraft, parsePmDraft } from '../../../../core/personamem/run/draft';
import { log } from '../../../log';
import { registerDraftKind } from '../../../rerun/draftKinds';
import type { RerunHost, RerunPart } from '../../../rerun/part';
import { questionPanelOf } from '../questionView';
import type { PersonaMemStore } from '../store';
import { editQuestionPrompt, openAttemptDocument, postAttempts, rerunQuestion, sendPmDraft } from './actions';
import { PmAttempts } from './attempts';
import { pmBatchRun } from './batchCommand';
import { PmSources } from './sources';

export function activatePmRerun(store: PersonaMemStore, host: RerunHost): RerunPart {
  const panel = questionPanelOf(store);
  if (!panel) {
    log.warn('personamem rerun: no question view to re-run from');
    return new vscode.Disposable(() => undefined);
  }
  const sources = new PmSources(() => store.bench?.root);
  const attempts = new PmAttempts(store);
  const deps = { store, panel, endpoint: host.endpoint, sources, attempts };
  const parts = vscode.Disposable.from(
    sources,
    { dispose: () => attempts.dispose() },
    registerDraftKind({
      owns: isPmDraft,
      parse: parsePmDraft,
      send: (doc, draft) => sendPmDraft(deps, doc, draft),
    }),
    panel.onDidShow((ref) => void postAttempts(deps, ref)),
    panel.onDidAskRerun(({ ref, msg }) => {
      if (msg.type === 'rerunQuestion') void rerunQuestion(deps, ref);
      else if (msg.type === 'editPrompt') void editQuestionPrompt(deps, ref);
      else void openAttemptDocument(deps, ref, msg.id, msg.which);
    }),
  );
  return { dispose: () => parts.dispose(), batch: { run: (arg) => pmBatchRun(deps, arg) } };
}
