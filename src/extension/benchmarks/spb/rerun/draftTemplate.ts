// Save Draft as Template…: the draft's edits around the data's values become a new template under
// .personalab/templates/ (core/rerun/draftTemplate.ts maps them back); Try on Sample… then runs it as an experiment.
// What a draft was rendered from is kept beside it (<draft>.origin.json) when `e` writes it.
import * as vscode from 'vscode';
import { DRAFT_LANGUAGE } from '../../../../core/rerun/draft';
import { parseDraft } from '../../../../core/spb/rerun/draft';
import { templateFromDraft, type JoinedChoice, type JoinedText } from '../../../../core/spb/rerun/draftTemplate';
import { isRecord } from '../../../../core/guards';
import { readPostsText } from '../../../../core/spb/format/load';
import { promptContext } from '../../../../core/spb/reference/source';
import { checkTemplateName, templateFileName } from '../../../../core/spb/prompt/templateFiles';
import type { RerunDeps } from './step';

/** What `e` rendered the draft from; `templateText` null: the benchmark's own prompt (not a template). */
export interface DraftOrigin {
  templateName: string;
  templateText: string | null;
  personaIn: string | null;
  system: string;
  /** the prompt as first rendered (what the sent persona is traced from); absent in older drafts */
  prompt?: string;
}

const originUri = (draft: vscode.Uri) => draft.with({ path: `${draft.path}.origin.json` });

export async function writeDraftOrigin(draft: vscode.Uri, origin: DraftOrigin): Promise<void> {
  await vscode.workspace.fs.writeFile(originUri(draft), new TextEncoder().encode(JSON.stringify(origin, null, 2)));
}

export async function readDraftOrigin(draft: vscode.Uri): Promise<DraftOrigin | undefined> {
  try {
    const v: unknown = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(originUri(draft))));
    if (!isRecord(v) || typeof v.templateName !== 'string' || typeof v.system !== 'string') return undefined;
    const text = v.templateText;
    const persona = v.personaIn;
    if (text !== null && typeof text !== 'string') return undefined;
    if (persona !== null && typeof persona !== 'string') return undefined;
    const prompt = typeof v.prompt === 'string' ? { prompt: v.prompt } : {};
    return { templateName: v.templateName, templateText: text, personaIn: persona, system: v.system, ...prompt };
  } catch {
    return undefined;
  }
}

const fail = (text: string) => void vscode.window.showErrorMessage(`Persona Lab: ${text}`);

const EVERY_USER = 'Template Text for Every User';
const THIS_STEP = 'Only This Step';
const WHERE: Record<JoinedText['where'], string> = {
  before: 'typed right before',
  after: 'typed right after',
  instead: 'typed in place of',
};

/** One modal per text typed against a value: template text for every user, or this step's own edit. */
async function askJoined(
  name: string,
  joined: readonly JoinedText[],
): Promise<Record<string, JoinedChoice> | undefined> {
  const choices: Record<string, JoinedChoice> = {};
  for (const j of joined) {
    const picked = await vscode.window.showWarningMessage(
      `Persona Lab: ${name}: "${j.text}" is ${WHERE[j.where]} this step's {{${j.slot}}} value, on its line.`,
      {
        modal: true,
        detail: `${EVERY_USER}: every user's prompt gets "${j.text}" there. ${THIS_STEP}: it was an edit of this step's {{${j.slot}}} and stays out of the template, which keeps {{${j.slot}}}.`,
      },
      // The step's own edit first (the default button): it never reaches another user's prompt.
      THIS_STEP,
      EVERY_USER,
    );
    if (picked === undefined) return undefined;
    choices[j.id] = picked === EVERY_USER ? 'template' : 'override';
  }
  return choices;
}

export async function saveDraftAsTemplate(deps: RerunDeps, arg: unknown): Promise<void> {
  const doc =
    arg instanceof vscode.Uri ? await vscode.workspace.openTextDocument(arg) : vscode.window.activeTextEditor?.document;
  if (!doc || doc.languageId !== DRAFT_LANGUAGE) return fail('open a prompt draft first (key e in the step view).');
  const name = vscode.workspace.asRelativePath(doc.uri);
  const parsed = parseDraft(doc.getText());
  if (!parsed.ok) return fail(`${name}:${parsed.problems[0].line}: ${parsed.problems[0].message}`);
  const origin = await readDraftOrigin(doc.uri);
  if (!origin)
    return fail(
      `${name}: no record of the template it was rendered from; delete the draft and press e to write it again.`,
    );
  if (origin.templateText === null)
    return fail(
      `${name} starts from the benchmark's prompt, which is the checkout's own code and not a template: Persona Lab does not copy it into one. Ctrl+Enter tries the draft on this step.`,
    );
  const d = parsed.draft;
  const found = deps.store.step(d.step);
  if (!found)
    return fail(`${name}:4: step ${d.step.platform}/${d.step.userId}/${d.step.stepId} is not in the open benchmark.`);
  const { user, step } = found;
  const ctx = promptContext({ user, step, personaIn: origin.personaIn, postsText: readPostsText(user, step) });
  let result = templateFromDraft(origin.templateText, ctx, d.prompt);
  if (!result.ok && 'ask' in result) {
    const choices = await askJoined(name, result.ask);
    if (!choices) return;
    result = templateFromDraft(origin.templateText, ctx, d.prompt, choices);
  }
  if (!result.ok) return fail(`${name}: ${result.problems.map((p) => p.message).join('; ')}.`);
  const folder = deps.templates.folder();
  if (!folder) return fail('open a folder first: templates are kept in its .personalab/templates/.');
  const taken = async (n: string) =>
    vscode.workspace.fs.stat(vscode.Uri.joinPath(folder, templateFileName(n))).then(
      () => true,
      () => false,
    );
  const base = origin.templateName.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'template';
  const chosen = await vscode.window.showInputBox({
    title: 'Persona Lab: Save Draft as Template',
    prompt: `Your edits of ${origin.templateName}, with this step's values turned back into their {{slots}}${result.unchanged ? ' (the draft has no edits yet)' : ''}`,
    value: `${base}-edited`,
    ignoreFocusOut: true,
    validateInput: async (v) =>
      checkTemplateName(v) ?? ((await taken(v.trim())) ? `${templateFileName(v.trim())} already exists` : undefined),
  });
  if (chosen === undefined) return;
  const uri = vscode.Uri.joinPath(folder, templateFileName(chosen.trim()));
  await vscode.workspace.fs.createDirectory(folder);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(result.template));
  const notes = [
    result.dropped.length ? `without ${result.dropped.map((s) => `{{${s}}}`).join(', ')}` : '',
    ...result.overrides.map((o) => `"${o.text}" left out as this step's {{${o.slot}}} edit`),
    d.system !== origin.system
      ? 'the edited system message is not part of a template (set personaLab.endpoint.systemMessage to send it)'
      : '',
  ].filter(Boolean);
  const choice = await vscode.window.showInformationMessage(
    `Persona Lab: saved template "${chosen.trim()}"${notes.length ? `: ${notes.join('; ')}` : ''}.`,
    'Try on Sample…',
    'Open Template',
  );
  if (choice === 'Try on Sample…') await vscode.commands.executeCommand('personaLab.runTemplateOnSample', uri);
  else if (choice === 'Open Template') await vscode.window.showTextDocument(uri, { preview: false });
}
