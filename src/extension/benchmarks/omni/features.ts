// OmniBehavior's own features: the trace view and its re-runs (Re-run Test Action, Edit Prompt, Run Test Actions…,
// Judge Run…), and the command table entries that act on them. `own`: an OmniBehavior benchmark is open.
import type * as vscode from 'vscode';
import { omniBehavior } from '../../../core/formats';
import type { FeatureHost, FormatFeatures } from '../contribution';
import { chooseOmniRun, openTrace, revealTestAction } from './commands';
import { activateOmniRerun } from './rerun';
import { editTestActionPrompt, rerunTestAction } from './rerun/actions';
import { judgeOmniRun, runTestActions, setJudgeKey } from './rerun/batch';
import type { OmniStore } from './store';
import { activateTraceView } from './traceView';

const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

export function omniFeatures(store: OmniStore, context: vscode.ExtensionContext, host: FeatureHost): FormatFeatures {
  const trace = activateTraceView(context, store);
  const rerun = activateOmniRerun(context, store, trace, host.endpoint);
  return {
    dispose: () => undefined, // each feature above is in context.subscriptions
    commands: {
      'personaLab.openTrace': { needs: 'own', make: () => (arg) => openTrace(store, trace, arg) },
      'personaLab.chooseOmniRun': { needs: 'own', make: () => (arg) => chooseOmniRun(store, arg) },
      'personaLab.revealTestAction': { make: (c) => (arg) => revealTestAction(store, c.tree.view, arg) },
      'personaLab.openOmniDashboard': { needs: 'own', make: (c) => () => c.dashboard.of(omniBehavior.id)?.show() },
      'personaLab.rerunTestAction': { needs: 'own', make: () => (arg) => rerunTestAction(rerun, arg) },
      'personaLab.editTestActionPrompt': {
        needs: 'own',
        make: () => (arg, field) => editTestActionPrompt(rerun, arg, text(field)),
      },
      'personaLab.runTestActions': { needs: 'own', make: () => (arg, name) => runTestActions(rerun, arg, text(name)) },
      'personaLab.judgeOmniRun': { needs: 'own', make: (c) => (arg) => judgeOmniRun(rerun, c.secrets, arg) },
      'personaLab.setJudgeApiKey': { make: (c) => () => setJudgeKey(c.secrets) },
    },
  };
}
