// Re-run and Edit Prompt in the PersonaMem question view: the shown question asked again (through the PI guard) as
// the request source renders it, or its request as an editable draft whose Ctrl+Enter sends exactly what it holds.
// Each becomes an attempt, kept and listed in the question view with what was sent and came back, judged against the
// correct option.
import * as vscode from 'vscode';
import { readContext, type PmMessage } from '../../../../core/personamem/contexts';
import { pmAttemptRecord, pmAttemptReplyText, pmAttemptRequestText } from '../../../../core/personamem/run/attempts';
import { askPersonaMem } from '../../../../core/personamem/run/ask';
import {
  draftRequest,
  pmDraftPath,
  renderPmDraft,
  splitRequest,
  type PmDraft,
} from '../../../../core/personamem/run/draft';
import type { PmRequestSource } from '../../../../core/personamem/run/source';
import type { PmQuestion } from '../../../../core/personamem/types';
import { maskOutgoing, maskingTransport } from '../../../../core/pi/guard';
import { createOpenAITransport, DEFAULT_RETRY, type ChatMessage } from '../../../../core/runner/client';
import type { QuestionRef } from '../../../../shared/personamem/questionProtocol';
import type { EndpointService, ResolvedEndpoint } from '../../../endpoint';
import { log } from '../../../log';
import { showDraft } from '../../../rerun/draftEditor';
import { draftTarget } from '../../../rerun/draftKinds';
import { guardPrompts } from '../../../rerun/guard';
import type { QuestionPanel } from '../questionView';
import type { PersonaMemStore } from '../store';
import type { PmAttempts } from './attempts';
import type { PmSources } from './sources';

export interface PmRerunDeps {
  store: PersonaMemStore;
  panel: QuestionPanel;
  endpoint: EndpointService;
  sources: PmSources;
  attempts: PmAttempts;
}

/** What is being sent for each question now, for the question view. */
const running = new Map<string, string>();
const keyOf = (r: QuestionRef) => `${r.split}/${r.questionId}`;

export async function postAttempts(deps: PmRerunDeps, ref: QuestionRef): Promise<void> {
  const { source } = await deps.sources.get();
  deps.panel.postAttempts(ref, {
    type: 'attempts',
    questionId: ref.questionId,
    source: source.name,
    running: running.get(keyOf(ref)) ?? null,
    attempts: deps.attempts.views(ref),
  });
}

async function chosenSource(deps: PmRerunDeps): Promise<PmRequestSource> {
  const { source, why } = await deps.sources.get();
  if (why) void vscode.window.showWarningMessage(`Persona Lab: ${why} Using ${source.name}.`);
  return source;
}

/** The question and the history its model saw, or a message said and undefined. */
function questionOf(deps: PmRerunDeps, ref: QuestionRef): { q: PmQuestion; history: PmMessage[] } | undefined {
  const q = deps.store.question(ref.split, ref.questionId);
  const ctx = q && deps.store.bench?.splits.get(q.split)?.contexts.get(q.contextId);
  if (!q || !ctx || q.endIndex === undefined) {
    void vscode.window.showWarningMessage(
      `Persona Lab: ${keyOf(ref)} is not a question of the loaded PersonaMem benchmark that can be asked.`,
    );
    return undefined;
  }
  return { q, history: readContext(ctx, q.endIndex) };
}

interface Sending {
  ref: QuestionRef;
  q: PmQuestion;
  history: PmMessage[];
  target: ResolvedEndpoint;
  source: PmRequestSource;
  /** what goes out: the history's first `kept` messages as stored, then the rest */
  messages: ChatMessage[];
  kept: number;
  temperature?: number;
  /** the draft's file name when the request was edited by hand */
  draft?: string;
}

/** Sends through the PI guard, records the attempt, shows it. */
async function attempt(deps: PmRerunDeps, s: Sending): Promise<void> {
  const where = keyOf(s.ref);
  const guard = await guardPrompts(
    s.target,
    () => [{ label: `PersonaMem ${where}`, system: '', prompt: s.messages.map((m) => m.content).join('\n') }],
    `re-run of ${where}`,
  );
  if (!guard) return;
  const http = createOpenAITransport(s.target.config);
  running.set(where, `Asking ${s.target.label}…`);
  await postAttempts(deps, s.ref);
  try {
    const asked = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `Persona Lab: re-running ${where}` },
      () =>
        askPersonaMem(s.q, s.history, {
          source: s.source,
          transport: guard === 'mask' ? maskingTransport(http) : http,
          model: s.target.config.model,
          temperature: s.temperature,
          retry: DEFAULT_RETRY,
          messages: s.messages,
        }),
    );
    if (guard === 'mask')
      asked.request.messages = asked.request.messages.map((m) => ({
        ...m,
        content: maskOutgoing({ system: '', prompt: m.content }).prompt,
      }));
    const row = pmAttemptRecord(s.q, asked, s.kept, {
      baseRun: deps.store.runName ?? null,
      source: s.draft
        ? { kind: 'draft', name: `draft ${s.draft}`, id: s.source.id }
        : { kind: s.source.kind, name: s.source.name, id: s.source.id },
      model: s.target.config.model,
      baseURL: s.target.publicURL,
      edited: s.draft !== undefined,
      masked: guard === 'mask',
    });
    const saved = deps.attempts.get()?.add({ at: new Date().toISOString(), ...row });
    log.info(`personamem rerun: attempt #${saved?.id ?? '?'} of ${where}: ${row.error ?? `read ${row.predicted}`}`);
  } finally {
    running.delete(where);
    await postAttempts(deps, s.ref);
  }
}

/** R in the question view: the question asked again as the source renders it. */
export async function rerunQuestion(deps: PmRerunDeps, ref: QuestionRef): Promise<void> {
  const found = questionOf(deps, ref);
  if (!found) return;
  const target = await deps.endpoint.resolve();
  if (!target) return;
  const source = await chosenSource(deps);
  const request = await source.request(found.q, found.history, target.config.model);
  const { history: kept } = splitRequest(request.messages, found.history);
  await attempt(deps, { ref, ...found, target, source, messages: request.messages, kept });
}

function baseFolder(deps: PmRerunDeps): vscode.Uri | undefined {
  const root = deps.store.bench?.root;
  return vscode.workspace.workspaceFolders?.[0]?.uri ?? (root ? vscode.Uri.file(root) : undefined);
}

/**
 * E in the question view: the question's request as a draft beside the view, written once per run and question from
 * the source and reopened as it was left after (an edit stays in that question's draft).
 */
export async function editQuestionPrompt(deps: PmRerunDeps, ref: QuestionRef): Promise<void> {
  const found = questionOf(deps, ref);
  const base = baseFolder(deps);
  if (!found || !base) return;
  const uri = vscode.Uri.joinPath(
    base,
    ...pmDraftPath(deps.store.runName ?? null, ref.split, ref.questionId).split('/'),
  );
  try {
    await vscode.workspace.fs.stat(uri);
  } catch {
    const source = await chosenSource(deps);
    const model = deps.endpoint.settings().model;
    const request = await source.request(found.q, found.history, model);
    const { history, rest } = splitRequest(request.messages, found.history);
    const draft = {
      split: ref.split,
      questionId: ref.questionId,
      model,
      temperature: undefined,
      history,
      messages: rest,
    };
    const text = renderPmDraft(draft, source.name, found.q.personaId);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  }
  await showDraft(uri);
}

/** The 1-based line of a header key in a draft, for a located message. */
const headerLine = (text: string, key: string) =>
  Math.max(1, text.split('\n').findIndex((l) => l.trim().startsWith(`${key}:`)) + 1);

/** Ctrl+Enter in a PersonaMem draft: its messages, exactly as written, after the history, as a new attempt. */
export async function sendPmDraft(deps: PmRerunDeps, doc: vscode.TextDocument, d: PmDraft): Promise<void> {
  const name = vscode.workspace.asRelativePath(doc.uri);
  const text = doc.getText();
  const ref = { split: d.split, questionId: d.questionId };
  const q = deps.store.question(d.split, d.questionId);
  if (!q) {
    void vscode.window.showErrorMessage(
      `Persona Lab: ${name}:${headerLine(text, 'question')}: ${keyOf(ref)} is not in the loaded PersonaMem benchmark.`,
    );
    return;
  }
  const found = questionOf(deps, ref);
  if (!found) return;
  if (d.history > found.history.length) {
    void vscode.window.showErrorMessage(
      `Persona Lab: ${name}:${headerLine(text, 'history')}: history: ${d.history} is more than the ${found.history.length} messages this question's model saw.`,
    );
    return;
  }
  const target = await draftTarget(doc, deps.endpoint, d.model);
  if (!target) return;
  const source = await chosenSource(deps);
  deps.panel.show(ref);
  await attempt(deps, {
    ref,
    ...found,
    target,
    source,
    messages: draftRequest(d, found.history),
    kept: d.history,
    temperature: d.temperature,
    draft: name.split('/').pop() ?? name,
  });
}

/** An attempt's request or reply, opened read-only beside the question view. */
export async function openAttemptDocument(
  deps: PmRerunDeps,
  ref: QuestionRef,
  id: number,
  which: 'request' | 'reply',
): Promise<void> {
  const a = deps.attempts
    .get()
    ?.list(ref.split, ref.questionId)
    .find((x) => x.id === id);
  if (!a) {
    void vscode.window.showWarningMessage(`Persona Lab: attempt #${id} is not an attempt of ${keyOf(ref)}.`);
    return;
  }
  const doc = await vscode.workspace.openTextDocument({
    content: which === 'request' ? pmAttemptRequestText(a) : pmAttemptReplyText(a),
    language: 'plaintext',
  });
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
}
