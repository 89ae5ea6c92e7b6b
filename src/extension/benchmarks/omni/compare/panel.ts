// The OmniBehavior compare view: run B against run A on the test actions both answered (core/omni/compare.ts): each
// run's figures (the overall, the components, each field's F1, NMAE, judge mean or exact match), B − A with its
// paired interval over users, and the answers whose outcome changed; a row opens its test action in the trace view.
// The panel, its pair and its reloads are the generic compare view's (compare/panel.ts).
import * as vscode from 'vscode';
import { compareOmniRuns, omniCompareProblem, type OmniComparison } from '../../../../core/omni/compare';
import {
  OMNI_COMPARE_VIEW_TYPE,
  isWebviewToExtension,
  type WebviewToExtension,
} from '../../../../shared/omni/compareProtocol';
import { RunPairPanel, type CompareFromWebview } from '../../../compare/panel';
import type { RunPair } from '../../../compare/part';
import { log } from '../../../log';
import { newNonce, webviewHtml } from '../../../webviewHtml';
import type { OmniStore } from '../store';

const VIEW = 'OmniBehavior compare view';
const PAIR_KEY = 'personaLab.omni.comparePair';

type Own = Exclude<WebviewToExtension, CompareFromWebview>;

function runsOf(store: OmniStore, pair: RunPair) {
  const a = store.bench?.runs.get(pair.a);
  const b = store.bench?.runs.get(pair.b);
  return a && b ? { a, b } : undefined;
}

export class OmniComparePanel extends RunPairPanel<OmniComparison, Own> {
  constructor(extensionUri: vscode.Uri, store: OmniStore, state: vscode.Memento) {
    super(
      {
        viewType: OMNI_COMPARE_VIEW_TYPE,
        title: 'Persona Lab: Compare OmniBehavior Runs',
        viewColumn: vscode.ViewColumn.Active,
        extensionUri,
        html: (webview) =>
          webviewHtml(webview, extensionUri, newNonce(), {
            title: 'Persona Lab OmniBehavior compare',
            bundle: 'omnicompare',
            rootId: 'omnicompare-root',
            placeholder: 'Loading…',
          }),
      },
      { accepts: isWebviewToExtension, logName: VIEW },
      {
        bench: () => store.bench,
        problem: (pair) => {
          const runs = runsOf(store, pair);
          return runs && omniCompareProblem(runs.a, runs.b);
        },
        compare: (pair) => {
          const bench = store.bench;
          const runs = runsOf(store, pair);
          return bench && runs && !omniCompareProblem(runs.a, runs.b)
            ? compareOmniRuns(bench, runs.a, runs.b)
            : undefined;
        },
        describe: (cmp) =>
          `${cmp.scope.paired} paired test action(s) of ${cmp.scope.users} user(s), ${cmp.scope.answers} paired answer(s), ${cmp.changed.length} changed`,
        noBenchmark: 'No OmniBehavior benchmark is open.',
        onDidChange: store.onDidChange,
      },
      state,
      PAIR_KEY,
    );
  }

  protected async handleOwn(msg: Own): Promise<void> {
    if (msg.type !== 'openAction') return;
    log.info(`${VIEW}: opening ${msg.userId} #${msg.index}`);
    await vscode.commands.executeCommand('personaLab.openTrace', { userId: msg.userId, index: msg.index });
  }
}
