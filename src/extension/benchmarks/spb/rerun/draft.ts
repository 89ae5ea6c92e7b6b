// Edit Prompt (key e in the step view): this step's request as a draft file beside the step view; Ctrl+Enter sends
// the draft as it stands (through the PI guard) as a new attempt of the step, shown in the step view. One draft per
// run and step under .personalab/drafts/, kept until deleted; reopening the step reopens its draft.
import * as vscode from 'vscode';
import {
  DRAFT_LANGUAGE,
  draftPath,
  parseDraft,
  renderDraft,
  type Draft,
  type DraftParse,
  type DraftProblem,
} from '../../../../core/rerun/draft';
import { readPostsText } from '../../../../core/spb/format/load';
import { renderChosen } from '../templates/library';
import { templateId } from '../../../../core/spb/prompt/prompt';
import { personaReceived } from '../../../../core/spb/score/run';
import type { StepRef } from '../store';
import { stepForCommand } from '../stepView';
import { execute, type RerunDeps } from './step';
import { readDraftOrigin, writeDraftOrigin } from './draftTemplate';
import { draftPersona } from '../../../../core/spb/rerun/sentPersona';
import { promptContext } from '../../../../core/spb/reference/source';
import { draftKindOf, onDidChangeDraftKinds } from '../../../rerun/draftKinds';

/** The workspace folder, else the benchmark's folder: where .personalab/ lives. */
function baseFolder(deps: RerunDeps): vscode.Uri | undefined {
  const ws = vscode.workspace.workspaceFolders?.[0]?.uri;
  const root = deps.store.bench?.root;
  return ws ?? (root ? vscode.Uri.file(root) : undefined);
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

function carriedPersona(deps: RerunDeps, ref: StepRef): string | null {
  const found = deps.store.step(ref);
  const persona = found ? personaReceived(deps.store.run, found.user, ref.stepId) : '';
  return persona === '' ? null : persona;
}

/** Writes the step's request as a draft unless it has one, and opens it beside the step view. */
export async function editPrompt(deps: RerunDeps, arg: unknown): Promise<void> {
  const { store, templates, endpoint } = deps;
  const ref = await stepForCommand(store, deps.stepView, arg);
  const found = ref && store.step(ref);
  const base = baseFolder(deps);
  if (!ref || !found || !base) return;
  const uri = vscode.Uri.joinPath(base, ...draftPath(store.runName ?? null, ref).split('/'));
  if (!(await exists(uri))) {
    const active = templates.active();
    const { template, why } = active
      ? { template: await templates.read(active), why: undefined }
      : await templates.preferred();
    if (why)
      void vscode.window.showWarningMessage(
        `Persona Lab: ${why} This draft starts from Persona Lab's template instead.`,
      );
    const settings = endpoint.settings();
    const personaIn = carriedPersona(deps, ref);
    let system: string;
    let prompt: string;
    try {
      ({ system, prompt } = await renderChosen(
        template,
        { user: found.user, step: found.step, personaIn, postsText: readPostsText(found.user, found.step) },
        settings.systemMessage.trim() === '' ? undefined : settings.systemMessage,
      ));
    } catch (e) {
      void vscode.window.showErrorMessage(`Persona Lab: ${template.name}: ${(e as Error).message}`);
      return;
    }
    const draft: Draft = {
      step: { platform: ref.platform, userId: ref.userId, stepId: ref.stepId },
      model: settings.model,
      temperature: template.source?.temperature ?? settings.temperature,
      maxTokens: settings.maxTokens ?? null,
      system,
      prompt,
    };
    const persona =
      personaIn === null ? 'no persona (cold start)' : `persona carried from ${store.runName ?? 'the run'}`;
    const text = renderDraft(draft, { persona, template: template.name });
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    await writeDraftOrigin(uri, {
      templateName: template.name,
      templateText: template.source ? null : template.text,
      personaIn,
      system,
      prompt,
    });
  }
  await showDraft(uri);
}

/**
 * Opens a draft beside the view with the cursor where its prompt starts, ready to type. The cursor comes with the
 * editor (a selection set after it opened lands late, and keys typed at once would go where the editor opened).
 */
export async function showDraft(uri: vscode.Uri): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const text = doc.getText();
  const userLine = text.split('\n').indexOf('=== user ===');
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
export class DraftFolding implements vscode.FoldingRangeProvider {
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

/** Problems of the drafts as they are typed; cleared when a draft is fixed or closed. */
export class DraftDiagnostics implements vscode.Disposable {
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

  check(doc: vscode.TextDocument): DraftParse | undefined {
    if (doc.languageId !== DRAFT_LANGUAGE) return undefined;
    const text = doc.getText();
    const kind = draftKindOf(text);
    if (kind) {
      // A format's own draft (told apart by its header): its own reading, the same squiggles.
      this.collection.set(
        doc.uri,
        kind.problems(text).map((p) => toDiagnostic(doc, p)),
      );
      return undefined;
    }
    const parsed = parseDraft(text);
    this.collection.set(doc.uri, parsed.ok ? [] : parsed.problems.map((p) => toDiagnostic(doc, p)));
    return parsed;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.collection.dispose();
  }
}

/** Ctrl+Enter: sends the draft (the active one, or the one whose lens or title button was clicked). */
export async function sendDraft(deps: RerunDeps, arg: unknown): Promise<void> {
  const doc =
    arg instanceof vscode.Uri ? await vscode.workspace.openTextDocument(arg) : vscode.window.activeTextEditor?.document;
  if (!doc || doc.languageId !== DRAFT_LANGUAGE) {
    void vscode.window.showInformationMessage(
      'Persona Lab: open a prompt draft first (Edit Prompt: key e in the step view).',
    );
    return;
  }
  const name = vscode.workspace.asRelativePath(doc.uri);
  const parsed = deps.drafts.check(doc);
  if (!parsed?.ok) {
    const first = parsed?.problems[0];
    if (first) void vscode.window.showErrorMessage(`Persona Lab: ${name}:${first.line}: ${first.message}`);
    return;
  }
  const d = parsed.draft;
  const found = deps.store.step(d.step);
  if (!found) {
    void vscode.window.showErrorMessage(
      `Persona Lab: ${name}:4: step ${d.step.platform}/${d.step.userId}/${d.step.stepId} is not in the open benchmark.`,
    );
    return;
  }
  if (doc.isDirty) await doc.save();
  const target = await deps.endpoint.resolve();
  if (!target) return;
  const host = (() => {
    try {
      return new URL(target.publicURL).host;
    } catch {
      return target.publicURL;
    }
  })();
  const maxTokens = d.maxTokens ?? target.config.maxTokens;
  // The persona as sent: an edit of its text in the draft is what this attempt received.
  const origin = await readDraftOrigin(doc.uri);
  const persona = origin
    ? draftPersona(
        origin,
        promptContext({ ...found, personaIn: origin.personaIn, postsText: readPostsText(found.user, found.step) }),
        d.prompt,
      )
    : { personaIn: carriedPersona(deps, d.step), mode: 'carried' as const };
  await execute(deps, {
    ref: d.step,
    ...found,
    personaIn: persona.personaIn,
    personaMode: persona.mode,
    templateName: `draft ${name.split('/').pop() ?? name}`,
    target: {
      ...target,
      config: { ...target.config, model: d.model, temperature: d.temperature, maxTokens },
      label: `${d.model} at ${host}`,
    },
    template: '',
    resend: { system: d.system, prompt: d.prompt, templateId: templateId(`${d.system}\n${d.prompt}`) },
  });
}

/** "Re-run" and "Save as Template…" above each draft: short, so that both fit beside the step view. */
export class DraftLens implements vscode.CodeLensProvider {
  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const range = new vscode.Range(0, 0, 0, 0);
    const send = new vscode.CodeLens(range, {
      title: '$(play) Re-run (Ctrl+Enter)',
      tooltip: 'Send this draft as a new attempt (Ctrl+Enter)',
      command: 'personaLab.sendDraft',
      arguments: [doc.uri],
    });
    // A format's own draft kind is not a step's template: only the step drafts save as one.
    if (draftKindOf(doc.getText())) return [send];
    return [
      send,
      new vscode.CodeLens(range, {
        title: '$(save-as) Save as Template…',
        tooltip: 'Save as Template…: your edits around the values as a new template',
        command: 'personaLab.saveDraftAsTemplate',
        arguments: [doc.uri],
      }),
    ];
  }
}
