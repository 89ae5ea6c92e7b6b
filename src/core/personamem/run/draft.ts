// A PersonaMem prompt draft: one question's request as an editable .pldraft file (the drafts' extension and
// language, told apart by its `question:` header), sent as it stands by Ctrl+Enter:
//
//   # notes
//   question: 32k/<question id>
//   model: demo-model-not-an-llm
//   temperature: source
//   history: 12
//   === user ===
//   <the question turn, to the next marker or the end of the file>
//
// A request is the question's history, then the question. The history runs to a million tokens, so the draft holds
// only what follows the first `history:` messages of the request: those are the stored history's first messages,
// unchanged, sent as they are (the question view lists them). Each message is under its role's marker; a line of a
// message that reads like a marker is written with a backslash before it. `temperature: source` leaves it to the
// source's caller (the authors send none). Pure: no `vscode`.
import {
  DRAFT_DIR,
  DRAFT_EXT,
  readDraftHeader,
  readModelHeader,
  requireHeaders,
  type DraftProblem,
} from '../../rerun/draft';
import type { ChatMessage } from '../../runner/client';
import type { PmMessage } from '../contexts';
import { chatMessage } from './source';

export interface PmDraft {
  split: string;
  questionId: string;
  model: string;
  /** undefined: the source's */
  temperature: number | undefined;
  /** how many of the stored history's first messages are sent before `messages`, unchanged */
  history: number;
  messages: ChatMessage[];
}

export type PmDraftParse = { ok: true; draft: PmDraft } | { ok: false; problems: DraftProblem[] };

const MARKER_RE = /^=== (system|user|assistant) ===$/;
/** A message line that a reader would take for a marker: one more backslash is written before it. */
const ESCAPED_RE = /^\\*=== (system|user|assistant) ===$/;

const markerOf = (line: string) =>
  MARKER_RE.exec(line.replace(/\r$/, '').trim())?.[1] as ChatMessage['role'] | undefined;

/** Whether a draft's text is a PersonaMem one (its header names a question). */
export function isPmDraft(text: string): boolean {
  for (const line of text.split('\n')) {
    if (markerOf(line)) return false;
    if (/^question:/.test(line.trim())) return true;
  }
  return false;
}

/** One draft per run and question: an edit stays with its question. */
export function pmDraftPath(run: string | null, split: string, questionId: string): string {
  const safe = (t: string) => t.replace(/[^A-Za-z0-9._-]/g, '_');
  return `${DRAFT_DIR}/${safe(run ?? 'no-run')}/personamem/${safe(split)}-${safe(questionId)}${DRAFT_EXT}`;
}

/**
 * How many of the request's first messages are the history's, unchanged (what the draft leaves out), and the rest.
 * A source that rewrites the history (a provider branch that turns system turns into user turns) leaves more here.
 */
export function splitRequest(
  messages: readonly ChatMessage[],
  history: readonly PmMessage[],
): { history: number; rest: ChatMessage[] } {
  let k = 0;
  while (k < messages.length && k < history.length) {
    const h = chatMessage(history[k]);
    if (messages[k].role !== h.role || messages[k].content !== h.content) break;
    k++;
  }
  return { history: k, rest: messages.slice(k).map((m) => ({ role: m.role, content: m.content })) };
}

/** The request a draft sends: the history's first messages as stored, then the draft's. */
export function draftRequest(d: Pick<PmDraft, 'history' | 'messages'>, history: readonly PmMessage[]): ChatMessage[] {
  return [...history.slice(0, d.history).map(chatMessage), ...d.messages];
}

export function renderPmDraft(d: PmDraft, sourceName: string, persona: string): string {
  const body = d.messages.flatMap((m) => [
    `=== ${m.role} ===`,
    ...m.content.split('\n').map((l) => (ESCAPED_RE.test(l) ? `\\${l}` : l)),
  ]);
  return [
    `# Prompt draft of PersonaMem question ${d.questionId} (persona ${persona}, split ${d.split}),`,
    `# rendered by ${sourceName}.`,
    `# The request's first ${d.history} messages are the question's history, sent unchanged and not written here`,
    '# (the question view lists them). Edit anything below; Ctrl+Enter (or "Re-run" above) sends it exactly as',
    '# written as a new attempt of this question, shown in the question view. Lines starting with # up here are',
    '# notes and are not sent; this draft belongs to this question only.',
    `question: ${d.split}/${d.questionId}`,
    `model: ${d.model}`,
    `temperature: ${d.temperature ?? 'source'}`,
    `history: ${d.history}`,
    ...body,
  ].join('\n');
}

type Header = { split?: string; questionId?: string; model?: string; temperature?: number; history?: number };

function readHeaderLine(key: string, value: string, v: Header): string | null {
  const model = readModelHeader(key, value, v);
  if (model !== undefined) return model;
  if (key === 'question') {
    const q = /^([^/\s]+)\/(\S.*)$/.exec(value);
    if (!q) return `question: "${value}" is not <split>/<question id>`;
    [v.split, v.questionId] = [q[1], q[2]];
  } else if (key === 'history') {
    if (!/^\d+$/.test(value)) return `history: "${value}" is not a count of history messages`;
    v.history = Number(value);
  } else return `unknown header "${key}": use question, model, temperature or history`;
  return null;
}

/** Reads a draft; every problem has its line. Never throws. */
export function parsePmDraft(text: string): PmDraftParse {
  const lines = String(text).split('\n');
  const first = lines.findIndex((l) => markerOf(l) !== undefined);
  const v: Header = {};
  const problems = readDraftHeader(lines, first < 0 ? lines.length : first, (k, value) => readHeaderLine(k, value, v));
  requireHeaders(problems, [
    ['question', v.questionId !== undefined],
    ['model', v.model !== undefined],
    ['history', v.history !== undefined],
  ]);
  if (first < 0) problems.push({ line: lines.length, message: 'no "=== user ===" line: the messages are missing' });
  if (problems.length > 0) return { ok: false, problems };
  const messages: (ChatMessage & { line: number })[] = [];
  for (let i = first; i < lines.length; i++) {
    const role = markerOf(lines[i]);
    if (role) messages.push({ role, content: '', line: i + 1 });
    else {
      const m = messages[messages.length - 1];
      const line = ESCAPED_RE.test(lines[i]) ? lines[i].slice(1) : lines[i];
      m.content = m.line === i ? line : `${m.content}\n${line}`;
    }
  }
  const last = messages[messages.length - 1];
  if (last.content.trim() === '')
    return { ok: false, problems: [{ line: last.line, message: 'the last message is empty: nothing is asked' }] };
  return {
    ok: true,
    draft: {
      split: v.split!,
      questionId: v.questionId!,
      model: v.model!,
      temperature: v.temperature,
      history: v.history!,
      messages: messages.map((m) => ({ role: m.role, content: m.content })),
    },
  };
}
