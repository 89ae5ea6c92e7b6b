// StreamProfileBench's part of Compare Runs (compare/part.ts): the compare view (steps paired within users, the
// bootstrap stratified by platform), and the badges of compare mode (compare/mode.ts): the steps where B's Recall is
// below A's.
import * as vscode from 'vscode';
import { readRunOrigin } from '../../../../core/spb/prompt/runOrigin';
import { pctText } from '../../../../core/tables/format';
import { COMPARE_VIEW_TYPE } from '../../../../shared/spb/dashboardProtocol';
import type { SpbStore } from '../store';
import { restoreReusedPanel } from '../../../webviewPanel';
import { regressedSteps } from './model';
import { ComparePanel } from './panel';
import type { CompareBadges, CompareHost, ComparePart, CompareRunChoice, RunPair } from '../../../compare/part';
import { CompareSession } from './session';

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

export function spbComparePart(store: SpbStore, host: CompareHost): ComparePart {
  const session = new CompareSession(store, host.state);
  const panel = new ComparePanel(host.extensionUri, store, session);

  const badges = async (given?: RunPair): Promise<CompareBadges | undefined> => {
    if (given) await session.setPair(given);
    const pair = session.pair;
    const cmp = pair ? await session.comparison() : undefined;
    if (!pair || !cmp || pair !== session.pair) return undefined;
    const items = new Map<string, string>();
    for (const [key, delta] of regressedSteps(cmp)) items.set(key, `Recall ${(100 * delta).toFixed(1)} pp`);
    return {
      pair,
      items,
      unit: 'step',
      explain: `Compare mode: steps where ${pair.b}'s Recall is below ${pair.a}'s are badged ↓ in the Benchmarks tree.`,
    };
  };

  const disposables: vscode.Disposable[] = [
    restoreReusedPanel(COMPARE_VIEW_TYPE, panel, () => store.ready()),
    session,
    panel,
  ];

  return {
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
    badges,
    onDidChangeBadges: session.onDidChange,
    dispose: () => {
      for (const d of disposables.splice(0)) d.dispose();
    },
  };
}
