// Re-run Test Action and Edit Prompt on the trace view: a test action's questions sent again (through the PI guard)
// as the prompt source renders them, or one question's edited prompt from its draft; each becomes an attempt, kept
// and shown in the trace view beside the selected run's answers.
import * as vscode from 'vscode';
import { maskingTransport } from '../../../../core/pi/guard';
import { runAction, runQuestion, type ActionInput, type AnswerRun } from '../../../../core/omni/run/action';
import { omniDraftPath, renderOmniDraft, type OmniDraft } from '../../../../core/omni/run/draft';
import { DEFAULT_MAX_HISTORY_TOKENS, type OmniPromptSource } from '../../../../core/omni/run/source';
import type { OmniAttempt } from '../../../../core/omni/run/attempts';
import { createOpenAITransport, DEFAULT_RETRY } from '../../../../core/runner/client';
import type { TraceRef } from '../../../../shared/omni/traceProtocol';
import type { OmniStore } from '../store';
import { toTraceRef } from '../commands';
import type { EndpointService, ResolvedEndpoint } from '../../../endpoint';
import { log } from '../../../log';
import { showDraft } from '../../../rerun/draftEditor';
import { draftTarget } from '../../../rerun/draftKinds';
import { guardPrompts } from '../../../rerun/guard';
import type { TracePanel } from '../traceView/panel';
import type { Attempts } from './attemptsView';
import type { OmniSources } from './sources';

export interface OmniRerunDeps {
  store: OmniStore;
  trace: TracePanel;
  endpoint: EndpointService;
  sources: OmniSources;
  attempts: Attempts;
}

/** What is being sent for each test action now, for the trace view. */
const running = new Map<string, string>();
const keyOf = (r: TraceRef) => `${r.userId}#${r.index}`;

export async function postAttempts(deps: OmniRerunDeps, ref: TraceRef): Promise<void> {
  const { source } = await deps.sources.get();
  deps.trace.postAttempts(ref, {
    type: 'attempts',
    attempts: deps.attempts.views(ref),
    running: running.get(keyOf(ref)) ?? null,
    source: source.name,
  });
}

function refFor(deps: OmniRerunDeps, arg: unknown): TraceRef | undefined {
  const ref = toTraceRef(arg) ?? deps.trace.shownRef();
  if (!ref) {
    void vscode.window.showInformationMessage('Persona Lab: open a test action in the trace view first.');
    return undefined;
  }
  if (!deps.store.testAction(ref.userId, ref.index)) {
    void vscode.window.showWarningMessage(`Persona Lab: ${keyOf(ref)} is not in the loaded OmniBehavior benchmark.`);
    return undefined;
  }
  return ref;
}

async function chosenSource(deps: OmniRerunDeps): Promise<OmniPromptSource> {
  const { source, why } = await deps.sources.get();
  if (why) void vscode.window.showWarningMessage(`Persona Lab: ${why} Using ${source.name}.`);
  return source;
}

/** Sends, records the attempt, shows it. `questions` runs the asking with the input it is given. */
async function attempt(
  deps: OmniRerunDeps,
  ref: TraceRef,
  target: ResolvedEndpoint,
  source: OmniPromptSource,
  edited: { field: string; prompt: string; temperature?: number } | null,
  prompts: { label: string; system: string; prompt: string }[],
  ask: (input: ActionInput) => Promise<AnswerRun[] | null>,
): Promise<void> {
  const where = keyOf(ref);
  const guard = await guardPrompts(target, () => prompts, `re-run of ${where}`);
  if (!guard) return;
  const http = createOpenAITransport(target.config);
  running.set(where, `Asking ${prompts.length} question${prompts.length === 1 ? '' : 's'} of ${target.label}…`);
  await postAttempts(deps, ref);
  try {
    const answers = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `Persona Lab: re-running ${where}` },
      () =>
        ask({
          source,
          transport: guard === 'mask' ? maskingTransport(http) : http,
          model: target.config.model,
          temperature: edited?.temperature,
          retry: DEFAULT_RETRY,
          requestOptions: { maxHistoryTokens: DEFAULT_MAX_HISTORY_TOKENS },
        }),
    );
    if (!answers) return;
    const row: Omit<OmniAttempt, 'id'> = {
      at: new Date().toISOString(),
      userId: ref.userId,
      index: ref.index,
      baseRun: deps.store.runName ?? null,
      source: edited
        ? { kind: 'draft', name: `draft of ${edited.field}`, id: source.id }
        : { kind: source.kind, name: source.name, id: source.id },
      model: target.config.model,
      baseURL: target.publicURL,
      edited: edited?.field ?? null,
      answers: answers.map((a) => ({ ...a.answer, prompt: edited?.prompt ?? a.question.prompt ?? '' })),
      ...(guard === 'mask' ? { masked: true } : {}),
    };
    const saved = deps.attempts.get()?.add(row);
    log.info(`omni rerun: attempt #${saved?.id ?? '?'} of ${where}: ${answers.length} answer(s)`);
  } finally {
    running.delete(where);
    await postAttempts(deps, ref);
  }
}

export async function rerunTestAction(deps: OmniRerunDeps, arg: unknown): Promise<void> {
  const ref = refFor(deps, arg);
  const found = ref && deps.store.testAction(ref.userId, ref.index);
  if (!ref || !found) return;
  const target = await deps.endpoint.resolve();
  if (!target) return;
  const source = await chosenSource(deps);
  const asked = await source.questions(found.user.file, ref.userId, ref.index, {
    maxHistoryTokens: DEFAULT_MAX_HISTORY_TOKENS,
  });
  const prompts = asked.questions.flatMap((q) =>
    q.prompt === null ? [] : [{ label: `${keyOf(ref)} ${q.field}`, system: '', prompt: q.prompt }],
  );
  if (prompts.length === 0) {
    void vscode.window.showInformationMessage(`Persona Lab: ${source.name} asks nothing of ${keyOf(ref)}.`);
    return;
  }
  deps.trace.show(ref);
  await attempt(deps, ref, target, source, null, prompts, async (input) => {
    const r = await runAction(found.user.file, ref.userId, ref.index, input);
    return r.aborted ? null : r.answers;
  });
}

function baseFolder(deps: OmniRerunDeps): vscode.Uri | undefined {
  const root = deps.store.bench?.root;
  return vscode.workspace.workspaceFolders?.[0]?.uri ?? (root ? vscode.Uri.file(root) : undefined);
}

/** Edit Prompt on the trace view: the question's request as a draft beside the view (written once, then reopened). */
export async function editTestActionPrompt(deps: OmniRerunDeps, arg: unknown, field?: string): Promise<void> {
  const ref = refFor(deps, arg);
  const found = ref && deps.store.testAction(ref.userId, ref.index);
  const base = baseFolder(deps);
  if (!ref || !found || !base) return;
  const source = await chosenSource(deps);
  const asked = await source.questions(found.user.file, ref.userId, ref.index, {
    maxHistoryTokens: DEFAULT_MAX_HISTORY_TOKENS,
  });
  const askable = asked.questions.filter((q) => q.prompt !== null);
  let q = askable.find((x) => x.field === field);
  if (!q && askable.length > 1) {
    const picked = await vscode.window.showQuickPick(
      askable.map((x) => ({ label: x.field, description: x.kind })),
      { title: `Edit Prompt: ${keyOf(ref)}`, placeHolder: 'The question whose prompt to edit' },
    );
    q = askable.find((x) => x.field === picked?.label);
    if (!picked) return;
  } else q ??= askable[0];
  if (!q?.prompt) {
    void vscode.window.showInformationMessage(`Persona Lab: ${source.name} asks nothing of ${keyOf(ref)}.`);
    return;
  }
  const draft: OmniDraft = {
    userId: ref.userId,
    index: ref.index,
    field: q.field,
    model: deps.endpoint.settings().model,
    temperature: undefined,
    prompt: q.prompt,
  };
  const uri = vscode.Uri.joinPath(base, ...omniDraftPath(deps.store.runName ?? null, draft).split('/'));
  try {
    await vscode.workspace.fs.stat(uri);
  } catch {
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(renderOmniDraft(draft, source.name)));
  }
  await showDraft(uri);
}

/** Ctrl+Enter in an OmniBehavior draft: its prompt, exactly as written, as a new attempt of that question. */
export async function sendOmniDraft(deps: OmniRerunDeps, doc: vscode.TextDocument, d: OmniDraft): Promise<void> {
  const name = vscode.workspace.asRelativePath(doc.uri);
  const ref = { userId: d.userId, index: d.index };
  const found = deps.store.testAction(d.userId, d.index);
  if (!found) {
    void vscode.window.showErrorMessage(
      `Persona Lab: ${name}:4: ${keyOf(ref)} is not in the loaded OmniBehavior benchmark.`,
    );
    return;
  }
  const target = await draftTarget(doc, deps.endpoint, d.model);
  if (!target) return;
  const source = await chosenSource(deps);
  const asked = await source.questions(found.user.file, d.userId, d.index, {
    maxHistoryTokens: DEFAULT_MAX_HISTORY_TOKENS,
  });
  const q = asked.questions.find((x) => x.field === d.field);
  if (!q) {
    void vscode.window.showErrorMessage(
      `Persona Lab: ${name}:5: ${source.name} does not ask ${d.field} of ${keyOf(ref)}.`,
    );
    return;
  }
  deps.trace.show(ref);
  const edited = { field: d.field, prompt: d.prompt, temperature: d.temperature };
  await attempt(
    deps,
    ref,
    target,
    source,
    edited,
    [{ label: `${keyOf(ref)} ${d.field}`, system: '', prompt: d.prompt }],
    async (input) => {
      const r = await runQuestion(q, d.prompt, input);
      return [r];
    },
  );
}
