// The PersonaMem compare view: run B against run A on the questions both answered (core/personamem/compare.ts):
// each run's accuracy, B − A with its paired interval over personas, overall and per question type, and the
// questions whose answer changed; a question's row opens it in the question view. The panel, its pair and its
// reloads are the generic compare view's (compare/panel.ts).
import * as vscode from 'vscode';
import { comparePersonaMemRuns, pmCompareProblem, type PmComparison } from '../../../../core/personamem/compare';
import {
  PM_COMPARE_VIEW_TYPE,
  isWebviewToExtension,
  type WebviewToExtension,
} from '../../../../shared/personamem/compareProtocol';
import { RunPairPanel, type CompareFromWebview } from '../../../compare/panel';
import { log } from '../../../log';
import { newNonce, webviewHtml } from '../../../webviewHtml';
import { OPEN_QUESTION_COMMAND } from '../ids';
import type { PersonaMemStore } from '../store';

const VIEW = 'PersonaMem compare view';
const PAIR_KEY = 'personaLab.personamem.comparePair';

type Own = Exclude<WebviewToExtension, CompareFromWebview>;

export class PersonaMemComparePanel extends RunPairPanel<PmComparison, Own> {
  constructor(extensionUri: vscode.Uri, store: PersonaMemStore, state: vscode.Memento) {
    super(
      {
        viewType: PM_COMPARE_VIEW_TYPE,
        title: 'Persona Lab: Compare PersonaMem Runs',
        viewColumn: vscode.ViewColumn.Active,
        extensionUri,
        html: (webview) =>
          webviewHtml(webview, extensionUri, newNonce(), {
            title: 'Persona Lab PersonaMem compare',
            bundle: 'personamemcompare',
            rootId: 'pmcompare-root',
            placeholder: 'Loading…',
          }),
      },
      { accepts: isWebviewToExtension, logName: VIEW },
      {
        bench: () => store.bench,
        problem: (pair) => {
          const a = store.score(pair.a);
          const b = store.score(pair.b);
          return a && b ? pmCompareProblem(a, b) : undefined;
        },
        compare: (pair) => {
          const bench = store.bench;
          const a = store.score(pair.a);
          const b = store.score(pair.b);
          return bench && a && b && !pmCompareProblem(a, b) ? comparePersonaMemRuns(bench, a, b) : undefined;
        },
        describe: (cmp) =>
          `${cmp.overall.items} paired question(s) of ${cmp.overall.units} persona(s), ${cmp.differing.length} differing`,
        noBenchmark: 'No PersonaMem benchmark is open.',
        onDidChange: store.onDidChange,
      },
      state,
      PAIR_KEY,
    );
  }

  protected async handleOwn(msg: Own): Promise<void> {
    if (msg.type !== 'openQuestion') return;
    const split = this.current?.split;
    if (!split) return;
    log.info(`${VIEW}: opening ${split} ${msg.questionId}`);
    await vscode.commands.executeCommand(OPEN_QUESTION_COMMAND, { split, questionId: msg.questionId });
  }
}
