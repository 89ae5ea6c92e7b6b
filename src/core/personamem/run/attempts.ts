// Attempts of PersonaMem questions made in the workbench (Re-run, an edited prompt): kept in one append-only file per
// benchmark, .personalab/personamem-attempts.jsonl (crash-safe, runner/appendLog.ts). Each keeps exactly what was
// sent (the history's first messages by count, which are the stored ones unchanged, and every message after them),
// what came back, and the reply as the core reads an answer (answer.ts): the letter picked and right or wrong against
// the question's correct option.
import { isRecord } from '../../guards';
import { AttemptLog } from '../../rerun/attemptLog';
import type { ChatMessage } from '../../runner/client';
import { readAnswer } from '../answer';
import type { PmQuestion } from '../types';
import { letterOf } from '../view';
import type { PmAsked } from './ask';

export const PM_ATTEMPTS_FILE = 'personamem-attempts.jsonl';

export interface PmAttempt {
  id: number;
  /** ISO time */
  at: string;
  split: string;
  questionId: string;
  /** the run selected when it was made */
  baseRun: string | null;
  source: { kind: 'template' | 'reference' | 'draft'; name: string; id: string };
  model: string;
  baseURL: string;
  /** the request was a hand-edited draft */
  edited: boolean;
  /** the history's first `history` messages went first, as stored */
  history: number;
  /** every message after them, exactly as sent */
  sent: ChatMessage[];
  params: Record<string, unknown>;
  /** the reply as received; null when none came */
  reply: string | null;
  error: string | null;
  /** the source's reading (the authors' extract_answer through a checkout, else answer.ts) */
  score: boolean | null;
  predicted: string | null;
  /** the PI guard masked the request before sending */
  masked?: boolean;
}

export type PmAttemptVerdict = 'right' | 'wrong' | 'invalid' | 'failed';

/** One attempt as the question view lists it. */
export interface PmAttemptView {
  id: number;
  at: string;
  /** source · model at host (· PI masked) */
  label: string;
  edited: boolean;
  history: number;
  sent: { role: string; content: string }[];
  reply: string | null;
  error: string | null;
  /** the one letter the reply names, as answer.ts reads it */
  pick: string | null;
  correctLetter: string;
  verdict: PmAttemptVerdict;
}

/** What a finished ask becomes (without its id and time). */
export function pmAttemptRecord(
  q: PmQuestion,
  asked: PmAsked,
  history: number,
  meta: Pick<PmAttempt, 'baseRun' | 'source' | 'model' | 'baseURL' | 'edited'> & { masked?: boolean },
): Omit<PmAttempt, 'id' | 'at'> {
  const { outcome, reading, request } = asked;
  const { masked, ...rest } = meta;
  const replied = outcome.ok && !outcome.aborted;
  return {
    split: q.split,
    questionId: q.questionId,
    ...rest,
    ...(masked ? { masked: true } : {}),
    history,
    sent: request.messages.slice(history).map((m) => ({ role: m.role, content: m.content })),
    params: request.params,
    reply: replied ? outcome.raw : outcome.lastRaw || null,
    error: replied ? null : outcome.error || 'no reply',
    score: reading ? reading.score : null,
    predicted: reading ? reading.predicted : null,
  };
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

export function pmAttemptView(a: PmAttempt, correctAnswer: string): PmAttemptView {
  const read = a.reply !== null && a.error === null ? readAnswer(a.reply, correctAnswer) : undefined;
  const correctLetter = letterOf(correctAnswer) ?? correctAnswer.trim();
  const verdict: PmAttemptVerdict = !read
    ? 'failed'
    : (a.score ?? read.correct)
      ? 'right'
      : read.unreadable
        ? 'invalid'
        : 'wrong';
  return {
    id: a.id,
    at: a.at,
    label: `${a.source.name} · ${a.model} at ${hostOf(a.baseURL)}${a.masked ? ' · PI masked' : ''}`,
    edited: a.edited,
    history: a.history,
    sent: a.sent,
    reply: a.reply,
    error: a.error,
    pick: read?.pick ?? null,
    correctLetter,
    verdict,
  };
}

const isAttempt = (v: unknown): v is PmAttempt =>
  isRecord(v) &&
  Number.isInteger(v.id) &&
  typeof v.split === 'string' &&
  typeof v.questionId === 'string' &&
  Number.isInteger(v.history) &&
  Array.isArray(v.sent);

export class PmAttemptStore extends AttemptLog<PmAttempt> {
  static open(path: string): PmAttemptStore {
    return new PmAttemptStore(path, isAttempt);
  }

  /** The attempts of one question, newest first. */
  list(split: string, questionId: string): PmAttempt[] {
    return this.newestFirst((a) => a.split === split && a.questionId === questionId);
  }
}

/** "Open request": the request as sent, with what shaped it (the history by count: the question view lists it). */
export function pmAttemptRequestText(a: PmAttempt): string {
  return [
    `Persona Lab · request of attempt #${a.id} (PersonaMem ${a.split}/${a.questionId}) · ${a.at}`,
    `POST ${a.baseURL}/chat/completions · model: ${a.model} · parameters: ${JSON.stringify(a.params)}`,
    `request: ${a.source.name}${a.masked ? ' · PI masked before sending' : ''}`,
    `messages: the question's history, its first ${a.history} messages as stored (listed in the question view), then:`,
    ...a.sent.flatMap((m) => ['', `──────── ${m.role} ────────`, m.content]),
  ].join('\n');
}

/** "Open reply": the reply exactly as received, or why none came. */
export function pmAttemptReplyText(a: PmAttempt): string {
  return a.reply ?? `No reply came back.${a.error ? `\n\nError: ${a.error}` : ''}\n`;
}
