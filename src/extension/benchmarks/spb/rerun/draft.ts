// Edit Prompt (key e in the step view): this step's request as a draft file beside the step view; Ctrl+Enter sends
// the draft as it stands (through the PI guard) as a new attempt of the step, shown in the step view. One draft per
// run and step under .personalab/drafts/, kept until deleted; reopening the step reopens its draft.
import * as vscode from 'vscode';
import { draftPath, renderDraft, type Draft } from '../../../../core/spb/rerun/draft';
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
import { showDraft } from '../../../rerun/draftEditor';
import type { DraftCommand } from '../../../rerun/draftKinds';

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

/** Ctrl+Enter on a step draft that parsed: a new attempt of its step, shown in the step view. */
export async function sendStepDraft(deps: RerunDeps, doc: vscode.TextDocument, d: Draft): Promise<void> {
  const name = vscode.workspace.asRelativePath(doc.uri);
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

/** Shown above a step draft after Re-run. */
export const SAVE_AS_TEMPLATE: DraftCommand = {
  title: '$(save-as) Save as Template…',
  tooltip: 'Save as Template…: your edits around the values as a new template',
  command: 'personaLab.saveDraftAsTemplate',
};
