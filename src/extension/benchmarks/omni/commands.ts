// The OmniBehavior commands' handlers: Open Trace (a test action, from the tree, the PI Audit view or a quick pick),
// Choose OmniBehavior Run… and revealing a test action in the tree. The command table checks that the benchmark is
// open where one is needed.
import * as vscode from 'vscode';
import { isRecord, object, safeInt, str } from '../../../core/guards';
import type { TraceRef } from '../../../shared/omni/traceProtocol';
import type { TreeNode } from '../../tree/node';
import { TestActionNode } from './nodes';
import type { OmniStore } from './store';

const traceRefArg = object({ userId: str, index: safeInt });

export function toTraceRef(arg: unknown): TraceRef | undefined {
  if (arg instanceof TestActionNode) return arg.ref;
  return traceRefArg(arg) ? { userId: arg.userId, index: arg.index } : undefined;
}

/** Where a test action shows: the trace view. */
export interface TraceShow {
  show(ref: TraceRef, revealHistory?: number): void;
}

export async function openTrace(store: OmniStore, panel: TraceShow, arg: unknown): Promise<void> {
  let ref = toTraceRef(arg);
  // { userId, index, historyIndex }: a history record to reveal (the PI Audit view's findings).
  const h = isRecord(arg) ? arg.historyIndex : undefined;
  const reveal = safeInt(h) ? h : undefined;
  if (!ref) ref = await pickTestAction(store);
  if (!ref) return;
  if (!store.testAction(ref.userId, ref.index)) {
    void vscode.window.showWarningMessage(
      `Persona Lab: test action ${ref.index} of ${ref.userId} is not in the loaded OmniBehavior benchmark.`,
    );
    return;
  }
  panel.show(ref, reveal);
}

async function pickTestAction(store: OmniStore): Promise<TraceRef | undefined> {
  const bench = store.bench;
  if (!bench) return undefined;
  const items = [...bench.users.values()].flatMap((u) =>
    u.testActions.map((a) => ({
      label: `${u.userId} #${a.index}`,
      description: `${a.scene} · ${a.timestamp}`,
      detail: a.fields.join(', '),
      ref: { userId: u.userId, index: a.index },
    })),
  );
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Open Trace',
    placeHolder: 'A test action (user #index)',
    matchOnDescription: true,
  });
  return picked?.ref;
}

export async function chooseOmniRun(store: OmniStore, arg: unknown): Promise<void> {
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
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Choose OmniBehavior Run',
    placeHolder: 'The run whose predictions the tree and the trace view show',
  });
  if (picked && picked.label !== store.runName) await store.selectRun(picked.label);
}

export async function revealTestAction(store: OmniStore, view: vscode.TreeView<TreeNode>, arg: unknown): Promise<void> {
  const ref = toTraceRef(arg);
  const node = ref && store.tree.rootNode()?.user(ref.userId)?.action(ref.index);
  if (node) await view.reveal(node, { select: true, focus: false });
}
