// Compare feature: the handlers of personaLab.compareRuns (pick A and B, open the compare view) and of the tree's
// compare mode (personaLab.compareMode.on / .off; context key personaLab.compareMode) that badges the steps B
// regressed on. Both need an open benchmark (the command table checks it).
import * as vscode from 'vscode';
import { object, str } from '../../core/guards';
import { COMPARE_VIEW_TYPE } from '../../shared/dashboardProtocol';
import { restoreReusedPanel } from '../webviewPanel';
import type { SpbStore } from '../benchmarks/spb/store';
import { RegressionDecorations } from './decorations';
import { regressedSteps } from './model';
import { ComparePanel } from './panel';
import { pickRunPair } from './pick';
import { CompareSession, type RunPair } from './session';
import { log } from '../log';

const MODE_CONTEXT = 'personaLab.compareMode';

const runPairArg = object({ a: str, b: str });

function pairFromArgs(a: unknown, b: unknown): RunPair | undefined {
  if (typeof a === 'string' && typeof b === 'string' && a !== b) return { a, b };
  if (runPairArg(a) && a.a !== a.b) return { a: a.a, b: a.b };
  return undefined;
}

export interface CompareCommands {
  compareRuns(a: unknown, b: unknown): Promise<void>;
  setMode(on: boolean): Promise<void>;
}

export function activateCompare(context: vscode.ExtensionContext, store: SpbStore): CompareCommands {
  const session = new CompareSession(store, context.workspaceState);
  const panel = new ComparePanel(context.extensionUri, store, session);
  const decorations = new RegressionDecorations();
  const status = vscode.window.createStatusBarItem('personaLab.compareMode', vscode.StatusBarAlignment.Left, 50);
  status.name = 'Persona Lab compare mode';
  status.command = 'personaLab.compareRuns';
  let modeOn = false;

  const updateMode = async () => {
    const pair = session.pair;
    const cmp = modeOn ? await session.comparison() : undefined;
    if (!modeOn || !pair || !cmp || pair !== session.pair) {
      decorations.set(new Map(), '');
      status.hide();
      return;
    }
    const regressed = regressedSteps(cmp);
    decorations.set(regressed, `${pair.a} vs ${pair.b}`);
    status.text = `$(git-compare) ${pair.a} vs ${pair.b}: ${regressed.size} regressed`;
    status.tooltip = `Compare mode: steps where ${pair.b}'s Recall is below ${pair.a}'s are badged ↓ in the Benchmarks tree. Click to compare other runs.`;
    status.show();
    log.info(`compare mode: ${regressed.size} regressed step(s) of ${pair.a} vs ${pair.b}`);
  };

  const choosePair = async (a?: unknown, b?: unknown): Promise<RunPair | undefined> => {
    const given = pairFromArgs(a, b);
    const bench = store.bench;
    if (given && bench?.runs.has(given.a) && bench.runs.has(given.b)) return given;
    if (!bench) return undefined;
    return pickRunPair(store, session.lastPair);
  };

  const setMode = async (on: boolean) => {
    if (on && !session.pair) {
      const pair = await choosePair();
      if (!pair) return;
      await session.setPair(pair);
    }
    modeOn = on;
    await vscode.commands.executeCommand('setContext', MODE_CONTEXT, on);
    await updateMode();
  };

  context.subscriptions.push(
    restoreReusedPanel(COMPARE_VIEW_TYPE, panel, () => store.ready()),
    session,
    panel,
    decorations,
    status,
    vscode.window.registerFileDecorationProvider(decorations),
    session.onDidChange(() => void updateMode()),
  );
  void vscode.commands.executeCommand('setContext', MODE_CONTEXT, false);
  return {
    compareRuns: async (a, b) => {
      const pair = await choosePair(a, b);
      if (!pair) return;
      await session.setPair(pair);
      panel.show();
    },
    setMode,
  };
}
