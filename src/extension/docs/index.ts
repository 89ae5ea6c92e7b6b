// Read-only documents under the `personalab:` scheme (rendered prompts, re-run requests and raw replies). Their
// text lives in memory; VS Code opens a content provider's documents read-only.
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { prettyJsonLine, readLineAt } from '../../core/io/lineText';

export const DOC_SCHEME = 'personalab';
/** Documents kept; the oldest are dropped first (an open editor of a dropped one shows a short note on reload). */
const MAX_DOCS = 100;

export interface OpenDocOptions {
  language?: string;
  /** default: beside the active editor */
  viewColumn?: vscode.ViewColumn;
  /** keep the keyboard where it is (default: the new editor takes it) */
  preserveFocus?: boolean;
}

export class ReadOnlyDocs implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.texts.get(uri.toString()) ??
      'Persona Lab: this document is no longer in memory. Open it again from the step view.'
    );
  }

  /** The URI for a title: the title becomes the file name shown on the editor tab. */
  uriFor(title: string): vscode.Uri {
    return vscode.Uri.from({ scheme: DOC_SCHEME, path: `/${title.replace(/[\\/]/g, '_')}` });
  }

  set(uri: vscode.Uri, text: string): void {
    const key = uri.toString();
    this.texts.delete(key);
    this.texts.set(key, text);
    while (this.texts.size > MAX_DOCS) {
      const oldest = this.texts.keys().next().value;
      if (oldest === undefined) break;
      this.texts.delete(oldest);
    }
    this.changed.fire(uri);
  }

  async open(title: string, text: string, opts: OpenDocOptions = {}): Promise<vscode.TextEditor> {
    const uri = this.uriFor(title);
    this.set(uri, text);
    let doc = await vscode.workspace.openTextDocument(uri);
    if (opts.language && doc.languageId !== opts.language)
      doc = await vscode.languages.setTextDocumentLanguage(doc, opts.language);
    return vscode.window.showTextDocument(doc, {
      viewColumn: opts.viewColumn ?? vscode.ViewColumn.Beside,
      preview: true,
      preserveFocus: opts.preserveFocus ?? false,
    });
  }

  dispose(): void {
    this.changed.dispose();
    this.texts.clear();
  }
}

/** The documents openLineBeside writes to (set at activation). */
let lineDocs: ReadOnlyDocs | undefined;

export function activateDocs(context: vscode.ExtensionContext): ReadOnlyDocs {
  const docs = new ReadOnlyDocs();
  lineDocs = docs;
  context.subscriptions.push(docs, vscode.workspace.registerTextDocumentContentProvider(DOC_SCHEME, docs));
  return docs;
}

/**
 * Shows line `line` (1-based) of a data file beside the view: pretty-printed in a read-only document when it holds one
 * JSON value (a JSONL line is one long line), else the file itself at that line. One group beside is reused (a second
 * source line replaces the first preview there), and the keyboard stays where it was. Resolves to the editor shown
 * and the pretty-printed text (undefined when the file itself was shown).
 */
export async function openLineBeside(
  file: vscode.Uri,
  line: number,
): Promise<{ editor: vscode.TextEditor; pretty: string | undefined }> {
  const text = await readLineAt(file.fsPath, line).catch(() => undefined);
  const pretty = text === undefined ? undefined : prettyJsonLine(text);
  const shown = vscode.window.visibleTextEditors.find(
    (e) => e.document.uri.scheme === DOC_SCHEME && e.document.uri.path.includes(' line '),
  );
  const viewColumn = shown?.viewColumn ?? vscode.ViewColumn.Beside;
  if (pretty !== undefined && lineDocs) {
    const header = `// ${file.fsPath}, line ${line}: shown pretty-printed (the file holds it on one line)\n`;
    const editor = await lineDocs.open(`${basename(file.fsPath)} line ${line}`, header + pretty, {
      language: 'jsonc',
      viewColumn,
      preserveFocus: true,
    });
    return { editor, pretty };
  }
  const pos = new vscode.Position(Math.max(0, line - 1), 0);
  const editor = await vscode.window.showTextDocument(file, {
    viewColumn,
    preview: true,
    preserveFocus: true,
    selection: new vscode.Range(pos, pos),
  });
  return { editor, pretty: undefined };
}
