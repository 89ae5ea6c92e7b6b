// A step view panel: created on first use, then reused (and retitled) for every step shown. The main one follows the
// selected run; a pinned one (StepViews.forRun) always shows its own run, and has no re-run part.
import * as vscode from 'vscode';
import { readPostsText } from '../../../../core/spb/format/load';
import { stepPiMarks } from '../../../../core/spb/pi/highlight';
import { fieldKey, type PiHighlight } from '../../../../core/pi/spans';
import { markChains, personaHasFinding, userPiChains } from '../../../../core/spb/pi/userChains';
import { CONFIDENCES, type Confidence } from '../../../../core/pi/types';
import { buildStepModel, neighbours } from '../../../../core/spb/view/stepModel';
import type { Platform, Run } from '../../../../core/spb/types';
import {
  NAV_DIRECTIONS,
  STEP_VIEW_TYPE,
  isWebviewToExtension,
  type ExtensionToWebview,
  type LabelUiAction,
  type NavDirection,
  type NavState,
  type RerunRequest,
  type RerunState,
  type WebviewToExtension,
} from '../../../../shared/spb/stepViewProtocol';
import type { SpbStore, StepRef } from '../store';
import { openLineBeside } from '../../../docs';
import { ShownPanel, type PanelHostOptions } from '../../../webviewPanel';
import { newNonce, stepViewHtml } from './html';
import { log } from '../../../log';

/** The re-run part of the step view, provided by the rerun feature (src/extension/rerun). */
export interface StepViewAddon {
  state(ref: StepRef): Promise<RerunState>;
  onRequest(request: RerunRequest, ref: StepRef): void;
}

const sameRef = (a: StepRef, b: StepRef) => a.platform === b.platform && a.userId === b.userId && a.stepId === b.stepId;

/** The PI audit's confidence floor applies to the step view's residual-PI marks too. */
export function piMinConfidence(): Confidence {
  const v = vscode.workspace.getConfiguration('personaLab.audit').get<unknown>('minConfidence');
  return (CONFIDENCES as readonly unknown[]).includes(v) ? (v as Confidence) : 'low';
}

const copyRef = (ref: StepRef): StepRef => ({ platform: ref.platform, userId: ref.userId, stepId: ref.stepId });

export class StepPanel extends ShownPanel<StepRef, ExtensionToWebview, WebviewToExtension> {
  private readonly openChanged = new vscode.EventEmitter<boolean>();
  /** Fires true when the panel is created and false when it is closed. */
  readonly onDidChangeOpen = this.openChanged.event;
  // Hooks for other features (labels): a step was (re)sent to the webview, and label actions from it.
  private readonly stepShown = new vscode.EventEmitter<StepRef>();
  readonly onDidShowStep = this.stepShown.event;
  private readonly labelAction = new vscode.EventEmitter<LabelUiAction>();
  readonly onDidReceiveLabelAction = this.labelAction.event;
  private addon: StepViewAddon | undefined;
  /** When the panel was made, until its page first says `ready` (logged, for docs/performance.md). */
  private madeAt: number | undefined;
  /** A PI Audit finding to outline on its step; `revealed` once the page has scrolled to it. */
  private highlight: { ref: StepRef; span: PiHighlight; revealed: boolean } | undefined;

  /** `pinnedRun`: the run this panel always shows; undefined for the main panel, which follows the selected run. */
  constructor(
    extensionUri: vscode.Uri,
    private readonly store: SpbStore,
    readonly pinnedRun?: string,
  ) {
    super(extensionUri, { accepts: isWebviewToExtension, logName: 'step view', copy: copyRef });
    this.disposables.push(
      store.onDidChange(() => this.refresh()),
      store.tree.order.onDidChange(() => this.refresh()),
      vscode.workspace.onDidChangeConfiguration(
        (e) => e.affectsConfiguration('personaLab.audit.minConfidence') && this.refresh(),
      ),
      this.stepShown,
      this.labelAction,
      this.openChanged,
    );
  }

  /** The name of the run shown (the pinned run even when the loaded benchmark lacks it). */
  get runName(): string | undefined {
    return this.pinnedRun ?? this.store.runName;
  }

  /** The run shown, in the loaded benchmark. */
  get run(): Run | undefined {
    return this.pinnedRun === undefined ? this.store.run : this.store.bench?.runs.get(this.pinnedRun);
  }

  setAddon(addon: StepViewAddon): vscode.Disposable {
    this.addon = addon;
    this.postRerun();
    return new vscode.Disposable(() => {
      if (this.addon === addon) this.addon = undefined;
    });
  }

  /** Re-sends the re-run part when `ref` (default: any step) is the one shown. */
  updateRerun(ref?: StepRef): void {
    if (!ref || (this.current && sameRef(ref, this.current))) this.postRerun();
  }

  private postRerun(): void {
    const ref = this.current;
    if (!this.addon || this.pinnedRun !== undefined || !ref || !this.store.step(ref)) return;
    this.addon.state(ref).then(
      (state) => {
        if (this.current && sameRef(this.current, ref)) this.post({ type: 'rerun', state });
      },
      (e: unknown) => log.warn(`step view: no re-run state: ${e instanceof Error ? e.message : String(e)}`),
    );
  }

  /**
   * `viewColumn`: where to open it, or move it to (default: the active group when new, else where it is).
   * `highlight`: a PI Audit finding on this step to outline and scroll to; it stays outlined while the step shows.
   */
  show(ref: StepRef, preserveFocus = false, viewColumn?: vscode.ViewColumn, highlight?: PiHighlight): void {
    if (highlight) this.highlight = { ref: copyRef(ref), span: highlight, revealed: false };
    else if (this.highlight && !sameRef(this.highlight.ref, ref)) this.highlight = undefined;
    this.showRef(ref, { preserveFocus, viewColumn, revealInactive: true });
  }

  /** Users are walked in the order the Benchmarks tree lists them (Sort Users By…). */
  private readonly treeOrder = (platform: Platform) => this.store.tree.userIds(platform);

  /** Moves to a neighbour of the current step; false when there is none in that direction. */
  navigate(direction: NavDirection): boolean {
    const bench = this.store.bench;
    if (!bench || !this.current) return false;
    const target = neighbours(bench, this.current, this.treeOrder)[direction];
    if (!target) return false;
    this.show(target, true);
    return true;
  }

  protected hostOptions(): Pick<PanelHostOptions<ExtensionToWebview>, 'viewType' | 'title' | 'html'> {
    return {
      viewType: STEP_VIEW_TYPE,
      title: this.pinnedRun === undefined ? 'Persona Lab step' : `${this.pinnedRun} · step`,
      html: (webview, first) => stepViewHtml(webview, this.extensionUri, newNonce(), first),
    };
  }

  protected override opened(): void {
    this.madeAt = performance.now();
    this.openChanged.fire(true);
  }

  protected override closed(): void {
    this.openChanged.fire(false);
  }

  protected handle(msg: WebviewToExtension): void {
    switch (msg.type) {
      case 'ready': {
        const t0 = performance.now();
        const made = this.madeAt === undefined ? '' : ` ${Math.round(t0 - this.madeAt)} ms after the panel was made`;
        this.madeAt = undefined;
        this.refresh();
        log.info(`step view: page ready${made}; step sent in ${Math.round(performance.now() - t0)} ms`);
        break;
      }
      case 'navigate':
        this.navigate(msg.direction);
        break;
      case 'goToStep':
        if (this.current) this.show({ ...this.current, stepId: msg.stepId }, true);
        break;
      case 'openSource':
        void this.openSource(msg.which);
        break;
      case 'label':
        this.labelAction.fire(msg.action);
        break;
      case 'command':
      case 'selectAttempt':
      case 'openAttempt':
      case 'retryAttempt':
        if (this.current && this.pinnedRun === undefined) this.addon?.onRequest(msg, this.current);
        break;
    }
  }

  /** Re-renders the current step (after a move, a reload of the benchmark, or a change of run). */
  protected refresh(): void {
    const host = this.host;
    const ref = this.current;
    if (!host || !ref) return;
    const found = this.store.step(ref);
    const bench = this.store.bench;
    const pinned = this.pinnedRun ?? null;
    const prefix = pinned === null ? '' : `${pinned} · `;
    if (!found || !bench) {
      host.panel.title = `${prefix}${ref.userId} · step ${ref.stepId}`;
      this.post({
        type: 'empty',
        message: `Step ${ref.stepId} of ${ref.userId} (${ref.platform}) is not in the loaded benchmark.`,
      });
      return;
    }
    const run = this.run;
    if (pinned !== null && !run) {
      host.panel.title = `${prefix}${ref.userId} · step ${ref.stepId}`;
      this.post({ type: 'empty', message: `Run ${pinned} is not in the loaded benchmark any more.` });
      return;
    }
    const { user, step } = found;
    let postsText = '';
    try {
      postsText = readPostsText(user, step);
    } catch (e) {
      log.warn(`step view: could not read posts of ${user.userId}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const model = buildStepModel({ bench, user, step, run, postsText });
    const next = neighbours(bench, ref, this.treeOrder);
    const nav = Object.fromEntries(NAV_DIRECTIONS.map((d) => [d, next[d] !== null])) as NavState;
    host.panel.title = `${prefix}${user.userId} · step ${step.stepId}/${model.header.totalSteps}`;
    const minConfidence = piMinConfidence();
    const pi = stepPiMarks(model, { minConfidence });
    if (run && personaHasFinding(pi)) {
      const texts: Record<string, string> = {
        [fieldKey.personaReceived]: model.persona.received ?? '',
        [fieldKey.personaWritten]: model.persona.written ?? '',
      };
      model.persona.diff?.forEach((d, i) => (texts[fieldKey.diff(i)] = d.text));
      markChains(pi, texts, userPiChains(bench, run, user, minConfidence));
    }
    this.post({
      type: 'show',
      model,
      nav,
      pi,
      pinnedRun: pinned,
    });
    const h = this.highlight;
    if (h && sameRef(h.ref, ref) && host.ready) {
      this.post({ type: 'highlightPi', highlight: h.span, reveal: !h.revealed });
      h.revealed = true;
    }
    this.postRerun();
    if (host.ready) {
      this.stepShown.fire({ ...ref });
      log.debug(
        `step view${pinned === null ? '' : ` (${pinned})`}: showing ${user.platform}/${user.userId} step ${step.stepId}`,
      );
    }
  }

  private async openSource(which: 'tasks' | 'result'): Promise<void> {
    const ref = this.current;
    const found = ref && this.store.step(ref);
    const bench = this.store.bench;
    if (!found || !bench) return;
    let file: vscode.Uri | undefined;
    let line: number;
    if (which === 'tasks') {
      file = vscode.Uri.file(found.user.ref.file);
      line = found.user.ref.line;
    } else {
      const run = this.run;
      const rel = run?.files.get(found.user.platform);
      const result = run?.results.get(found.user.platform)?.get(found.user.userId);
      if (!rel || !result) {
        void vscode.window.showInformationMessage(
          `Persona Lab: run ${this.runName ?? '(none)'} has no result for this user.`,
        );
        return;
      }
      file = vscode.Uri.joinPath(vscode.Uri.file(bench.root), rel);
      line = result.steps.get(found.step.stepId)?.line ?? result.line;
    }
    await openLineBeside(file, line);
  }
}
