// The PI Audit view: residual personal information by category → platform → user → finding, with placeholder
// counts, verdicts and the exported report. Runs by itself when a benchmark of either format loads if
// personaLab.audit.autoRun says so (`small`: up to personaLab.audit.autoRunMaxMB; off by default), once the view is
// visible.
import * as vscode from 'vscode';
import type { Benchmark } from '../../core/spb/types';
import type { Benchmarks } from '../benchmarks';
import { isAutoRun, shouldAutoRun } from './model';
import type { AuditNode } from './nodes';
import { AuditTreeProvider } from './provider';
import { AUDIT_VIEW_ID, AuditSession, benchmarkBytes, omniBenchmarkBytes } from './session';
import type { OmniBenchmark } from '../../core/omni/types';
import type { TracePanel } from '../traceView/panel';
import { TraceFindings } from './omni/trace';
import { rowName } from '../benchmarks/viewText';

export interface AuditApi {
  session: AuditSession;
  /** The audit's findings in the trace view, when there is one. */
  trace: TraceFindings | undefined;
  view: vscode.TreeView<AuditNode>;
  /** The tree's rows, in order (the next-open walk reads them). */
  provider: AuditTreeProvider;
}

function autoRunWanted(bytes: number): boolean {
  const config = vscode.workspace.getConfiguration('personaLab.audit');
  const mode = config.get<string>('autoRun');
  return shouldAutoRun(isAutoRun(mode) ? mode : 'small', bytes, config.get<number>('autoRunMaxMB', 20));
}

/** "TinyBench has no personal-information audit." for open benchmarks whose format offers none; '' when there are none. */
function notAudited(benchmarks: Benchmarks): string {
  const labels = benchmarks.all
    .filter((b) => b.bench && !b.format.capabilities.includes('audit'))
    .map((b) => b.format.label);
  return labels.length
    ? `${labels.join(' and ')} ${labels.length === 1 ? 'has' : 'have'} no personal-information audit.`
    : '';
}

/** `tracePanel`: the trace view, which lists the audit's findings in the trace it shows and outlines them. */
export function activateAudit(
  context: vscode.ExtensionContext,
  benchmarks: Benchmarks,
  tracePanel?: TracePanel,
): AuditApi {
  const { spb: store, omni } = benchmarks;
  const session = new AuditSession(store, context.globalStorageUri.fsPath, omni, context.secrets);
  const trace = tracePanel && new TraceFindings(session, tracePanel);
  if (trace) context.subscriptions.push(trace);
  const provider = new AuditTreeProvider(session);
  const view = vscode.window.createTreeView<AuditNode>(AUDIT_VIEW_ID, {
    treeDataProvider: provider,
    showCollapseAll: true,
    canSelectMany: true,
  });
  const setContext = (key: string, value: boolean) => void vscode.commands.executeCommand('setContext', key, value);

  const update = () => {
    const result = session.result ?? session.omniResult;
    setContext('personaLab.audit.running', session.running);
    setContext('personaLab.audit.hasResult', result !== undefined);
    setContext('personaLab.audit.canRun', session.hasBenchmark);
    // Cut as the Benchmarks rows are: a generated folder name hid the rest of the header.
    view.description = [session.result?.benchmark, session.omniResult?.benchmark]
      .filter((name): name is string => Boolean(name))
      .map(rowName)
      .join(' · ');
    // Messages, not welcome content: a second welcome in the container would repeat the Benchmarks view's.
    if (!result) {
      view.message = session.running
        ? 'Auditing the benchmark for residual personal information…'
        : benchmarks.all.some((b) => b.isLoading)
          ? 'Loading the benchmark…'
          : session.hasBenchmark
            ? 'Not audited yet: Run PI Audit (▷ in the title bar) finds personal information the placeholders missed.'
            : notAudited(benchmarks) || 'Open a benchmark to audit it for residual personal information.';
    } else if (session.running) view.message = 'Auditing…';
    else if (session.stale) view.message = 'The benchmark changed since this audit: run it again to update.';
    else if (provider.getChildren().length === 0)
      view.message = 'No residual personal information found, and no placeholders either.';
    // The summary is the tree's first row, one fact per row (summaryNodes.ts).
    else view.message = undefined;
  };

  // Auto-run: once per load of a benchmark (either format; one run audits both), when the view is (or becomes) visible.
  let seen: Benchmark | undefined;
  let seenOmni: OmniBenchmark | undefined;
  let pending = false;
  const maybeRun = () => {
    if (pending && view.visible) {
      pending = false;
      void session.run({ notify: false });
    }
  };
  const benchmarkChanged = () => {
    const bench = store.bench;
    if (bench === seen) return;
    seen = bench;
    pending = bench !== undefined && autoRunWanted(benchmarkBytes(bench));
    session.benchmarkChanged();
    maybeRun();
  };
  const omniChanged = () => {
    const bench = omni.bench;
    if (bench !== seenOmni) {
      seenOmni = bench;
      pending ||= bench !== undefined && autoRunWanted(omniBenchmarkBytes(bench));
    }
    session.benchmarkChanged();
    maybeRun();
  };

  update();
  context.subscriptions.push(
    session,
    provider,
    view,
    session.onDidChange(update),
    session.onDidRecord(update),
    store.onDidChange(benchmarkChanged),
    omni.onDidChange(omniChanged),
    ...benchmarks.all.filter((b) => b !== store && b !== omni).map((b) => b.onDidChange(update)),
    ...benchmarks.all.map((b) => b.onDidChangeLoading(update)),
    view.onDidChangeVisibility(maybeRun),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('personaLab.audit.dbPath') || e.affectsConfiguration('personaLab.labels.server'))
        session.reloadVerdicts();
      if (e.affectsConfiguration('personaLab.audit.minConfidence') && session.result)
        void session.run({ notify: false });
    }),
  );
  benchmarkChanged();
  omniChanged();
  return { session, view, provider, trace };
}
