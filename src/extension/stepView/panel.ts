// The one step view panel: created on first use, then reused (and retitled) for every step shown.
import * as vscode from 'vscode';
import { readPostsText } from '../../core/load';
import { stepPiMarks } from '../../core/pi/highlight';
import { CONFIDENCES, type Confidence } from '../../core/pi/types';
import { buildStepModel, neighbours } from '../../core/stepModel';
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
} from '../../shared/stepViewProtocol';
import type { BenchmarkStore, StepRef } from '../store';
import { localRoots, newNonce, stepViewHtml } from './html';

const OPEN_CONTEXT = 'personaLab.stepViewOpen';

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

export class StepPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private current: StepRef | undefined;
  /** The webview said `ready` since it was (re)loaded: messages posted before that would be lost. */
  private ready = false;
  private readonly disposables: vscode.Disposable[] = [];
  // Hooks for other features (labels): a step was (re)sent to the webview, and label actions from it.
  private readonly stepShown = new vscode.EventEmitter<StepRef>();
  readonly onDidShowStep = this.stepShown.event;
  private readonly labelAction = new vscode.EventEmitter<LabelUiAction>();
  readonly onDidReceiveLabelAction = this.labelAction.event;
  private addon: StepViewAddon | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly store: BenchmarkStore,
  ) {
    this.disposables.push(
      store.onDidChange(() => this.refresh()),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('personaLab.audit.minConfidence') && this.refresh()),
      this.stepShown,
      this.labelAction,
    );
  }

  get currentRef(): StepRef | undefined {
    return this.current;
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
    if (!this.addon || !ref || !this.store.step(ref)) return;
    this.addon.state(ref).then(
      (state) => {
        if (this.current && sameRef(this.current, ref)) this.post({ type: 'rerun', state });
      },
      (e: unknown) => console.warn(`[persona-lab] step view: no re-run state: ${e instanceof Error ? e.message : String(e)}`),
    );
  }

  show(ref: StepRef, preserveFocus = false): void {
    this.current = { platform: ref.platform, userId: ref.userId, stepId: ref.stepId };
    if (!this.panel) this.create(preserveFocus);
    else if (!this.panel.visible || !this.panel.active) this.panel.reveal(this.panel.viewColumn, preserveFocus);
    this.refresh();
  }

  /** Moves to a neighbour of the current step; false when there is none in that direction. */
  navigate(direction: NavDirection): boolean {
    const bench = this.store.bench;
    if (!bench || !this.current) return false;
    const target = neighbours(bench, this.current)[direction];
    if (!target) return false;
    this.show(target, true);
    return true;
  }

  private create(preserveFocus: boolean): void {
    const panel = vscode.window.createWebviewPanel(
      STEP_VIEW_TYPE,
      'Persona Lab step',
      { viewColumn: vscode.ViewColumn.Active, preserveFocus },
      { enableScripts: true, localResourceRoots: localRoots(this.extensionUri), enableFindWidget: true },
    );
    this.panel = panel;
    this.ready = false;
    const own: vscode.Disposable[] = [];
    panel.webview.html = stepViewHtml(panel.webview, this.extensionUri, newNonce());
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.ready = false;
      for (const d of own.splice(0)) d.dispose();
      void vscode.commands.executeCommand('setContext', OPEN_CONTEXT, false);
    });
    // Without retainContextWhenHidden a hidden webview is torn down; it posts `ready` again when shown.
    panel.onDidChangeViewState(() => {
      if (!panel.visible) this.ready = false;
    }, undefined, own);
    panel.webview.onDidReceiveMessage((raw: unknown) => this.onMessage(raw), undefined, own);
    void vscode.commands.executeCommand('setContext', OPEN_CONTEXT, true);
  }

  private onMessage(raw: unknown): void {
    if (!isWebviewToExtension(raw)) {
      console.warn('[persona-lab] step view: ignored an unknown message from the webview');
      return;
    }
    switch (raw.type) {
      case 'ready':
        this.ready = true;
        this.refresh();
        break;
      case 'navigate':
        this.navigate(raw.direction);
        break;
      case 'openSource':
        void this.openSource(raw.which);
        break;
      case 'label':
        this.labelAction.fire(raw.action);
        break;
      case 'command':
      case 'selectAttempt':
      case 'openAttempt':
        if (this.current) this.addon?.onRequest(raw, this.current);
        break;
    }
  }

  /** Posts to the webview once it is ready (dropped before: the next `ready` re-sends the step). */
  post(message: ExtensionToWebview): void {
    if (this.panel && this.ready) void this.panel.webview.postMessage(message);
  }

  /** Re-renders the current step (after a move, a reload of the benchmark, or a change of run). */
  private refresh(): void {
    const panel = this.panel;
    const ref = this.current;
    if (!panel || !ref) return;
    const found = this.store.step(ref);
    const bench = this.store.bench;
    if (!found || !bench) {
      panel.title = `${ref.userId} · step ${ref.stepId}`;
      this.post({ type: 'empty', message: `Step ${ref.stepId} of ${ref.userId} (${ref.platform}) is not in the loaded benchmark.` });
      return;
    }
    const { user, step } = found;
    let postsText = '';
    try {
      postsText = readPostsText(user, step);
    } catch (e) {
      console.warn(`[persona-lab] step view: could not read posts of ${user.userId}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const model = buildStepModel({ bench, user, step, run: this.store.run, postsText });
    const next = neighbours(bench, ref);
    const nav = Object.fromEntries(NAV_DIRECTIONS.map((d) => [d, next[d] !== null])) as NavState;
    panel.title = `${user.userId} · step ${step.stepId}/${model.header.totalSteps}`;
    this.post({ type: 'show', model, nav, pi: stepPiMarks(model, { minConfidence: piMinConfidence() }) });
    this.postRerun();
    if (this.ready) this.stepShown.fire({ ...ref });
    if (this.ready) console.log(`[persona-lab] step view: showing ${user.platform}/${user.userId} step ${step.stepId}`);
  }

  private async openSource(which: 'tasks' | 'result'): Promise<void> {
    const ref = this.current;
    const found = ref && this.store.step(ref);
    const bench = this.store.bench;
    if (!found || !bench) return;
    let file: vscode.Uri | undefined;
    let line = 0;
    if (which === 'tasks') {
      file = vscode.Uri.file(found.user.ref.file);
      line = found.user.ref.line;
    } else {
      const run = this.store.run;
      const rel = run?.files.get(found.user.platform);
      const result = run?.results.get(found.user.platform)?.get(found.user.userId);
      if (!rel || !result) {
        void vscode.window.showInformationMessage('Persona Lab: the selected run has no result for this user.');
        return;
      }
      file = vscode.Uri.joinPath(vscode.Uri.file(bench.root), rel);
      line = result.steps.get(found.step.stepId)?.line ?? result.line;
    }
    const pos = new vscode.Position(Math.max(0, line - 1), 0);
    await vscode.window.showTextDocument(file, { viewColumn: vscode.ViewColumn.Beside, preview: true, selection: new vscode.Range(pos, pos) });
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
