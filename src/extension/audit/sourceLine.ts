// A finding's source line, the secondary way to open it (a click opens the step or trace view): the line shown
// pretty-printed beside the view (openLineBeside, as the views' own source lines), with the finding's span selected.
import { join } from 'node:path';
import * as vscode from 'vscode';
import { DOC_SCHEME, openLineBeside } from '../docs';
import { log } from '../log';
import { locateSpan } from './locate';

export interface SourceFinding {
  /** relative to the benchmark root */
  file: string;
  /** 1-based */
  line: number;
  field: string;
  start: number;
  end: number;
  text: string;
}

/** Offsets of the finding's span in `text` (a line, or one pretty-printed): at its JSON path, else the value's first occurrence. */
function spanIn(text: string, f: SourceFinding): [number, number] | undefined {
  const at = locateSpan(text, f.field, f.start, f.end);
  if (at && at.text === f.text) return [at.start, at.end];
  for (const needle of [f.text, JSON.stringify(f.text).slice(1, -1)]) {
    const i = needle ? text.indexOf(needle) : -1;
    if (i >= 0) return [i, i + needle.length];
  }
  return undefined;
}

/** Opens the finding's line beside the view, pretty-printed when it is one JSON value, and selects the span. */
export async function openFindingLine(root: string, f: SourceFinding): Promise<void> {
  const { editor, pretty } = await openLineBeside(vscode.Uri.file(join(root, f.file)), f.line);
  const doc = editor.document;
  let range: vscode.Range | undefined;
  if (pretty !== undefined) {
    // The document is a one-line header, then the pretty-printed value.
    const base = doc.getText().length - pretty.length;
    const span = spanIn(pretty, f);
    if (span) range = new vscode.Range(doc.positionAt(base + span[0]), doc.positionAt(base + span[1]));
  } else if (f.line - 1 < doc.lineCount) {
    const span = spanIn(doc.lineAt(f.line - 1).text, f);
    if (span) range = new vscode.Range(f.line - 1, span[0], f.line - 1, span[1]);
  }
  if (!range) {
    void vscode.window.showWarningMessage(
      `Persona Lab: ${f.file}:${f.line} no longer holds this finding at ${f.field} (the file changed since the audit). Run the PI audit again.`,
    );
    return;
  }
  // Take the keyboard there, with the span selected (openLineBeside leaves it where it was).
  const shown = await vscode.window.showTextDocument(doc, { viewColumn: editor.viewColumn, selection: range });
  shown.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  log.info(
    `audit: opened ${f.file}:${f.line}${doc.uri.scheme === DOC_SCHEME ? ' pretty-printed' : ''}, ${f.field} ${f.start}-${f.end}`,
  );
}
