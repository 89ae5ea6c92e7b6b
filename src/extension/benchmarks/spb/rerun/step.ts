// Re-run Step: template, persona (carried / none / edited), the configured endpoint; one request with retries,
// stored in the history and shown beside the original in the step view.
import * as vscode from 'vscode';
import { COLD_START_PERSONA } from '../../../../core/spb/prompt/prompt';
import { readPostsText } from '../../../../core/spb/format/load';
import { readRerunMeta, type RerunMeta, type RerunPersonaMode } from '../../../../core/spb/rerun/attemptCompare';
import { maskedCounts, maskingTransport, maskOutgoing } from '../../../../core/pi/guard';
import { createOpenAITransport } from '../../../../core/runner/client';
import { renderStepRequest, runStep, type StepRequest } from '../../../../core/spb/run/step';
import { personaReceived, resultFor } from '../../../../core/spb/score/run';
import type { Step, User } from '../../../../core/spb/types';
import type { EndpointService, ResolvedEndpoint } from '../../../endpoint';
import type { StepPanel } from '../stepView';
import type { SpbStore, StepRef } from '../store';
import { stepForCommand } from '../stepView';
import type { TemplateLibrary } from '../templates';
import type { RerunController } from './controller';
import { guardPrompts } from '../../../rerun/guard';
import type { AttemptHistory } from './history';
import { log } from '../../../log';
import { noPersona } from '../../../../core/glossary';

export interface RerunDeps {
  store: SpbStore;
  stepView: StepPanel;
  templates: TemplateLibrary;
  endpoint: EndpointService;
  history: AttemptHistory;
  controller: RerunController;
}

export interface PersonaChoice {
  mode: RerunPersonaMode;
  /** what the step receives; null: none (the prompt's cold-start text) */
  text: string | null;
}

interface PersonaItem extends vscode.QuickPickItem {
  mode: RerunPersonaMode;
}

const preview = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** Where the selected run's persona for `step` was written, for the quick pick's description. */
function carriedFrom(store: SpbStore, user: User, step: Step): string {
  let from = 0;
  for (const s of user.steps) {
    if (s.stepId >= step.stepId) break;
    if ((resultFor(store.run, user, s.stepId)?.personaSummary ?? '') !== '') from = s.stepId;
  }
  return from
    ? `written at step ${from}`
    : step.stepId === 1
      ? 'step 1: cold start'
      : 'no persona written before: cold start';
}

export async function pickPersona(
  store: SpbStore,
  user: User,
  step: Step,
  title: string,
): Promise<PersonaChoice | undefined> {
  const run = store.run;
  const carried = personaReceived(run, user, step.stepId);
  const items: PersonaItem[] = [
    {
      mode: 'carried',
      label: `$(history) Carried from ${run ? run.name : 'the selected run'}`,
      description: run ? carriedFrom(store, user, step) : 'no run selected: cold start',
      detail: carried ? preview(carried) : `The prompt says: ${preview(COLD_START_PERSONA, 100)}`,
    },
    {
      mode: 'none',
      label: `$(circle-slash) ${noPersona('cold start')}`,
      description: "the paper's no-persona ablation",
      detail: `The prompt says: ${preview(COLD_START_PERSONA, 100)}`,
    },
    {
      mode: 'edited',
      label: '$(edit) Edit by hand…',
      description: 'starts from the carried persona',
      detail: 'Type the persona this step receives',
    },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title,
    placeHolder: 'The persona this step receives',
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  if (picked.mode === 'carried') return { mode: 'carried', text: carried === '' ? null : carried };
  if (picked.mode === 'none') return { mode: 'none', text: null };
  const text = await vscode.window.showInputBox({
    title: `${title}: edit`,
    prompt: 'The persona this step receives (empty: none, the cold-start text)',
    value: carried,
    ignoreFocusOut: true,
  });
  return text === undefined ? undefined : { mode: 'edited', text: text.trim() === '' ? null : text };
}

export async function rerunStep(deps: RerunDeps, arg: unknown): Promise<void> {
  const { store, stepView, templates, endpoint } = deps;
  // From a template editor's title bar the argument is the template; the step is the step view's.
  const fromEditor = arg instanceof vscode.Uri ? arg : undefined;
  const ref = await stepForCommand(store, stepView, fromEditor ? undefined : arg);
  const found = ref && store.step(ref);
  if (!ref || !found) return;
  const { user, step } = found;
  const where = `${user.userId} step ${step.stepId}`;
  const template = fromEditor
    ? await templates.read(fromEditor)
    : await templates.pick(`Re-run ${where} (1/2): template`);
  if (!template || !(await templates.confirmUsable(template))) return;
  const persona = await pickPersona(store, user, step, `Re-run ${where} (2/2): persona`);
  if (!persona) return;
  const resolved = await endpoint.resolve();
  if (!resolved) return;
  let target = resolved;
  let resend: StepRequest['resend'];
  const source = template.source;
  if (source) {
    // The benchmark's builder renders the request now; it is then sent as rendered, with its temperature.
    try {
      const r = await source.render({
        user,
        step,
        personaIn: persona.text,
        postsText: readPostsText(user, step),
      });
      resend = { system: r.system, prompt: r.prompt, templateId: source.id };
    } catch (e) {
      void vscode.window.showErrorMessage(`Persona Lab: ${source.name}: ${(e as Error).message}`);
      return;
    }
    target = { ...resolved, config: { ...resolved.config, temperature: source.temperature } };
  }
  await execute(deps, {
    ref,
    user,
    step,
    personaIn: persona.text,
    personaMode: persona.mode,
    templateName: template.name,
    target,
    template: template.text,
    resend,
  });
}

export interface Execution {
  ref: StepRef;
  user: User;
  step: Step;
  personaIn: string | null;
  personaMode: RerunPersonaMode;
  templateName: string;
  target: ResolvedEndpoint;
  /** the template to render, or the request of an earlier attempt to send again */
  template: string;
  resend?: StepRequest['resend'];
}

/** Guard, request, record in the history, show beside the original. */
export async function execute(deps: RerunDeps, x: Execution): Promise<void> {
  const { store, stepView, history, controller } = deps;
  const { ref, user, step, target } = x;
  const where = `${user.userId} step ${step.stepId}`;
  const request = {
    user,
    step,
    personaIn: x.personaIn,
    template: x.template,
    systemMessage: target.systemMessage,
    resend: x.resend,
  };
  const outgoing = x.resend ? { system: x.resend.system, prompt: x.resend.prompt } : renderStepRequest(request);
  const guard = await guardPrompts(
    target,
    () => [{ label: `${user.platform}/${where}`, ...outgoing }],
    `re-run of ${where}`,
  );
  if (!guard) return;

  stepView.show(ref, true);
  const label = `${x.templateName} · persona ${x.personaMode} · ${target.label}`;
  // Progress shows in the step view (with its Cancel) and the status bar, never as a toast over the results.
  const abort = new AbortController();
  controller.setRunning(ref, `${x.resend ? 'Retrying' : 'Re-running'} with ${label}…`, () => abort.abort());
  try {
    const rec = await vscode.window
      .withProgress({ location: vscode.ProgressLocation.Window, title: `Persona Lab: re-running ${where}` }, () => {
        const http = createOpenAITransport(target.config);
        return runStep({
          ...request,
          personaMode: x.personaMode === 'none' ? 'none' : 'full',
          transport: guard === 'mask' ? maskingTransport(http) : http,
          signal: abort.signal,
        });
      })
      .then((r) => (r && guard === 'mask' ? maskOutgoing(r) : r));
    if (!rec) {
      vscode.window.setStatusBarMessage(`Persona Lab: re-run of ${where} cancelled`, 5000);
      return;
    }
    const meta: RerunMeta & Record<string, unknown> = {
      kind: 'rerun',
      personaMode: x.personaMode,
      baseRun: store.runName ?? null,
      templateName: x.templateName,
      temperature: target.config.temperature ?? 0,
      maxTokens: target.config.maxTokens ?? null,
      ...(guard === 'mask' ? { masked: maskedCounts(outgoing) } : {}),
    };
    const row = await history.record(
      { run: 'rerun', model: target.config.model, baseURL: target.publicURL, meta },
      rec,
    );
    // A failure shows as a banner with its error, tries and Retry in the step view (no toast over it).
    controller.select(ref, row.id);
    log.info(
      `rerun: attempt #${row.id} of ${user.platform}/${where}: ${rec.error ? `failed after ${rec.attempts.length} tries: ${rec.error}` : `${rec.prediction.length} tags`}`,
    );
  } finally {
    controller.setRunning(ref, null);
  }
}

/** Retry: attempt `id`'s request (system message and prompt, as sent) again, with its persona mode and template name. */
export async function retryAttempt(deps: RerunDeps, ref: StepRef, id: number): Promise<void> {
  const found = deps.store.step(ref);
  const row = await deps.history.byId(id);
  if (!found || !row) {
    void vscode.window.showWarningMessage(`Persona Lab: attempt #${id} or its step is not there any more.`);
    return;
  }
  const meta = readRerunMeta(row.meta);
  const target = await deps.endpoint.resolve();
  if (!target) return;
  await execute(deps, {
    ref,
    ...found,
    personaIn: row.personaIn,
    personaMode: meta?.personaMode ?? 'carried',
    templateName: meta?.templateName || row.templateId,
    target,
    template: '',
    resend: { system: row.system, prompt: row.prompt, templateId: row.templateId },
  });
}
