// The prompt draft editor, the same for every format's drafts: a draft opens beside its item's view, its problems
// show as it is typed, its history block folds, Re-run (and its kind's commands) sit above it, and Ctrl+Enter sends it.
// Each asks the draft kinds the formats' re-runs registered (draftKinds.ts); activated once with the re-runs.
import * as vscode from 'vscode';
import { DRAFT_LANGUAGE, USER_MARKER, type DraftProblem } from '../../core/rerun/draft';
import { draftKindOf, onDidChangeDraftKinds } from './draftKinds';

const NO_KIND = 'no re-run of this build reads this draft (its header names no kind of draft)';

/**
 * Opens a draft beside the view with the cursor where its prompt starts, ready to type. The cursor comes with the
 * editor (a selection set after it opened lands late, and keys typed at once would go where the editor opened).
 */
export async function showDraft(uri: vscode.Uri): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const text = doc.getText();
  const userLine = text.split('\n').indexOf(USER_MARKER);
  // A draft that is mostly history (its kind says which block) opens folded, at what follows it.
  const history = draftKindOf(text)?.fold?.(text) ?? null;
  const line = history ? history.edit : userLine >= 0 ? userLine + 1 : -1;
  const at = line >= 0 ? new vscode.Position(line, 0) : undefined;
  const editor = await vscode.window.showTextDocument(doc, {
    viewColumn: vscode.ViewColumn.Beside,
    preview: false,
    selection: at && new vscode.Range(at, at),
  });
  if (history) await vscode.commands.executeCommand('editor.fold', { selectionLines: [history.start], levels: 1 });
  // Scrolled only when the prompt is out of sight: a late scroll would move the view away from what is being typed.
  if (at && !editor.visibleRanges.some((r) => r.contains(at)))
    editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

/** A draft's history block, as its kind finds it, folds (and is folded when the draft opens). */
class DraftFolding implements vscode.FoldingRangeProvider {
  provideFoldingRanges(doc: vscode.TextDocument): vscode.FoldingRange[] {
    const text = doc.getText();
    const block = draftKindOf(text)?.fold?.(text) ?? null;
    return block ? [new vscode.FoldingRange(block.start, block.end, vscode.FoldingRangeKind.Region)] : [];
  }
}

function toDiagnostic(doc: vscode.TextDocument, p: DraftProblem): vscode.Diagnostic {
  const line = Math.min(Math.max(p.line - 1, 0), Math.max(doc.lineCount - 1, 0));
  return new vscode.Diagnostic(doc.lineAt(line).range, p.message, vscode.DiagnosticSeverity.Error);
}

/** Problems of the drafts as they are typed, as their kind reads them; cleared when a draft is fixed or closed. */
class DraftDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection(DRAFT_LANGUAGE);
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.workspace.onDidOpenTextDocument((d) => this.check(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.check(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.collection.delete(d.uri)),
      onDidChangeDraftKinds(() => vscode.workspace.textDocuments.forEach((d) => this.check(d))),
    ];
    for (const d of vscode.workspace.textDocuments) this.check(d);
  }

  private check(doc: vscode.TextDocument): void {
    if (doc.languageId !== DRAFT_LANGUAGE) return;
    const text = doc.getText();
    const kind = draftKindOf(text);
    const problems = kind ? kind.problems(text) : [{ line: 1, message: NO_KIND }];
    this.collection.set(
      doc.uri,
      problems.map((p) => toDiagnostic(doc, p)),
    );
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.collection.dispose();
  }
}

/** "Re-run" above each draft, then its kind's own commands: short, so that they fit beside the item's view. */
class DraftLens implements vscode.CodeLensProvider {
  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const range = new vscode.Range(0, 0, 0, 0);
    const send = new vscode.CodeLens(range, {
      title: '$(play) Re-run (Ctrl+Enter)',
      tooltip: 'Send this draft as a new attempt (Ctrl+Enter)',
      command: 'personaLab.sendDraft',
      arguments: [doc.uri],
    });
    const own = draftKindOf(doc.getText())?.commands ?? [];
    return [send, ...own.map((c) => new vscode.CodeLens(range, { ...c, arguments: [doc.uri] }))];
  }
}

/** Ctrl+Enter: sends the draft (the active one, or the one whose lens or title button was clicked) by its kind. */
export async function sendDraft(arg: unknown): Promise<void> {
  const doc =
    arg instanceof vscode.Uri ? await vscode.workspace.openTextDocument(arg) : vscode.window.activeTextEditor?.document;
  if (!doc || doc.languageId !== DRAFT_LANGUAGE) {
    void vscode.window.showInformationMessage(
      "Persona Lab: open a prompt draft first (Edit Prompt: key e in an item's view).",
    );
    return;
  }
  const kind = draftKindOf(doc.getText());
  if (kind) return kind.send(doc);
  void vscode.window.showErrorMessage(`Persona Lab: ${vscode.workspace.asRelativePath(doc.uri)}:1: ${NO_KIND}.`);
}

/** The draft editor's squiggles, folding and lenses, for every kind. */
export function activateDraftEditor(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    new DraftDiagnostics(),
    vscode.languages.registerCodeLensProvider({ language: DRAFT_LANGUAGE }, new DraftLens()),
    vscode.languages.registerFoldingRangeProvider({ language: DRAFT_LANGUAGE }, new DraftFolding()),
  );
}
