// The PI Audit view's commands: open a finding in its file (the span selected) or in the step view, record verdicts
// on the selected findings, and export the report.
import * as vscode from 'vscode';
import { buildReport, renderMarkdown } from '../../core/pi/report';
import type { Verdict } from '../../core/pi/verdicts';
import { FindingNode, type NodeFinding } from './findingNodes';
import type { AnyAuditResult } from './part';
import { count, VERDICT_TEXT } from './model';
import type { AuditNode } from './nodeTypes';
import type { AuditApi } from './index';
import { reportFileName } from './paths';
import type { Audited, AuditSession } from './session';
import { log } from '../log';

type AnyFindingNode = FindingNode<NodeFinding & AnyAuditResult['findings'][number]>;

/** The findings a command applies to: the clicked node, or all selected ones (multi-select), else the view's selection. */
export function targetFindings(node: unknown, nodes: unknown, selection: readonly AuditNode[]): AnyFindingNode[] {
  const list: unknown[] = Array.isArray(nodes) && nodes.length ? nodes : node !== undefined ? [node] : [...selection];
  return list.filter((n): n is AnyFindingNode => n instanceof FindingNode);
}

export function recordVerdict(session: AuditSession, findings: readonly AnyFindingNode[], verdict: Verdict): void {
  if (!findings.length) {
    void vscode.window.showInformationMessage('Persona Lab: select one or more findings in the PI Audit view first.');
    return;
  }
  if (
    session.record(
      findings.map((n) => n.finding),
      verdict,
    )
  ) {
    const what = findings.length === 1 ? 'the finding' : count(findings.length, 'finding');
    vscode.window.setStatusBarMessage(
      `Persona Lab: ${what} marked ${VERDICT_TEXT[verdict]} by ${session.author}`,
      4000,
    );
  }
}

/** The audit to report: the only one, or (several benchmarks audited) the user's pick, the first for scripts. */
async function chooseResult(audits: readonly Audited[], ask: boolean): Promise<Audited | undefined> {
  if (audits.length < 2 || !ask) return audits[0];
  const picked = await vscode.window.showQuickPick(
    audits.map((a) => ({ label: a.result.benchmark, description: a.target.label, value: a })),
    { title: 'Export PI Audit Report', placeHolder: 'The benchmark to report on' },
  );
  return picked?.value;
}

function defaultReportUri(session: AuditSession, benchmark: string): vscode.Uri | undefined {
  const first = session.results[0]?.result;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? (first ? vscode.Uri.file(first.root) : undefined);
  return folder && vscode.Uri.joinPath(folder, reportFileName(benchmark, 'md'));
}

/**
 * Writes the audit report (counts, findings with verdicts, confirmed leaks, verdict trail): JSON for a `.json`
 * path, Markdown otherwise. The target is the argument (a Uri or a path, for scripts and tests) or a save dialog.
 * Audits first when there is no up-to-date result. Resolves with the file written.
 */
export async function exportReport(session: AuditSession, arg: unknown): Promise<vscode.Uri | undefined> {
  let audits = session.results;
  if (!audits.length || session.stale) audits = (await session.run({ notify: true })) ?? [];
  const result = (await chooseResult(audits, arg === undefined))?.result;
  if (!result) return undefined;
  let uri = arg instanceof vscode.Uri ? arg : typeof arg === 'string' && arg ? vscode.Uri.file(arg) : undefined;
  const asked = !uri;
  uri ??= await vscode.window.showSaveDialog({
    title: 'Export PI Audit Report',
    saveLabel: 'Export',
    defaultUri: defaultReportUri(session, result.benchmark),
    filters: { Markdown: ['md'], JSON: ['json'] },
  });
  if (!uri) return undefined;
  const redact = vscode.workspace.getConfiguration('personaLab.audit').get<boolean>('redactReport', false);
  const json = uri.path.toLowerCase().endsWith('.json');
  const report = buildReport(result, { trail: session.trail(result), redact });
  const text = json ? JSON.stringify(report, null, 2) + '\n' : renderMarkdown(report);
  try {
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
  } catch (err) {
    void vscode.window.showErrorMessage(`Persona Lab: cannot write the audit report: ${(err as Error).message}`);
    return undefined;
  }
  log.info(
    `audit report: ${uri.fsPath} (${json ? 'JSON' : 'Markdown'}, ${report.findings.length} finding(s), ` +
      `${report.confirmedLeaks.length} confirmed leak(s), ${report.verdictTrail.length} verdict(s))`,
  );
  if (asked) {
    const target = uri;
    void vscode.window
      .showInformationMessage(
        `Persona Lab: wrote the PI audit report to ${vscode.workspace.asRelativePath(target)}.`,
        'Open',
      )
      .then((choice) => (choice === 'Open' ? vscode.window.showTextDocument(target) : undefined));
  }
  return uri;
}

/** Opens the first target finding's source line, pretty-printed, with the span selected. */
export async function openFindingSource({ view }: AuditApi, node: unknown, nodes: unknown): Promise<void> {
  await targetFindings(node, nodes, view.selection)[0]?.open();
}

/** Opens the first target finding in its benchmark's item view, its span outlined. */
export async function openFindingStep({ view }: AuditApi, node: unknown, nodes: unknown): Promise<void> {
  await targetFindings(node, nodes, view.selection)[0]?.openInView();
}

export function verdictOnTargets(audit: AuditApi, verdict: Verdict, node: unknown, nodes: unknown): void {
  const targets = targetFindings(node, nodes, audit.view.selection);
  recordVerdict(audit.session, targets, verdict);
  // From the keyboard (one finding selected in the view), go on to the next open one, as labelling does.
  if (node === undefined && targets.length === 1) void nextOpenFinding(audit);
}

/** Every finding row of the tree, in the order it shows them (children are built as the walk asks for them). */
function findingRows(api: AuditApi): AnyFindingNode[] {
  const out: AnyFindingNode[] = [];
  const walk = (nodes: readonly AuditNode[]) => {
    for (const n of nodes) {
      if (n instanceof FindingNode) out.push(n as AnyFindingNode);
      else walk(n.getChildren());
    }
  };
  walk(api.provider.getChildren());
  return out;
}

/** Selects and reveals the next finding without a verdict after the selected one (wrapping round); says when none is left. */
export async function nextOpenFinding(api: AuditApi): Promise<void> {
  const rows = findingRows(api);
  const current = api.view.selection.find((n): n is AnyFindingNode => n instanceof FindingNode);
  const from = current ? rows.findIndex((r) => r.finding.key === current.finding.key) : -1;
  const open = (r: AnyFindingNode) => api.session.verdictOf(r.finding.key) === undefined;
  const next = [...rows.slice(from + 1), ...rows.slice(0, from + 1)].find(open);
  if (!next) {
    vscode.window.setStatusBarMessage('Persona Lab: every finding has a verdict', 4000);
    return;
  }
  await api.view.reveal(next, { select: true, focus: true });
}
