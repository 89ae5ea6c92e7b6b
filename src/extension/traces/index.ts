// OmniBehavior traces: the benchmark's part of the Benchmarks tree (a RootSource), the trace view
// (personaLab.openTrace), the run picker, and opening OmniBehavior folders with Open Benchmark Folder / at start.
import * as vscode from 'vscode';
import { omniRoot } from '../../core/formats';
import { TraceLabelIndex, traceBenchmarkId } from '../../core/labels/trace';
import type { LabelService } from '../labels/service';
import { TraceLabelController } from '../labels/traceController';
import { registerOpener } from '../commands/open';
import type { TreeApi } from '../tree';
import type { RootSource } from '../tree/roots';
import { OmniBenchmarkNode, TestActionNode } from './nodes';
import { OmniDashboardPanel } from './dashboard';
import { TracePanel } from './panel';
import { omniProblems } from './problems';
import { OmniStore } from './store';
import type { TraceRef } from '../../shared/traceProtocol';

/** The tree's OmniBehavior root, rebuilt when the store changes (a new load or another run). */
class OmniRoots implements RootSource {
  private root: OmniBenchmarkNode | undefined;
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly store: OmniStore,
    private readonly labels: LabelService,
  ) {
    const rebuild = () => {
      this.root = undefined;
      this.emitter.fire();
    };
    this.subscriptions = [store.onDidChange(rebuild), labels.onDidChange(rebuild)];
  }

  private labelBadges(root: string): { index: TraceLabelIndex; names: ReadonlyMap<string, string> } | undefined {
    try {
      const rows = this.labels.store(false)?.list({ benchmark: traceBenchmarkId(root), run: this.store.runName ?? '', author: this.labels.author }) ?? [];
      return rows.length ? { index: new TraceLabelIndex(rows), names: this.labels.names() } : undefined;
    } catch {
      return undefined;
    }
  }

  rootNode(): OmniBenchmarkNode | undefined {
    const bench = this.store.bench;
    if (!bench) return undefined;
    this.root ??= new OmniBenchmarkNode({ bench, run: this.store.run, score: this.store.score(), labels: this.labelBadges(bench.root) });
    return this.root;
  }

  roots(): OmniBenchmarkNode[] {
    const root = this.rootNode();
    return root ? [root] : [];
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.emitter.dispose();
  }
}

export function toTraceRef(arg: unknown): TraceRef | undefined {
  if (arg instanceof TestActionNode) return arg.ref;
  if (typeof arg !== 'object' || arg === null) return undefined;
  const o = arg as Record<string, unknown>;
  return typeof o.userId === 'string' && Number.isSafeInteger(o.index) ? { userId: o.userId, index: o.index as number } : undefined;
}

const RELOAD_DELAY_MS = 500;

/** Reloads the OmniBehavior benchmark when its test actions, raw files or predictions change on disk. */
function watchOmni(store: OmniStore): vscode.Disposable {
  let watcher: vscode.FileSystemWatcher | undefined;
  let root: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const rewatch = () => {
    const next = store.bench?.root;
    if (next === root) return;
    watcher?.dispose();
    watcher = undefined;
    root = next;
    if (!root || !vscode.workspace.getConfiguration('personaLab').get<boolean>('reloadOnChange', true)) return;
    const glob = '{test_actions.jsonl,raw/*.json,results/*/predictions.jsonl}';
    watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), glob));
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(() => root && void store.open(root).catch(() => undefined), RELOAD_DELAY_MS);
    };
    watcher.onDidCreate(schedule);
    watcher.onDidChange(schedule);
    watcher.onDidDelete(schedule);
  };
  const sub = store.onDidChange(rewatch);
  return new vscode.Disposable(() => {
    clearTimeout(timer);
    sub.dispose();
    watcher?.dispose();
  });
}

export function activateTraces(context: vscode.ExtensionContext, tree: TreeApi, labels: LabelService): OmniStore {
  const store = new OmniStore(context.workspaceState);
  const roots = new OmniRoots(store, labels);
  const panel = new TracePanel(context.extensionUri, store);
  const labelling = new TraceLabelController(panel, store, labels);
  const dashboard = new OmniDashboardPanel(context.extensionUri, store);

  const open = async (target: string, quiet: boolean): Promise<boolean> => {
    let root: string | undefined;
    try {
      root = omniRoot(target);
    } catch {
      root = undefined; // an unreadable folder: the StreamProfileBench path reports it
    }
    if (!root || quiet) return root !== undefined;
    try {
      await store.open(root);
    } catch (e) {
      void vscode.window.showErrorMessage(`Persona Lab: cannot open the OmniBehavior benchmark ${root}: ${e instanceof Error ? e.message : String(e)}`);
      return true;
    }
    const problems = store.bench?.diagnostics.length ?? 0;
    if (problems) {
      void vscode.window
        .showWarningMessage(`Persona Lab: the OmniBehavior benchmark loaded with ${problems} problem(s).`, 'Show Problems')
        .then((choice) => choice && vscode.commands.executeCommand('workbench.actions.view.problems'));
    }
    return true;
  };

  const openTrace = async (arg?: unknown): Promise<void> => {
    await store.ready();
    let ref = toTraceRef(arg);
    // { userId, index, historyIndex }: a history record to reveal (the PI Audit view's findings).
    const h = typeof arg === 'object' && arg !== null ? (arg as Record<string, unknown>).historyIndex : undefined;
    const reveal = Number.isSafeInteger(h) ? (h as number) : undefined;
    if (!ref) ref = await pickTestAction(store);
    if (!ref) return;
    if (!store.testAction(ref.userId, ref.index)) {
      void vscode.window.showWarningMessage(`Persona Lab: test action ${ref.index} of ${ref.userId} is not in the loaded OmniBehavior benchmark.`);
      return;
    }
    panel.show(ref, reveal);
  };

  context.subscriptions.push(
    store,
    roots,
    panel,
    labelling,
    dashboard,
    omniProblems(store),
    watchOmni(store),
    tree.provider.addRootSource(roots),
    registerOpener(open),
    vscode.commands.registerCommand('personaLab.openTrace', openTrace),
    vscode.commands.registerCommand('personaLab.openOmniDashboard', async () => {
      await store.ready();
      if (!store.bench) void vscode.window.showInformationMessage('Persona Lab: no OmniBehavior benchmark is open.');
      else dashboard.show();
    }),
    vscode.commands.registerCommand('personaLab.chooseOmniRun', (arg?: unknown) => chooseRun(store, arg)),
    vscode.commands.registerCommand('personaLab.revealTestAction', async (arg?: unknown) => {
      const ref = toTraceRef(arg);
      const node = ref && roots.rootNode()?.user(ref.userId)?.action(ref.index);
      if (node) await tree.view.reveal(node, { select: true, focus: false });
    }),
  );
  return store;
}

async function pickTestAction(store: OmniStore): Promise<TraceRef | undefined> {
  const bench = store.bench;
  if (!bench) {
    void vscode.window.showInformationMessage('Persona Lab: no OmniBehavior benchmark is open.');
    return undefined;
  }
  const items = [...bench.users.values()].flatMap((u) =>
    u.testActions.map((a) => ({ label: `${u.userId} #${a.index}`, description: `${a.scene} · ${a.timestamp}`, detail: a.fields.join(', '), ref: { userId: u.userId, index: a.index } })),
  );
  const picked = await vscode.window.showQuickPick(items, { title: 'Open Trace', placeHolder: 'A test action (user #index)', matchOnDescription: true });
  return picked?.ref;
}

async function chooseRun(store: OmniStore, arg: unknown): Promise<void> {
  await store.ready();
  const bench = store.bench;
  if (!bench) return;
  if (typeof arg === 'string' && bench.runs.has(arg)) return store.selectRun(arg);
  if (bench.runs.size === 0) {
    void vscode.window.showInformationMessage(`Persona Lab: no runs under ${bench.root}/results/.`);
    return;
  }
  const items = [...bench.runs.keys()].sort().map((name) => {
    const overall = store.score(name)?.overall;
    return {
      label: name,
      description: `overall ${overall === undefined ? '—' : overall.toFixed(1)}${name === store.runName ? ' · selected' : ''}`,
      iconPath: name === store.runName ? new vscode.ThemeIcon('check') : undefined,
    };
  });
  const picked = await vscode.window.showQuickPick(items, { title: 'Choose OmniBehavior Run', placeHolder: 'The run whose predictions the tree and the trace view show' });
  if (picked && picked.label !== store.runName) await store.selectRun(picked.label);
}

