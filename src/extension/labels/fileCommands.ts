// Export Labels… (JSONL or CSV by the file's extension), Import Labels… (plan, then every conflict decided in the
// conflict table, importPanel.ts; nothing written before Apply, nothing at all on Cancel), Label Summary (the
// agreement table, agreement/panel.ts, with Copy as Markdown) and Edit Label Set.
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { isRecord } from '../../core/guards';
import { formatFor, readLabelFile, toCsv, toJsonl, type LabelFileFormat } from '../../core/labels/exportImport';
import { ImportSession, type ConflictDecision } from '../../core/labels/merge';
import type { Diagnostic } from '../../core/io/diagnostics';
import { fileDiagnostics } from '../diagnostics';
import { decideConflicts } from './importPanel';
import { planParts, planSummary } from './importRows';
import type { LabelService } from './service';
import { AgreementPanel, type UnitOpener } from './agreement/panel';
import { registerSummaryDocument } from './agreement/markdown';
import { restoreReusedPanel } from '../webviewPanel';
import { AGREEMENT_VIEW_TYPE } from '../../shared/agreementProtocol';
import { log } from '../log';

/** A path from a command argument: a Uri, a string, or `{ path, format }`. */
function argPath(arg: unknown): { path?: string; format?: LabelFileFormat } {
  if (arg instanceof vscode.Uri) return { path: arg.fsPath };
  if (typeof arg === 'string' && arg) return { path: arg };
  if (isRecord(arg)) {
    const format = arg.format === 'csv' || arg.format === 'jsonl' ? arg.format : undefined;
    return { path: typeof arg.path === 'string' && arg.path ? arg.path : undefined, format };
  }
  return {};
}

function baseFolder(labels: LabelService): vscode.Uri {
  return vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(dirname(dirname(labels.dbFile)));
}

async function exportLabels(labels: LabelService, arg: unknown): Promise<void> {
  const store = labels.store(false);
  if (!store) {
    void vscode.window.showInformationMessage(
      `Persona Lab: no labels to export (${labels.error ?? `no database at ${labels.dbFile} yet`}).`,
    );
    return;
  }
  let { path, format } = argPath(arg);
  if (!path) {
    const uri = await vscode.window.showSaveDialog({
      title: 'Export Labels',
      saveLabel: 'Export',
      defaultUri: vscode.Uri.joinPath(baseFolder(labels), `labels-${labels.author.replace(/[^\w.-]+/g, '_')}.jsonl`),
      filters: { 'JSON Lines': ['jsonl'], CSV: ['csv'] },
    });
    path = uri?.fsPath;
  }
  if (!path) return;
  format ??= formatFor(path);
  const rows = store.list();
  const text = format === 'csv' ? toCsv(rows) : toJsonl(rows);
  // Write then rename: a crash never leaves half an export in place of an older one.
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
  log.info(`labels: exported ${rows.length} label(s) to ${path} (${format})`);
  const open = await vscode.window.showInformationMessage(
    `Persona Lab: exported ${rows.length} label(s) to ${path} (${format.toUpperCase()}).`,
    'Open File',
  );
  if (open) await vscode.window.showTextDocument(vscode.Uri.file(path), { preview: true });
}

async function importLabels(
  extensionUri: vscode.Uri,
  labels: LabelService,
  problems: vscode.DiagnosticCollection,
  arg: unknown,
): Promise<void> {
  const given = argPath(arg);
  const format = given.format;
  let path = given.path;
  if (!path) {
    const picked = await vscode.window.showOpenDialog({
      title: 'Import Labels',
      openLabel: 'Import',
      canSelectMany: false,
      defaultUri: baseFolder(labels),
      filters: { 'Label files': ['jsonl', 'csv', 'ndjson', 'json'] },
    });
    path = picked?.[0]?.fsPath;
  }
  if (!path) return;
  const parsed = readLabelFile(path, path, format);
  const gold = parsed.gold?.length ?? 0;
  if (gold > 0) {
    // The adjudication pass is not in the views yet: say so rather than drop the decisions unnoticed.
    log.info(`labels: ${path} holds ${gold} gold decision(s); this import takes its labels only`);
    void vscode.window.showWarningMessage(
      `Persona Lab: ${path} holds ${gold} gold decision(s); Import Labels takes its labels only. Run \`persona-lab labels import\` to import the decisions.`,
    );
  }
  const store = labels.store(true);
  if (!store) return;
  const session = new ImportSession(store, parsed.rows, path);
  const diags = [...parsed.diagnostics, ...session.plan.diagnostics];
  showProblems(problems, path, diags);
  const skipped = diags.filter((d) => d.severity === 'error').length;
  const summary = planSummary(path, parsed.rows.length, skipped, session.plan);
  if (session.plan.additions.length === 0 && session.conflicts.length === 0) {
    void vscode.window.showInformationMessage(`Persona Lab: nothing to import. ${summary}.`);
    return;
  }
  let decisions = new Map<string, ConflictDecision>();
  if (session.conflicts.length > 0) {
    log.info(`labels: import of ${summary}; showing the conflict table`);
    const chosen = await decideConflicts({
      extensionUri,
      file: path,
      summary: planParts(parsed.rows.length, skipped, session.plan),
      additions: session.plan.additions.length,
      conflicts: session.conflicts,
      names: labels.names(),
    });
    if (!chosen) {
      void vscode.window.showInformationMessage('Persona Lab: import cancelled; nothing was written.');
      return;
    }
    decisions = chosen;
  } else {
    const go = await vscode.window.showInformationMessage(`Persona Lab: ${summary}.`, { modal: true }, 'Import');
    if (go !== 'Import') return;
  }
  const result = labels.write(() => session.resolve(decisions));
  if (!result.ok) {
    void vscode.window.showErrorMessage(
      `Persona Lab: ${result.message} (the database changed while importing; run the import again).`,
    );
    return;
  }
  void vscode.window.showInformationMessage(
    `Persona Lab: imported ${path}: ${result.added} added, ${result.removed} removed, ${result.notesChanged} note(s) changed.`,
  );
}

function showProblems(problems: vscode.DiagnosticCollection, file: string, diags: readonly Diagnostic[]): void {
  problems.clear();
  if (diags.length === 0) return;
  problems.set(vscode.Uri.file(file), fileDiagnostics(diags, 'Persona Lab import'));
}

async function editLabelSet(labels: LabelService): Promise<void> {
  const file = labels.labelSetFile;
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    const set = Object.fromEntries(labels.formatSets.map((f) => [f.key, f.defaults]));
    writeFileSync(file, JSON.stringify(set, null, 2) + '\n');
  }
  await vscode.window.showTextDocument(vscode.Uri.file(file));
}

export interface LabelFileCommands {
  exportLabels(arg: unknown): Promise<void>;
  importLabels(arg: unknown): Promise<void>;
  labelSummary(arg?: unknown): Promise<void>;
  editLabelSet(arg?: unknown): Promise<void>;
}

/** The label file commands' handlers; an error becomes an error message. */
export function labelFileCommands(
  context: vscode.ExtensionContext,
  labels: LabelService,
  unitOpener: UnitOpener = () => undefined,
): LabelFileCommands {
  const problems = vscode.languages.createDiagnosticCollection('personaLab.labelImport');
  const guard = (fn: (arg: unknown) => Promise<void>) => async (arg: unknown) => {
    try {
      await fn(arg);
    } catch (e) {
      void vscode.window.showErrorMessage(`Persona Lab: ${(e as Error).message}`);
    }
  };
  const agreement = new AgreementPanel(context.extensionUri, labels, unitOpener);
  context.subscriptions.push(
    problems,
    registerSummaryDocument(labels),
    agreement,
    restoreReusedPanel(AGREEMENT_VIEW_TYPE, agreement, async () => {}),
  );
  return {
    exportLabels: guard((arg) => exportLabels(labels, arg)),
    importLabels: guard((arg) => importLabels(context.extensionUri, labels, problems, arg)),
    labelSummary: guard(async () => agreement.show()),
    editLabelSet: guard(() => editLabelSet(labels)),
  };
}
