// The one trace view panel: a test action of an OmniBehavior user with its history, context and questions. Created
// on first use, then reused. The history stays here: the webview asks for the filtered count and for row windows.
import { join } from 'node:path';
import * as vscode from 'vscode';
import { readHistory, type HistoryIndex } from '../../../../core/omni/history';
import { actionsInOrder } from '../../../../core/omni/order';
import { predictionKey, type OmniUser } from '../../../../core/omni/types';
import {
  TRACE_VIEW_TYPE,
  isWebviewToExtension,
  type AuditPiFinding,
  type ExtensionToWebview,
  type TimelineFilter,
  type TraceLabelAction,
  type TraceRef,
  type WebviewToExtension,
} from '../../../../shared/omni/traceProtocol';
import type { AttemptsMessage } from '../../../../shared/omni/traceAttempts';
import { newNonce, webviewHtml } from '../../../webviewHtml';
import { ShownPanel, type PanelHostOptions } from '../../../webviewPanel';
import { buildTraceModel } from '../model';
import type { OmniStore } from '../store';
import { scanProfile, scanRecords } from '../pi';
import { countsBefore, matchingRecords, readRows, sceneHistogram } from './timeline';
import { log } from '../../../log';
import { openLineBeside } from '../../../docs';

const PI_BATCH = 2000;
/** Findings sent at most: a history can hold thousands, the view lists the first ones and says how many there are. */
const PI_MAX_SENT = 500;

interface Shown {
  ref: TraceRef;
  user: OmniUser;
  index: HistoryIndex;
  positions: Uint32Array;
  generation: number;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

const copyRef = (ref: TraceRef): TraceRef => ({ userId: ref.userId, index: ref.index });

type RerunRequest = Extract<WebviewToExtension, { type: 'rerunAction' | 'editPrompt' | 'openAttempt' }>;

/** The PI Audit's findings in a trace, as the audit feature gives them (src/extension/benchmarks/omni/audit/trace.ts). */
export interface TraceAuditSource {
  /** The findings in the trace of `ref` (the first `PI_MAX_SENT`) and their number; undefined: not audited. */
  findingsIn(ref: TraceRef): { findings: AuditPiFinding[]; found: number } | undefined;
}

export class TracePanel extends ShownPanel<TraceRef, ExtensionToWebview, WebviewToExtension> {
  private shown: Shown | undefined;
  /** Bumped by every refresh, so that a slow one that finishes late does not overwrite a newer one. */
  private token = 0;
  /** A history record to reveal once the test action shows (a PI finding's record). */
  private pendingReveal: number | undefined;
  /** The PI Audit finding (its key) to outline once the test action shows. */
  private pendingTarget: string | undefined;
  private auditSource: TraceAuditSource | undefined;
  private readonly shownEmitter = new vscode.EventEmitter<TraceRef>();
  /** Fires after the webview got a test action (`show`), so that the labels bar follows. */
  readonly onDidShow = this.shownEmitter.event;
  private readonly labelEmitter = new vscode.EventEmitter<TraceLabelAction>();
  readonly onDidReceiveLabelAction = this.labelEmitter.event;
  private readonly rerunEmitter = new vscode.EventEmitter<{ ref: TraceRef; msg: RerunRequest }>();
  /** Re-run, Edit Prompt or an attempt's document asked for in the page (the omniRerun feature answers). */
  readonly onDidAskRerun = this.rerunEmitter.event;

  constructor(
    extensionUri: vscode.Uri,
    private readonly store: OmniStore,
  ) {
    super(extensionUri, { accepts: isWebviewToExtension, logName: 'trace view', copy: copyRef });
    this.disposables.push(
      this.shownEmitter,
      this.labelEmitter,
      this.rerunEmitter,
      store.onDidChange(() => void this.refresh()),
    );
  }

  /** Shows a test action; `reveal`: a history record before it to show and select (its row and its text). */
  show(ref: TraceRef, reveal?: number): void {
    this.pendingReveal = reveal;
    this.pendingTarget = undefined;
    this.showRef(ref);
  }

  /** Shows a test action with a PI Audit finding (`key`) outlined, in history record `reveal` when it is in one. */
  showFinding(ref: TraceRef, key: string, reveal?: number): void {
    this.pendingReveal = reveal;
    this.pendingTarget = key;
    this.showRef(ref);
  }

  /** Where the PI Audit's findings come from (the audit feature); the trace shown gets them at once. */
  setAuditSource(source: TraceAuditSource): vscode.Disposable {
    this.auditSource = source;
    this.postAuditPi(null);
    return new vscode.Disposable(() => {
      if (this.auditSource === source) this.auditSource = undefined;
    });
  }

  /** Sends the PI Audit's findings in the trace shown (after each `show`, and after each audit). */
  postAuditPi(target: string | null = null): void {
    const ref = this.shown?.ref;
    if (!ref || !this.host?.ready) return;
    const got = this.auditSource?.findingsIn(ref);
    this.post({
      type: 'auditPi',
      audited: got !== undefined,
      findings: got?.findings ?? [],
      found: got?.found ?? 0,
      target,
    });
  }

  /** The test action shown, if any. */
  shownRef(): TraceRef | undefined {
    return this.current ? copyRef(this.current) : undefined;
  }

  /** The attempts of `ref`, when it is the test action shown. */
  postAttempts(ref: TraceRef, msg: AttemptsMessage): void {
    const cur = this.current;
    if (cur && cur.userId === ref.userId && cur.index === ref.index && this.host?.ready) this.post(msg);
  }

  /** Moves the view to another test action and selects it in the Benchmarks tree ([ and ], next unlabelled). */
  goTo(ref: TraceRef): void {
    this.show({ userId: ref.userId, index: ref.index });
    void vscode.commands.executeCommand('personaLab.revealTestAction', { userId: ref.userId, index: ref.index });
  }

  protected hostOptions(): Pick<PanelHostOptions, 'viewType' | 'title' | 'html'> {
    return {
      viewType: TRACE_VIEW_TYPE,
      title: 'Persona Lab trace',
      html: (webview) =>
        webviewHtml(webview, this.extensionUri, newNonce(), {
          title: 'Persona Lab trace',
          bundle: 'trace',
          rootId: 'trace-root',
          placeholder: 'Loading the trace…',
        }),
    };
  }

  protected override closed(): void {
    this.shown = undefined;
  }

  protected async refresh(): Promise<void> {
    const panel = this.host?.panel;
    const ref = this.current;
    if (!panel || !ref || !this.host?.ready) return;
    const token = ++this.token;
    const found = this.store.testAction(ref.userId, ref.index);
    if (!found) {
      this.shown = undefined;
      panel.title = `${ref.userId} · #${ref.index}`;
      this.post({
        type: 'empty',
        message: `Test action ${ref.index} of ${ref.userId} is not in the loaded OmniBehavior benchmark.`,
      });
      return;
    }
    const { user, action } = found;
    try {
      const index = user.index;
      const [record] = ref.index < index.count ? await readHistory(user.file, index, ref.index, ref.index + 1) : [];
      if (token !== this.token) return;
      const model = buildTraceModel({
        user,
        action,
        run: this.store.run,
        record,
        counts: countsBefore(index, ref.index),
        score: this.store.score(),
        made: this.store.madeNote(),
      });
      this.shown = { ref, user, index, positions: new Uint32Array(0), generation: -1 };
      panel.title = `${user.userId} · #${action.index} ${action.scene}`;
      this.post({ type: 'show', model });
      log.debug(`trace view: showing ${user.userId} #${action.index}`);
      this.shownEmitter.fire(ref);
      this.postAuditPi(this.pendingTarget ?? null);
      this.pendingTarget = undefined;
      const reveal = this.pendingReveal;
      this.pendingReveal = undefined;
      if (reveal !== undefined && reveal < ref.index && reveal < index.count) {
        this.post({ type: 'reveal', index: reveal });
        await this.handle({ type: 'record', index: reveal });
      }
    } catch (e) {
      if (token !== this.token) return;
      this.shown = undefined;
      this.post({ type: 'empty', message: `Cannot read the history of ${user.userId} (${user.file}): ${message(e)}` });
    }
  }

  protected async handle(msg: WebviewToExtension): Promise<void> {
    if (msg.type === 'ready') return this.refresh();
    if (msg.type === 'label') {
      this.labelEmitter.fire(msg.action);
      return;
    }
    if (msg.type === 'rerunAction' || msg.type === 'editPrompt' || msg.type === 'openAttempt') {
      if (this.current) this.rerunEmitter.fire({ ref: copyRef(this.current), msg });
      return;
    }
    const shown = this.shown;
    if (!shown) return;
    switch (msg.type) {
      case 'filter':
        return this.filter(shown, msg.generation, msg.filter);
      case 'rows': {
        if (msg.generation !== shown.generation) return;
        const rows = await readRows(shown.user.file, shown.index, shown.positions, msg.from, msg.to);
        if (this.shown === shown && shown.generation === msg.generation)
          this.post({ type: 'rows', generation: msg.generation, rows });
        return;
      }
      case 'raw': {
        const q = this.prediction(shown)?.questions.find((x) => x.field === msg.field);
        this.post({ type: 'raw', field: msg.field, text: q ? q.rawOutput : '' });
        return;
      }
      case 'record': {
        if (msg.index > shown.ref.index || msg.index >= shown.index.count) return;
        const [r] = await readHistory(shown.user.file, shown.index, msg.index, msg.index + 1);
        if (r)
          this.post({
            type: 'record',
            index: msg.index,
            text: JSON.stringify(
              { type: r.sceneRaw, timestamp: r.timestamp, context: r.context, action: r.actions },
              null,
              2,
            ),
            behaviours: r.actions.map((a) => a.type),
          });
        return;
      }
      case 'openSource':
        return this.openSource(shown, msg.which, msg.index);
      case 'scanPi':
        return this.scanPi(shown);
      case 'navigate': {
        const order = actionsInOrder(shown.user);
        const next = order[order.findIndex((a) => a.index === shown.ref.index) + msg.delta];
        if (next) this.goTo(next);
        return;
      }
    }
  }

  /** Scans the profile and the records up to the test action's own, in batches, posting the findings as they come. */
  private async scanPi(shown: Shown): Promise<void> {
    const total = Math.min(shown.ref.index + 1, shown.index.count);
    const findings = scanProfile(shown.user.profile);
    let count = findings.length;
    for (let from = 0; from < total; from += PI_BATCH) {
      const found = scanRecords(
        await readHistory(shown.user.file, shown.index, from, Math.min(total, from + PI_BATCH)),
      );
      if (this.shown !== shown) return;
      count += found.length;
      findings.push(...found.slice(0, Math.max(0, PI_MAX_SENT - findings.length)));
      this.post({ type: 'pi', scanned: Math.min(total, from + PI_BATCH), total, findings, done: false, found: count });
    }
    this.post({ type: 'pi', scanned: total, total, findings, done: true, found: count });
  }

  private filter(shown: Shown, generation: number, filter: TimelineFilter): void {
    shown.positions = matchingRecords(shown.index, shown.ref.index, filter);
    shown.generation = generation;
    this.post({
      type: 'timeline',
      generation,
      count: shown.positions.length,
      histogram: sceneHistogram(shown.index, shown.positions),
    });
  }

  private prediction(shown: Shown) {
    return this.store.run?.predictions.get(predictionKey(shown.ref.userId, shown.ref.index));
  }

  private async openSource(shown: Shown, which: 'raw' | 'prediction', at?: number): Promise<void> {
    let file: string;
    let line: number;
    if (which === 'prediction') {
      const p = this.prediction(shown);
      if (!p) {
        void vscode.window.showInformationMessage(
          'Persona Lab: the selected run has no prediction for this test action.',
        );
        return;
      }
      file = join(this.store.bench?.root ?? '', p.file);
      line = p.line;
    } else {
      file = shown.user.file;
      line = shown.index.lines[Math.min(at ?? shown.ref.index, shown.index.count - 1)] ?? 1;
    }
    await openLineBeside(vscode.Uri.file(file), line);
  }
}
