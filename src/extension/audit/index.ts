// The PI Audit view: residual personal information by category → platform → user → finding, with placeholder
// counts, verdicts and the exported report. Runs by itself when a benchmark loads if personaLab.audit.autoRun
// says so (`small`: up to personaLab.audit.autoRunMaxMB; off by default), once the view is visible.
import * as vscode from 'vscode';
import type { Verdict } from '../../core/pi/verdicts';
import type { Benchmark } from '../../core/spb/types';
import type { BenchmarkStore } from '../store';
import type { OmniStore } from '../traces/store';
import { exportReport, openSource, openStep, openTraceFinding, recordVerdict, targetFindings } from './commands';
import { isAutoRun, shouldAutoRun, summaryMessage } from './model';
import type { AuditNode } from './nodes';
import { OmniFindingNode } from './omniNodes';
import { AuditTreeProvider } from './provider';
import { AUDIT_VIEW_ID, AuditSession, benchmarkBytes } from './session';

const VERDICT_COMMANDS: [command: string, verdict: Verdict][] = [
  ['personaLab.audit.confirmLeak', 'confirmed-leak'],
  ['personaLab.audit.markFalsePositive', 'false-positive'],
  ['personaLab.audit.markNeedsReview', 'needs-review'],
];

function autoRunWanted(bench: Benchmark): boolean {
  const config = vscode.workspace.getConfiguration('personaLab.audit');
  const mode = config.get<string>('autoRun');
  return shouldAutoRun(isAutoRun(mode) ? mode : 'never', benchmarkBytes(bench), config.get<number>('autoRunMaxMB', 20));
}

export function activateAudit(context: vscode.ExtensionContext, store: BenchmarkStore, omni: OmniStore): void {
  const session = new AuditSession(store, context.globalStorageUri.fsPath, omni);
  const provider = new AuditTreeProvider(session);
  const view = vscode.window.createTreeView<AuditNode>(AUDIT_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true, canSelectMany: true });
  const setContext = (key: string, value: boolean) => void vscode.commands.executeCommand('setContext', key, value);

  const update = () => {
    const result = session.result ?? session.omniResult;
    setContext('personaLab.audit.running', session.running);
    setContext('personaLab.audit.hasResult', result !== undefined);
    setContext('personaLab.audit.canRun', session.hasBenchmark);
    view.description = [session.result?.benchmark, session.omniResult?.benchmark].filter(Boolean).join(' · ');
    // Messages, not welcome content: a second welcome in the container would repeat the Benchmarks view's.
    if (!result) {
      view.message = session.running
        ? 'Auditing the benchmark for residual personal information…'
        : session.hasBenchmark
          ? 'Not audited yet: "Persona Lab: Run PI Audit" (▷ in this view\'s title bar) scans bios, posts, tags, personas and reasoning for personal information that the placeholders missed.'
          : 'Open a benchmark to audit it for residual personal information.';
    } else if (session.running) view.message = 'Auditing…';
    else if (session.stale) view.message = 'The benchmark changed since this audit: run it again to update.';
    else if (provider.getChildren().length === 0) view.message = 'No residual personal information found, and no placeholders either.';
    else view.message = [session.result, session.omniResult].flatMap((r) => (r ? [summaryMessage(r, session.verdictOf)] : [])).join(' | ');
  };

  // Auto-run: once per load of a benchmark, when the view is (or becomes) visible.
  let seen: Benchmark | undefined;
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
    pending = bench !== undefined && autoRunWanted(bench);
    session.benchmarkChanged();
    maybeRun();
  };

  const findingsOf = (node: unknown, nodes: unknown) => targetFindings(node, nodes, view.selection);
  const firstFinding = (node: unknown, nodes: unknown) => findingsOf(node, nodes)[0];

  update();
  context.subscriptions.push(
    session,
    provider,
    view,
    session.onDidChange(update),
    session.onDidRecord(update),
    store.onDidChange(benchmarkChanged),
    omni.onDidChange(() => session.benchmarkChanged()),
    view.onDidChangeVisibility(maybeRun),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('personaLab.audit.dbPath')) session.reloadVerdicts();
      if (e.affectsConfiguration('personaLab.audit.minConfidence') && session.result) void session.run({ notify: false });
    }),
    vscode.commands.registerCommand('personaLab.audit.run', () => session.run({ notify: true })),
    vscode.commands.registerCommand('personaLab.audit.cancel', () => session.cancel()),
    vscode.commands.registerCommand('personaLab.audit.exportReport', (arg?: unknown) => exportReport(session, arg)),
    vscode.commands.registerCommand('personaLab.audit.openSource', async (node?: unknown, nodes?: unknown) => {
      const target = firstFinding(node, nodes);
      if (target instanceof OmniFindingNode) {
        const root = session.omniResult?.root;
        if (root) await openTraceFinding(target.finding, root);
        return;
      }
      const root = session.result?.root;
      if (target && root) await openSource(target.finding, root);
    }),
    vscode.commands.registerCommand('personaLab.audit.openStep', async (node?: unknown, nodes?: unknown) => {
      const target = firstFinding(node, nodes);
      if (target instanceof OmniFindingNode) {
        const root = session.omniResult?.root;
        if (root) await openTraceFinding(target.finding, root);
      } else if (target) await openStep(target, store);
    }),
    ...VERDICT_COMMANDS.map(([command, verdict]) =>
      vscode.commands.registerCommand(command, (node?: unknown, nodes?: unknown) => recordVerdict(session, findingsOf(node, nodes), verdict)),
    ),
  );
  benchmarkChanged();
}
