// What the question view and the Benchmarks tree show of a PersonaMem question: its verdict in a run, its options
// with the model's pick and the right one, and the history the model saw (`context[:end]`) as rows with their
// sessions. Pure: the history's messages come in as an argument, read by the caller from the contexts index.
import type { PmMessage } from './contexts';
import type { PmRunScore } from './score';
import { SKILL_HEADS, type PersonaMemBench, type PmQuestion, type PmResultRow, type PmRun } from './types';

/** right / wrong by the authors' reading; invalid: no single letter read (their code scores it wrong). */
export type PmVerdict = 'right' | 'wrong' | 'invalid' | 'unanswered';

export interface PmQuestionRef {
  split: string;
  questionId: string;
}

export interface PmOptionRow {
  letter: string;
  text: string;
  correct: boolean;
  picked: boolean;
}

export interface PmQuestionModel {
  ref: PmQuestionRef;
  personaId: string;
  /** the question_type as the file spells it, and the skill it maps to with its short head */
  questionType: string;
  skill: string;
  skillHead: string;
  topic: string;
  question: string;
  /** parsed options; empty when the cell does not parse (then `optionsText` is all there is) */
  options: PmOptionRow[];
  optionsText: string;
  correctLetter: string | null;
  pick: string | null;
  verdict: PmVerdict;
  /** the run shown (null: none selected, or the selected run answers another split) */
  run: string | null;
  /** the model's whole response, or null without one */
  response: string | null;
  /** messages the model saw (the end index), of the context's `total` */
  seen: number;
  total: number;
  /** sessions that open before the end index */
  sessions: number;
  contextTokens: number | null;
  distanceBlocks: number | null;
  /** this question's place among its persona's (1-based), and their count */
  position: number;
  count: number;
  /** why the history cannot be shown ('' when it can) */
  historyProblem: string;
}

export interface PmHistoryRow {
  /** position in the context */
  index: number;
  role: string;
  /** 1-based session the message is in */
  session: number;
  /** the message opens its session */
  opens: boolean;
  /** the first characters of the message, on one line */
  summary: string;
}

const SUMMARY_CHARS = 240;

/** The 1-based session holding message `i`, given the sorted indices where sessions open. */
export function sessionOf(starts: readonly number[], i: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid] <= i) lo = mid + 1;
    else hi = mid;
  }
  return Math.max(1, lo);
}

/** Rows [from, to) of the history, from the messages read for that window (`messages[0]` is message `from`). */
export function historyRows(
  messages: readonly PmMessage[],
  from: number,
  starts: readonly number[],
  startSet: ReadonlySet<number> = new Set(starts),
): PmHistoryRow[] {
  return messages.map((m, k) => {
    const index = from + k;
    const flat = m.content.replace(/\s+/g, ' ').trim();
    return {
      index,
      role: m.role,
      session: sessionOf(starts, index),
      opens: startSet.has(index),
      summary: flat.length > SUMMARY_CHARS ? `${flat.slice(0, SUMMARY_CHARS)}…` : flat,
    };
  });
}

/** A persona's questions of a split, in the file's order (the tree's, and what [ and ] walk). */
export function personaQuestions(bench: PersonaMemBench, split: string, personaId: string): PmQuestion[] {
  return (bench.splits.get(split)?.questions ?? []).filter((q) => q.personaId === personaId);
}

/** The split's persona ids, numbers in numeric order. */
export function personaIds(bench: PersonaMemBench, split: string): string[] {
  const ids = new Set((bench.splits.get(split)?.questions ?? []).map((q) => q.personaId));
  return [...ids].sort((a, b) => {
    const [x, y] = [Number(a), Number(b)];
    return Number.isFinite(x) && Number.isFinite(y) && x !== y ? x - y : a < b ? -1 : a > b ? 1 : 0;
  });
}

const rowIndex = new WeakMap<PmRun, Map<string, PmResultRow>>();
/** The run's first row for a question (the one its score counts per question). */
export function runRow(run: PmRun, questionId: string): PmResultRow | undefined {
  let m = rowIndex.get(run);
  if (!m) {
    m = new Map();
    for (const r of run.rows) if (!m.has(r.questionId)) m.set(r.questionId, r);
    rowIndex.set(run, m);
  }
  return m.get(questionId);
}

/** A question's verdict in a run's score (undefined score: no run for its split). */
export function questionVerdict(score: PmRunScore | undefined, run: PmRun | undefined, questionId: string): PmVerdict {
  const got = score?.perQuestion.get(questionId);
  if (!got || !run) return 'unanswered';
  if (got.correct) return 'right';
  // a row scored from its stored `score` alone has no response to read a letter from: wrong, not unreadable
  return got.pick === undefined && runRow(run, questionId)?.modelResponse !== undefined ? 'invalid' : 'wrong';
}

/** right / wrong / invalid counts and the share right among answered questions. */
export function verdictCounts(verdicts: readonly PmVerdict[]) {
  const right = verdicts.filter((v) => v === 'right').length;
  const answered = verdicts.filter((v) => v !== 'unanswered').length;
  return { right, answered, invalid: verdicts.filter((v) => v === 'invalid').length, total: verdicts.length };
}

/** The letter of an option or of the correct_answer cell, "(c) …" -> "c". */
export const letterOf = (s: string) => /^\s*\(([a-z])\)/i.exec(s)?.[1].toLowerCase();

/**
 * The question view's model of `q`. `run` and `score`: the selected run when it answers q's split, else undefined.
 */
export function buildQuestionModel(
  bench: PersonaMemBench,
  q: PmQuestion,
  run: PmRun | undefined,
  score: PmRunScore | undefined,
): PmQuestionModel {
  const same = run && score && run.split === q.split ? { run, score } : undefined;
  const correctLetter = letterOf(q.correctAnswer) ?? null;
  const pick = same?.score.perQuestion.get(q.questionId)?.pick ?? null;
  const options = (q.options ?? []).map((text) => {
    const letter = letterOf(text) ?? '';
    return {
      letter,
      text: text.replace(/^\s*\([a-z]\)\s*/i, ''),
      correct: letter !== '' && letter === correctLetter,
      picked: letter !== '' && letter === pick,
    };
  });
  const ctx = bench.splits.get(q.split)?.contexts.get(q.contextId);
  const total = ctx?.messages ?? 0;
  const seen = Math.min(q.endIndex ?? 0, total);
  const siblings = personaQuestions(bench, q.split, q.personaId);
  const historyProblem = !ctx
    ? `The shared context ${q.contextId || '(empty)'} is not in the ${q.split} split's contexts file.`
    : q.endIndex === undefined
      ? 'The question has no end index into its context.'
      : q.endIndex > total
        ? `The end index ${q.endIndex} is past the context's ${total} messages; the view shows them all.`
        : '';
  return {
    ref: { split: q.split, questionId: q.questionId },
    personaId: q.personaId,
    questionType: q.questionType,
    skill: q.skill,
    skillHead: SKILL_HEADS[q.skill] ?? q.skill,
    topic: q.topic,
    question: q.question,
    options,
    optionsText: q.optionsText,
    correctLetter,
    pick,
    verdict: same ? questionVerdict(same.score, same.run, q.questionId) : 'unanswered',
    run: same?.run.name ?? null,
    response: (same && runRow(same.run, q.questionId)?.modelResponse) ?? null,
    seen,
    total,
    sessions: ctx ? ctx.sessionStarts.filter((s) => s < seen).length : 0,
    contextTokens: q.contextTokens ?? null,
    distanceBlocks: q.distanceBlocks ?? null,
    position: siblings.findIndex((x) => x.questionId === q.questionId) + 1,
    count: siblings.length,
    historyProblem,
  };
}
