// Editor support for personalab-prompt files: slot completion after `{{`, hovers with the slot's meaning, and
// checkTemplate's problems as diagnostics, updated as you type.
import * as vscode from 'vscode';
import { SEVERITY } from '../../../diagnostics';
import { SLOT_NAMES, type SlotName } from '../../../../core/spb/prompt/prompt';
import {
  locateProblems,
  slotAt,
  slotCompletionContext,
  slotDoc,
  TEMPLATE_LANGUAGE,
} from '../../../../core/spb/prompt/templateFiles';

const SELECTOR: vscode.DocumentSelector = { language: TEMPLATE_LANGUAGE };
const DIAGNOSTIC_DELAY_MS = 150;

function markdown(text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(text);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

const completions: vscode.CompletionItemProvider = {
  provideCompletionItems(doc, position) {
    const line = doc.lineAt(position.line).text;
    const ctx = slotCompletionContext(line, position.character);
    if (!ctx) return undefined;
    const range = new vscode.Range(position.line, ctx.start, position.line, position.character);
    return (Object.keys(SLOT_NAMES) as SlotName[]).map((name, i) => {
      const info = SLOT_NAMES[name];
      const item = new vscode.CompletionItem(
        { label: name, description: info.need },
        vscode.CompletionItemKind.Variable,
      );
      item.insertText = ctx.closed ? name : `${name}}}`;
      item.range = range;
      item.documentation = markdown(slotDoc(name));
      item.detail = info.description;
      // Required slots first, then the reference's, then optional ones; the table's order within each.
      item.sortText = `${info.need === 'required' ? 0 : info.need === 'reference' ? 1 : 2}${String(i).padStart(2, '0')}`;
      return item;
    });
  },
};

const hovers: vscode.HoverProvider = {
  provideHover(doc, position) {
    const span = slotAt(doc.lineAt(position.line).text, position.character);
    if (!span) return undefined;
    const range = new vscode.Range(position.line, span.start, position.line, span.end);
    if (span.info) return new vscode.Hover(markdown(slotDoc(span.name as SlotName)), range);
    const known = Object.keys(SLOT_NAMES)
      .map((n) => `\`${n}\``)
      .join(', ');
    return new vscode.Hover(markdown(`**Not a slot**: sent to the model as written.\n\nSlots: ${known}`), range);
  },
};

function diagnose(doc: vscode.TextDocument, collection: vscode.DiagnosticCollection): void {
  if (doc.languageId !== TEMPLATE_LANGUAGE) return;
  collection.set(
    doc.uri,
    locateProblems(doc.getText()).map((p) => {
      const d = new vscode.Diagnostic(
        new vscode.Range(p.range.line, p.range.start, p.range.line, p.range.end),
        p.message,
        SEVERITY[p.severity],
      );
      d.source = 'Persona Lab';
      d.code = p.kind === 'missing' ? `missing-slot` : p.kind === 'unknown' ? 'unknown-slot' : 'not-a-slot';
      return d;
    }),
  );
}

export function registerTemplateLanguage(context: vscode.ExtensionContext): void {
  const collection = vscode.languages.createDiagnosticCollection('persona-lab-templates');
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const schedule = (doc: vscode.TextDocument) => {
    const key = doc.uri.toString();
    clearTimeout(timers.get(key));
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        diagnose(doc, collection);
      }, DIAGNOSTIC_DELAY_MS),
    );
  };
  for (const doc of vscode.workspace.textDocuments) diagnose(doc, collection);
  context.subscriptions.push(
    collection,
    vscode.languages.registerCompletionItemProvider(SELECTOR, completions, '{'),
    vscode.languages.registerHoverProvider(SELECTOR, hovers),
    vscode.workspace.onDidOpenTextDocument((doc) => diagnose(doc, collection)),
    vscode.workspace.onDidChangeTextDocument(
      (e) => e.document.languageId === TEMPLATE_LANGUAGE && schedule(e.document),
    ),
    vscode.workspace.onDidCloseTextDocument((doc) => collection.delete(doc.uri)),
    { dispose: () => timers.forEach((t) => clearTimeout(t)) },
  );
}
