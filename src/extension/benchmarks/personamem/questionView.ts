// The PersonaMem question view: what the model saw for one question (the history up to its end index, as a list
// whose windows are read here and sent on demand), the question, the options with the model's pick and the right
// one. One panel, reused; [ and ] in the page walk the persona's questions. Opened from a question row of the tree.
import * as vscode from 'vscode';
import { readContext, type PmMessage } from '../../../core/personamem/contexts';
import { buildQuestionModel, historyRows, personaQuestions } from '../../../core/personamem/view';
import type { PmContext } from '../../../core/personamem/types';
import {
  QUESTION_VIEW_TYPE,
  isRerunAsk,
  isWebviewToExtension,
  savedQuestion,
  type AttemptsMessage,
  type ExtensionToWebview,
  type RerunAsk,
  type PmPiFinding,
  type QuestionRef,
  type WebviewToExtension,
} from '../../../shared/personamem/questionProtocol';
import type { QuestionLabelAction } from '../../../shared/personamem/labelProtocol';
import { log } from '../../log';
import { newNonce, webviewHtml } from '../../webviewHtml';
import { ShownPanel, type PanelHostOptions } from '../../webviewPanel';
import { choosePersonaMemRun } from './commands';
import { CHOOSE_RUN_COMMAND, OPEN_QUESTION_COMMAND } from './ids';
import type { PersonaMemStore } from './store';

interface Shown {
  ref: QuestionRef;
  generation: number;
  context: PmContext;
  /** the context's messages, read once per context shown (on the extension host, never in the page) */
  all: PmMessage[];
  /** how many of them the model saw */
  seen: number;
  starts: ReadonlySet<number>;
}

const copyRef = (ref: QuestionRef): QuestionRef => ({ split: ref.split, questionId: ref.questionId });
const isRef = (v: unknown): v is QuestionRef =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as QuestionRef).split === 'string' &&
  typeof (v as QuestionRef).questionId === 'string';

/** Where the PI Audit's findings in a question come from (the audit part, audit/question.ts). */
export interface QuestionAuditSource {
  /** undefined before an audit, or when the benchmark changed since */
  findingsIn(ref: QuestionRef): { findings: PmPiFinding[]; found: number } | undefined;
}

export class QuestionPanel extends ShownPanel<QuestionRef, ExtensionToWebview, WebviewToExtension> {
  private shown: Shown | undefined;
  private generation = 0;
  private readonly shownEmitter = new vscode.EventEmitter<QuestionRef>();
  private readonly rerunEmitter = new vscode.EventEmitter<{ ref: QuestionRef; msg: RerunAsk }>();
  /** Re-run, Edit Prompt or an attempt's document asked for in the page (the format's re-run part answers). */
  readonly onDidAskRerun = this.rerunEmitter.event;
  private auditSource: QuestionAuditSource | undefined;
  /** the finding a show from the PI Audit is for, posted after the page has the question */
  private pendingTarget: string | undefined;
  /** After each question sent to the page (a feature's part follows with its own message: labels, attempts). */
  readonly onDidShow = this.shownEmitter.event;
  private readonly labelEmitter = new vscode.EventEmitter<QuestionLabelAction>();
  readonly onDidReceiveLabelAction = this.labelEmitter.event;

  constructor(
    extensionUri: vscode.Uri,
    private readonly store: PersonaMemStore,
  ) {
    super(extensionUri, { accepts: isWebviewToExtension, logName: 'question view', copy: copyRef });
    this.disposables.push(
      store.onDidChange(() => void this.refresh()),
      this.shownEmitter,
      this.rerunEmitter,
      this.labelEmitter,
    );
  }

  /** The attempts of `ref`, when it is the question shown. */
  postAttempts(ref: QuestionRef, msg: AttemptsMessage): void {
    const cur = this.current;
    if (cur && cur.split === ref.split && cur.questionId === ref.questionId && this.host?.ready) this.post(msg);
  }

  show(ref: QuestionRef): void {
    this.pendingTarget = undefined;
    this.showRef(ref);
  }

  /** Shows a question with a PI Audit finding (`key`) outlined; the focus stays in the PI Audit view. */
  showFinding(ref: QuestionRef, key: string): void {
    this.pendingTarget = key;
    this.showRef(ref, { preserveFocus: true, revealInactive: true });
  }

  /** Where the PI Audit's findings come from; the question shown gets them at once. */
  setAuditSource(source: QuestionAuditSource): vscode.Disposable {
    this.auditSource = source;
    this.postAuditPi();
    return new vscode.Disposable(() => {
      if (this.auditSource === source) this.auditSource = undefined;
    });
  }

  /** Sends the PI Audit's findings in the question shown (after each `show`, and after each audit). */
  postAuditPi(target: string | null = null): void {
    const ref = this.current;
    if (!ref || !this.host?.ready) return;
    const got = this.auditSource?.findingsIn(ref);
    this.post({
      type: 'auditPi',
      generation: this.generation,
      audited: got !== undefined,
      findings: got?.findings ?? [],
      found: got?.found ?? 0,
      target,
    });
  }

  protected hostOptions(): Pick<PanelHostOptions, 'viewType' | 'title' | 'html'> {
    return {
      viewType: QUESTION_VIEW_TYPE,
      title: 'PersonaMem question',
      html: (webview) =>
        webviewHtml(webview, this.extensionUri, newNonce(), {
          title: 'PersonaMem question',
          bundle: 'question',
          rootId: 'question-root',
          placeholder: 'Loading the question…',
        }),
    };
  }

  protected override closed(): void {
    this.shown = undefined;
  }

  protected refresh(): void {
    const panel = this.host?.panel;
    const ref = this.current;
    if (!panel || !ref || !this.host?.ready) return;
    const bench = this.store.bench;
    const q = this.store.question(ref.split, ref.questionId);
    if (!bench || !q) {
      this.shown = undefined;
      this.post({ type: 'empty', message: `Question ${ref.questionId} is not in the loaded PersonaMem benchmark.` });
      return;
    }
    const model = buildQuestionModel(bench, q, this.store.run, this.store.score());
    const generation = ++this.generation;
    const context = bench.splits.get(q.split)?.contexts.get(q.contextId);
    const before = this.shown;
    this.shown = undefined;
    if (context && q.endIndex !== undefined) {
      try {
        const all = before?.context === context ? before.all : readContext(context);
        this.shown = { ref, generation, context, all, seen: model.seen, starts: new Set(context.sessionStarts) };
      } catch (e) {
        model.historyProblem = `Cannot read the history (${context.file}): ${e instanceof Error ? e.message : String(e)}`;
      }
    }
    panel.title = `persona ${q.personaId} · Q${model.position}`;
    this.post({ type: 'show', generation, model });
    this.shownEmitter.fire(copyRef(ref));
    this.postAuditPi(this.pendingTarget ?? null);
    this.pendingTarget = undefined;
    log.debug(`question view: showing ${q.split} ${q.questionId}`);
  }

  protected handle(msg: WebviewToExtension): void {
    if (msg.type === 'ready') return this.refresh();
    if (msg.type === 'navigate') return this.navigate(msg.delta);
    if (isRerunAsk(msg)) {
      if (this.current) this.rerunEmitter.fire({ ref: copyRef(this.current), msg });
      return;
    }
    if (msg.type === 'label') return this.labelEmitter.fire(msg.action);
    const shown = this.shown;
    if (!shown || msg.generation !== shown.generation) return;
    if (msg.type === 'rows') {
      const to = Math.min(msg.to, shown.seen);
      const from = Math.min(msg.from, to);
      const rows = historyRows(shown.all.slice(from, to), from, shown.context.sessionStarts, shown.starts);
      this.post({ type: 'rows', generation: shown.generation, from, rows });
    } else if (msg.type === 'message') {
      const m = msg.index < shown.seen ? shown.all[msg.index] : undefined;
      if (m)
        this.post({ type: 'message', generation: shown.generation, index: msg.index, role: m.role, text: m.content });
    }
  }

  private navigate(delta: 1 | -1): void {
    const bench = this.store.bench;
    const cur = this.current && this.store.question(this.current.split, this.current.questionId);
    if (!bench || !cur) return;
    const siblings = personaQuestions(bench, cur.split, cur.personaId);
    const next = siblings[siblings.findIndex((q) => q.questionId === cur.questionId) + delta];
    if (next) this.show({ split: next.split, questionId: next.questionId });
  }
}

const panels = new WeakMap<PersonaMemStore, QuestionPanel>();

/** The question view of `store` (the features' parts show their bars in it); undefined before it is made. */
export function questionPanelOf(store: PersonaMemStore): QuestionPanel | undefined {
  return panels.get(store);
}

/** The question view, and the commands its tree rows run (open a question, choose the run). */
export function activateQuestionView(store: PersonaMemStore, context: vscode.ExtensionContext): vscode.Disposable {
  const panel = new QuestionPanel(context.extensionUri, store);
  panels.set(store, panel);
  const command = vscode.commands.registerCommand(OPEN_QUESTION_COMMAND, async (arg: unknown) => {
    await store.ready();
    if (isRef(arg)) panel.show(copyRef(arg));
  });
  // After Reload Window the page's saved state names its question; it opens again once the benchmark has loaded.
  const serializer = vscode.window.registerWebviewPanelSerializer(QUESTION_VIEW_TYPE, {
    async deserializeWebviewPanel(restored: vscode.WebviewPanel, state: unknown): Promise<void> {
      const ref = savedQuestion(state);
      if (!ref) return restored.dispose();
      await store.ready();
      panel.adopt(restored, ref);
      log.info(`question view: restored ${ref.split} ${ref.questionId}`);
    },
  });
  const chooseRun = vscode.commands.registerCommand(CHOOSE_RUN_COMMAND, (arg: unknown) =>
    choosePersonaMemRun(store, arg),
  );
  return vscode.Disposable.from(panel, command, chooseRun, serializer);
}
