// The PI Audit view's commands: open a finding in its file (the span selected) or in the step view, record verdicts
// on the selected findings, and export the report.
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AuditFinding, AuditResult } from '../../core/pi/audit';
import { findingTraceTarget, type OmniAuditFinding, type OmniAuditResult } from '../../core/pi/omniAudit';
import {
  buildReport,
  renderMarkdown,
  type AnyCountRow,
  type AuditReport,
  type ReportableFinding,
} from '../../core/pi/report';
import type { Verdict } from '../../core/pi/verdicts';
import type { SpbStore } from '../benchmarks/spb/store';
import { locateSpan } from './locate';
import { count, VERDICT_TEXT } from './model';
import type { AuditNode } from './nodes';
import { FindingNode } from './spb/nodes';
import type { AuditApi } from './index';
import { OmniFindingNode } from './omni/nodes';
import { reportFileName } from './paths';
import type { AuditSession } from './session';
import { log } from '../log';

/** The findings a command applies to: the clicked node, or all selected ones (multi-select), else the view's selection. */
export function targetFindings(
  node: unknown,
  nodes: unknown,
  selection: readonly AuditNode[],
): (FindingNode | OmniFindingNode)[] {
  const list: unknown[] = Array.isArray(nodes) && nodes.length ? nodes : node !== undefined ? [node] : [...selection];
  return list.filter(
    (n): n is FindingNode | OmniFindingNode => n instanceof FindingNode || n instanceof OmniFindingNode,
  );
}

/**
 * Opens an OmniBehavior finding in the trace view, at its test action with its history record revealed; a finding
 * that belongs to no test action opens its file at the line, the text selected when the line holds it.
 */
export async function openTraceFinding(finding: OmniAuditFinding, root: string): Promise<void> {
  const at = findingTraceTarget(finding);
  if (at) {
    const historyIndex = at.target.kind === 'history' ? at.target.historyIndex : undefined;
    await vscode.commands.executeCommand('personaLab.openTrace', { userId: at.userId, index: at.index, historyIndex });
    await vscode.commands.executeCommand('personaLab.revealTestAction', { userId: at.userId, index: at.index });
    return;
  }
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(join(root, finding.file)));
  const line = Math.min(finding.line - 1, doc.lineCount - 1);
  const col = doc.lineAt(line).text.indexOf(finding.text);
  const range =
    col >= 0 ? new vscode.Range(line, col, line, col + finding.text.length) : new vscode.Range(line, 0, line, 0);
  await vscode.window.showTextDocument(doc, { selection: range, preview: true });
}

/** Opens the finding's JSONL file at its line with the span selected (the line only, when the file changed). */
export async function openSource(finding: AuditFinding, root: string): Promise<void> {
  const uri = vscode.Uri.file(join(root, finding.file));
  let doc: vscode.TextDocument;
  try {
    doc = await vscode.workspace.openTextDocument(uri);
  } catch (err) {
    void vscode.window.showErrorMessage(`Persona Lab: cannot open ${finding.file}: ${(err as Error).message}`);
    return;
  }
  const line = Math.min(finding.line - 1, doc.lineCount - 1);
  const span =
    line === finding.line - 1
      ? locateSpan(doc.lineAt(line).text, finding.field, finding.start, finding.end)
      : undefined;
  const exact = span !== undefined && span.text === finding.text;
  const range = exact ? new vscode.Range(line, span.start, line, span.end) : new vscode.Range(line, 0, line, 0);
  const editor = await vscode.window.showTextDocument(doc, { selection: range, preview: true });
  // JSONL lines are long: reveal some text after the span too, so that it does not sit at the right edge.
  const margin = new vscode.Range(
    line,
    range.start.character,
    line,
    Math.min(doc.lineAt(line).text.length, range.end.character + 40),
  );
  editor.revealRange(margin, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  log.info(`audit: opened ${finding.file}:${finding.line}:${range.start.character + 1}-${range.end.character + 1}`);
  if (!exact) {
    void vscode.window.showWarningMessage(
      `Persona Lab: ${finding.file}:${finding.line} no longer holds this finding at ${finding.field} (the file changed since the audit). Run the PI audit again.`,
    );
  }
}

/** Opens the finding's step in the step view, switching to the finding's run for personas and reasoning. */
export async function openStep(node: FindingNode, store: SpbStore): Promise<void> {
  const ref = node.stepRef;
  if (!ref) {
    void vscode.window.showWarningMessage(`Persona Lab: ${node.finding.userId} is not in the loaded benchmark.`);
    return;
  }
  const run = node.finding.run;
  if (run !== null && run !== store.runName && store.bench?.runs.has(run)) {
    await vscode.commands.executeCommand('personaLab.chooseRun', run);
    vscode.window.setStatusBarMessage(`Persona Lab: showing run ${run}, where the finding is`, 5000);
  }
  await vscode.commands.executeCommand('personaLab.openStep', ref);
}

export function recordVerdict(
  session: AuditSession,
  findings: readonly (FindingNode | OmniFindingNode)[],
  verdict: Verdict,
): void {
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

/** The result to report: the only one, or (both formats open) the user's pick, StreamProfileBench for scripts. */
async function chooseResult(
  r: { result?: AuditResult; omni?: OmniAuditResult },
  ask: boolean,
): Promise<AuditResult | OmniAuditResult | undefined> {
  if (!r.result || !r.omni) return r.result ?? r.omni;
  if (!ask) return r.result;
  const picked = await vscode.window.showQuickPick(
    [
      { label: r.result.benchmark, description: 'StreamProfileBench', value: r.result },
      { label: r.omni.benchmark, description: 'OmniBehavior', value: r.omni },
    ],
    { title: 'Export PI Audit Report', placeHolder: 'The benchmark to report on' },
  );
  return picked?.value;
}

function defaultReportUri(session: AuditSession, benchmark: string): vscode.Uri | undefined {
  const folder =
    vscode.workspace.workspaceFolders?.[0]?.uri ?? (session.result ? vscode.Uri.file(session.result.root) : undefined);
  return folder && vscode.Uri.joinPath(folder, reportFileName(benchmark, 'md'));
}

/**
 * Writes the audit report (counts, findings with verdicts, confirmed leaks, verdict trail): JSON for a `.json`
 * path, Markdown otherwise. The target is the argument (a Uri or a path, for scripts and tests) or a save dialog.
 * Audits first when there is no up-to-date result. Resolves with the file written.
 */
export async function exportReport(session: AuditSession, arg: unknown): Promise<vscode.Uri | undefined> {
  let results: { result?: AuditResult; omni?: OmniAuditResult } = { result: session.result, omni: session.omniResult };
  if ((!results.result && !results.omni) || session.stale) results = (await session.run({ notify: true })) ?? {};
  const result = await chooseResult(results, arg === undefined);
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
  const render = <R extends AuditReport<ReportableFinding, AnyCountRow>>(r: R) => ({
    report: r,
    text: json ? JSON.stringify(r, null, 2) + '\n' : renderMarkdown(r),
  });
  const opts = { trail: session.trail(result), redact };
  const { report, text } = 'format' in result ? render(buildReport(result, opts)) : render(buildReport(result, opts));
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

/** Opens the first target finding in its file (an OmniBehavior one in the trace view). */
export async function openFindingSource({ session, view }: AuditApi, node: unknown, nodes: unknown): Promise<void> {
  const target = targetFindings(node, nodes, view.selection)[0];
  if (target instanceof OmniFindingNode) {
    const root = session.omniResult?.root;
    if (root) await openTraceFinding(target.finding, root);
    return;
  }
  const root = session.result?.root;
  if (target && root) await openSource(target.finding, root);
}

/** Opens the first target finding in the step view (an OmniBehavior one in the trace view). */
export async function openFindingStep(
  { session, view }: AuditApi,
  store: SpbStore,
  node: unknown,
  nodes: unknown,
): Promise<void> {
  const target = targetFindings(node, nodes, view.selection)[0];
  if (target instanceof OmniFindingNode) {
    const root = session.omniResult?.root;
    if (root) await openTraceFinding(target.finding, root);
  } else if (target) await openStep(target, store);
}

export function verdictOnTargets({ session, view }: AuditApi, verdict: Verdict, node: unknown, nodes: unknown): void {
  recordVerdict(session, targetFindings(node, nodes, view.selection), verdict);
}
