// The PI Audit view: residual personal information by category → each benchmark's rows → user → finding, with
// placeholder counts, verdicts and the exported report. It serves every open benchmark whose format's contribution
// offers an audit part (part.ts). Runs by itself when a benchmark loads if personaLab.audit.autoRun says so
// (`small`: up to personaLab.audit.autoRunMaxMB; off by default), once the view is visible.
import * as vscode from 'vscode';
import type { Benchmarks } from '../benchmarks';
import { isAutoRun, shouldAutoRun } from './model';
import type { AuditNode } from './nodes';
import { AuditTreeProvider } from './provider';
import { AUDIT_VIEW_ID, AuditSession, type AuditTarget } from './session';
import { rowName } from '../benchmarks/viewText';

export interface AuditApi {
  session: AuditSession;
  view: vscode.TreeView<AuditNode>;
  /** The tree's rows, in order (the next-open walk reads them). */
  provider: AuditTreeProvider;
}

function autoRunWanted(bytes: number): boolean {
  const config = vscode.workspace.getConfiguration('personaLab.audit');
  const mode = config.get<string>('autoRun');
  return shouldAutoRun(isAutoRun(mode) ? mode : 'small', bytes, config.get<number>('autoRunMaxMB', 20));
}

/** "<format> has no personal-information audit." for open benchmarks whose format offers none; '' when there are none. */
function notAudited(benchmarks: Benchmarks): string {
  const labels = benchmarks.all
    .filter((b) => b.bench && !b.format.capabilities.includes('audit'))
    .map((b) => b.format.label);
  return labels.length
    ? `${labels.join(' and ')} ${labels.length === 1 ? 'has' : 'have'} no personal-information audit.`
    : '';
}

/** The open benchmarks whose contribution offers an audit part, in the Benchmarks view's order. */
function auditTargets(benchmarks: Benchmarks): AuditTarget[] {
  return benchmarks.contributions.flatMap((c) => {
    const open = benchmarks.of(c);
    const part = c.audit?.(open);
    return part ? [{ open, part, label: c.format.label }] : [];
  });
}

/** After the formats' own features: a format's part opens findings in its item view (and lists them there). */
export function activateAudit(context: vscode.ExtensionContext, benchmarks: Benchmarks): AuditApi {
  const targets = auditTargets(benchmarks);
  const session = new AuditSession(
    targets,
    context.globalStorageUri.fsPath,
    () => benchmarks.all[0]?.root,
    context.secrets,
  );
  for (const t of targets) {
    const attached = t.part.attach?.(session.resultsOf(t));
    if (attached) context.subscriptions.push(attached);
  }
  const provider = new AuditTreeProvider(session);
  const view = vscode.window.createTreeView<AuditNode>(AUDIT_VIEW_ID, {
    treeDataProvider: provider,
    showCollapseAll: true,
    canSelectMany: true,
  });
  const setContext = (key: string, value: boolean) => void vscode.commands.executeCommand('setContext', key, value);

  const update = () => {
    const results = session.results;
    setContext('personaLab.audit.running', session.running);
    setContext('personaLab.audit.hasResult', results.length > 0);
    setContext('personaLab.audit.canRun', session.hasBenchmark);
    // Cut as the Benchmarks rows are: a generated folder name hid the rest of the header.
    view.description = results.map((a) => rowName(a.result.benchmark)).join(' · ');
    // Messages, not welcome content: a second welcome in the container would repeat the Benchmarks view's.
    if (!results.length) {
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

  // Auto-run: once per load of a benchmark (one run audits them all), when the view is (or becomes) visible.
  const seen = new Map<AuditTarget, object | undefined>();
  let pending = false;
  const maybeRun = () => {
    if (pending && view.visible) {
      pending = false;
      void session.run({ notify: false });
    }
  };
  const benchmarkChanged = (target: AuditTarget) => {
    const loaded = target.part.loaded();
    if (loaded !== seen.get(target)) {
      seen.set(target, loaded);
      pending ||= loaded !== undefined && autoRunWanted(target.part.bytes());
    }
    session.benchmarkChanged();
    maybeRun();
  };

  update();
  const audited = new Set<unknown>(targets.map((t) => t.open));
  context.subscriptions.push(
    session,
    provider,
    view,
    session.onDidChange(update),
    session.onDidRecord(update),
    ...targets.map((t) => t.open.onDidChange(() => benchmarkChanged(t))),
    ...benchmarks.all.filter((b) => !audited.has(b)).map((b) => b.onDidChange(update)),
    ...benchmarks.all.map((b) => b.onDidChangeLoading(update)),
    view.onDidChangeVisibility(maybeRun),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('personaLab.audit.dbPath') || e.affectsConfiguration('personaLab.labels.server'))
        session.reloadVerdicts();
      if (e.affectsConfiguration('personaLab.audit.minConfidence') && session.results.length)
        void session.run({ notify: false });
    }),
  );
  for (const t of targets) benchmarkChanged(t);
  return { session, view, provider };
}
