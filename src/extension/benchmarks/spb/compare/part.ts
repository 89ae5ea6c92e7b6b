// StreamProfileBench's part of Compare Runs (compare/part.ts): the compare view (steps paired within users, the
// bootstrap stratified by platform), and the tree's compare mode (personaLab.compareMode.on / .off; context key
// personaLab.compareMode) that badges the steps where B's Recall is below A's.
import * as vscode from 'vscode';
import { streamProfileBench } from '../../../../core/spb/format/format';
import { readRunOrigin } from '../../../../core/spb/prompt/runOrigin';
import { pctText } from '../../../../core/tables/format';
import { COMPARE_VIEW_TYPE } from '../../../../shared/spb/dashboardProtocol';
import type { SpbStore } from '../store';
import { log } from '../../../log';
import { restoreReusedPanel } from '../../../webviewPanel';
import { RegressionDecorations } from './decorations';
import { regressedSteps } from './model';
import { ComparePanel } from './panel';
import type { CompareHost, ComparePart, CompareRunChoice, RunPair } from '../../../compare/part';
import { pickRunPair } from '../../../compare/pick';
import { CompareSession } from './session';

const MODE_CONTEXT = 'personaLab.compareMode';

export interface SpbComparePart extends ComparePart {
  /** Compare mode on or off; on without a pair asks for one first. */
  setMode(on: boolean): Promise<void>;
}

function choices(store: SpbStore): CompareRunChoice[] {
  const bench = store.bench;
  if (!bench) return [];
  return [...bench.runs.keys()].map((run) => {
    const s = store.score(run);
    return {
      run,
      description: s ? `Avg. Recall ${pctText(s.avg.Recall)} · F1^NS ${pctText(s.avg.F1NS)}` : '',
      detail:
        [run === store.runName ? 'selected run' : '', readRunOrigin(bench.root, run)?.mark ?? '']
          .filter(Boolean)
          .join(' · ') || undefined,
    };
  });
}

export function spbComparePart(store: SpbStore, host: CompareHost): SpbComparePart {
  const session = new CompareSession(store, host.state);
  const panel = new ComparePanel(host.extensionUri, store, session);
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

  const disposables: vscode.Disposable[] = [
    restoreReusedPanel(COMPARE_VIEW_TYPE, panel, () => store.ready()),
    session,
    panel,
    decorations,
    status,
    vscode.window.registerFileDecorationProvider(decorations),
    session.onDidChange(() => void updateMode()),
  ];
  void vscode.commands.executeCommand('setContext', MODE_CONTEXT, false);

  const part: SpbComparePart = {
    runs: () => choices(store),
    get lastPair() {
      return session.lastPair;
    },
    get selectedRun() {
      return store.runName;
    },
    show: async (pair: RunPair) => {
      await session.setPair(pair);
      panel.show();
    },
    setMode: async (on) => {
      if (on && !session.pair) {
        const picked = await pickRunPair([{ label: streamProfileBench.label, part }]);
        if (!picked) return;
        await session.setPair(picked.pair);
      }
      modeOn = on;
      await vscode.commands.executeCommand('setContext', MODE_CONTEXT, on);
      await updateMode();
    },
    dispose: () => {
      for (const d of disposables.splice(0)) d.dispose();
    },
  };
  return part;
}

/** The StreamProfileBench part of Compare Runs (compare mode's commands read it). */
export function spbCompare(api: { of(formatId: string): ComparePart | undefined }): SpbComparePart {
  // The StreamProfileBench contribution's `compare` made it (benchmarks/spb/contribution.ts).
  const part = api.of(streamProfileBench.id) as SpbComparePart | undefined;
  if (!part) throw new Error('the StreamProfileBench compare view is not wired');
  return part;
}
