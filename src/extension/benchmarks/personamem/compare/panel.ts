// The PersonaMem compare view: run B against run A on the questions both answered (core/personamem/compare.ts):
// each run's accuracy, B − A with its paired interval over personas, overall and per question type, and the
// questions whose answer changed; a question's row opens it in the question view. One panel, reused; it follows
// the benchmark's reloads.
import * as vscode from 'vscode';
import { comparePersonaMemRuns, pmCompareProblem, type PmComparison } from '../../../../core/personamem/compare';
import {
  PM_COMPARE_VIEW_TYPE,
  isWebviewToExtension,
  type ExtensionToWebview,
  type WebviewToExtension,
} from '../../../../shared/personamem/compareProtocol';
import type { RunPair } from '../../../compare/part';
import { log } from '../../../log';
import { newNonce, webviewHtml } from '../../../webviewHtml';
import { ReusedPanel } from '../../../webviewPanel';
import { OPEN_QUESTION_COMMAND } from '../ids';
import type { PersonaMemStore } from '../store';

const VIEW = 'PersonaMem compare view';
const PAIR_KEY = 'personaLab.personamem.comparePair';

export class PersonaMemComparePanel extends ReusedPanel<ExtensionToWebview, WebviewToExtension> {
  private cached: { bench: unknown; pair: RunPair; cmp: PmComparison } | undefined;
  private readonly pairChanged = new vscode.EventEmitter<void>();
  /** Fires when another pair is compared or the benchmark reloads. */
  readonly onDidChangePair = this.pairChanged.event;

  constructor(
    extensionUri: vscode.Uri,
    private readonly store: PersonaMemStore,
    private readonly state: vscode.Memento,
  ) {
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
    );
    this.disposables.push(
      this.pairChanged,
      store.onDidChange(() => {
        this.refresh();
        this.pairChanged.fire();
      }),
    );
  }

  /** The pair compared last, even if a run of it is gone now. */
  get pair(): RunPair | undefined {
    return this.state.get<RunPair>(PAIR_KEY);
  }

  /** Compares the pair from now on; shows the view unless `show` is false (compare mode's pick). */
  async setPair(pair: RunPair, show = true): Promise<void> {
    await this.state.update(PAIR_KEY, { a: pair.a, b: pair.b });
    if (show) this.show();
    else this.refresh();
    this.pairChanged.fire();
  }

  /** Why the pair cannot be compared, or undefined (undefined too when a run is not scored yet). */
  problem(pair: RunPair): string | undefined {
    const a = this.store.score(pair.a);
    const b = this.store.score(pair.b);
    return a && b ? pmCompareProblem(a, b) : undefined;
  }

  /** The comparison of the pair, computed once per load and pair. */
  comparison(pair: RunPair): PmComparison | undefined {
    const bench = this.store.bench;
    const a = this.store.score(pair.a);
    const b = this.store.score(pair.b);
    if (!bench || !a || !b || pmCompareProblem(a, b)) return undefined;
    const c = this.cached;
    if (c && c.bench === bench && c.pair.a === pair.a && c.pair.b === pair.b) return c.cmp;
    const started = Date.now();
    const cmp = comparePersonaMemRuns(bench, a, b);
    log.info(
      `${VIEW}: ${pair.a} vs ${pair.b}: ${cmp.overall.items} paired question(s) of ${cmp.overall.units} persona(s), ${cmp.differing.length} differing, in ${Date.now() - started} ms`,
    );
    this.cached = { bench, pair, cmp };
    return cmp;
  }

  protected refresh(): void {
    if (!this.host) return;
    const pair = this.pair;
    const bench = this.store.bench;
    const cmp = pair && this.comparison(pair);
    if (!cmp || !pair) {
      const why = pair && this.problem(pair);
      this.post({
        type: 'empty',
        message: !bench
          ? 'No PersonaMem benchmark is open.'
          : (why ?? 'Pick two runs of one split to compare (Persona Lab: Compare Runs…).'),
      });
      return;
    }
    this.host.panel.title = `Compare: ${pair.a} vs ${pair.b}`;
    this.post({ type: 'show', model: cmp });
  }

  protected async handle(msg: WebviewToExtension): Promise<void> {
    switch (msg.type) {
      case 'openQuestion': {
        const split = this.cached?.cmp.split;
        if (!split) return;
        log.info(`${VIEW}: opening ${split} ${msg.questionId}`);
        await vscode.commands.executeCommand(OPEN_QUESTION_COMMAND, { split, questionId: msg.questionId });
        break;
      }
      case 'pickRuns':
        await vscode.commands.executeCommand('personaLab.compareRuns');
        break;
      case 'swapRuns': {
        const pair = this.pair;
        if (pair) await this.setPair({ a: pair.b, b: pair.a });
        break;
      }
      default:
        break;
    }
  }
}
