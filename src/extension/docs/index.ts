// Read-only documents under the `personalab:` scheme (rendered prompts, re-run requests and raw replies). Their
// text lives in memory; VS Code opens a content provider's documents read-only.
import * as vscode from 'vscode';

export const DOC_SCHEME = 'personalab';
/** Documents kept; the oldest are dropped first (an open editor of a dropped one shows a short note on reload). */
const MAX_DOCS = 100;

export interface OpenDocOptions {
  language?: string;
  /** default: beside the active editor */
  viewColumn?: vscode.ViewColumn;
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
    });
  }

  dispose(): void {
    this.changed.dispose();
    this.texts.clear();
  }
}

export function activateDocs(context: vscode.ExtensionContext): ReadOnlyDocs {
  const docs = new ReadOnlyDocs();
  context.subscriptions.push(docs, vscode.workspace.registerTextDocumentContentProvider(DOC_SCHEME, docs));
  return docs;
}

/** Opens a data file beside the view, with the cursor at the start of `line` (1-based), as a preview. */
export async function openLineBeside(file: vscode.Uri, line: number): Promise<void> {
  const pos = new vscode.Position(Math.max(0, line - 1), 0);
  await vscode.window.showTextDocument(file, {
    viewColumn: vscode.ViewColumn.Beside,
    preview: true,
    selection: new vscode.Range(pos, pos),
  });
}
