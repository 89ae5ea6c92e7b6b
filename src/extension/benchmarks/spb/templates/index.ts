// Templates as files: New Prompt Template, the personalab-prompt language support, and Preview Prompt for Step
// (the fully rendered prompt of a step as a read-only document).
import * as vscode from 'vscode';
import { readPostsText } from '../../../../core/spb/format/load';
import { DEFAULT_TEMPLATE } from '../../../../core/spb/prompt/prompt';
import { personaReceived } from '../../../../core/spb/score/run';
import { checkTemplateName, templateFileName } from '../../../../core/spb/prompt/templateFiles';
import type { ReadOnlyDocs } from '../../../docs';
import { stepForCommand, type StepPanel } from '../stepView';
import type { SpbStore } from '../store';
import { registerTemplateLanguage } from './language';
import { renderChosen, TemplateLibrary, type ChosenTemplate } from './library';
import { ReferencePrompts } from './reference';

export type { ChosenTemplate, TemplateLibrary } from './library';

export interface TemplateDeps {
  docs: ReadOnlyDocs;
  stepView: StepPanel;
}

export function activateTemplates(context: vscode.ExtensionContext, store: SpbStore): TemplateLibrary {
  const reference = new ReferencePrompts(() => store.root ?? undefined);
  context.subscriptions.push(reference);
  const library = new TemplateLibrary(store, context.workspaceState, reference);
  registerTemplateLanguage(context);
  return library;
}

export async function newTemplate(library: TemplateLibrary): Promise<vscode.Uri | undefined> {
  const folder = library.folder();
  if (!folder) {
    void vscode.window.showWarningMessage(
      'Persona Lab: open a folder (or a benchmark) first: templates are kept in its .personalab/templates/.',
    );
    return undefined;
  }
  const exists = async (name: string) => {
    try {
      await vscode.workspace.fs.stat(vscode.Uri.joinPath(folder, templateFileName(name)));
      return true;
    } catch {
      return false;
    }
  };
  const name = await vscode.window.showInputBox({
    title: 'Persona Lab: New Prompt Template',
    prompt: `A copy of Persona Lab's built-in template (our wording, not the benchmark's prompt), saved as ${vscode.workspace.asRelativePath(folder)}/<name>.plprompt`,
    placeHolder: 'shorter-persona',
    ignoreFocusOut: true,
    validateInput: async (v) =>
      checkTemplateName(v) ?? ((await exists(v.trim())) ? `${templateFileName(v.trim())} already exists` : undefined),
  });
  if (name === undefined) return undefined;
  const uri = vscode.Uri.joinPath(folder, templateFileName(name));
  await vscode.workspace.fs.createDirectory(folder);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(DEFAULT_TEMPLATE));
  await vscode.window.showTextDocument(uri, { preview: false });
  return uri;
}

export async function previewPrompt(
  store: SpbStore,
  library: TemplateLibrary,
  deps: TemplateDeps,
  arg: unknown,
): Promise<void> {
  // From a template editor's title bar the argument is the template's URI; the step is then the step view's.
  const fromEditor = arg instanceof vscode.Uri ? arg : library.active();
  const ref = await stepForCommand(store, deps.stepView, arg instanceof vscode.Uri ? undefined : arg);
  const found = ref && store.step(ref);
  if (!ref || !found) return;
  let template: ChosenTemplate | undefined = fromEditor ? await library.read(fromEditor) : undefined;
  template ??= await library.pick(`Preview Prompt for ${ref.userId} step ${ref.stepId}: template`);
  if (!template) return;
  const { user, step } = found;
  const run = store.run;
  const persona = personaReceived(run, user, step.stepId);
  let rendered: { prompt: string; k: number };
  try {
    rendered = await renderChosen(template, {
      user,
      step,
      personaIn: persona === '' ? null : persona,
      postsText: readPostsText(user, step),
    });
  } catch (e) {
    void vscode.window.showErrorMessage(`Persona Lab: ${template.name}: ${(e as Error).message}`);
    return;
  }
  await deps.docs.open(`Prompt · ${user.userId} step ${step.stepId} · ${template.name}.md`, rendered.prompt, {
    language: 'markdown',
  });
  vscode.window.setStatusBarMessage(
    `Persona Lab: prompt of template ${template.name} (${template.id}) with the persona ${run ? `${run.name} carried to step ${step.stepId}` : 'of a cold start'}, k = ${rendered.k}`,
    8000,
  );
}
