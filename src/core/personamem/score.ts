// A run's figures as the authors' code makes them: each row of their results CSV is right or wrong by their answer
// reading (answer.ts), and accuracy is the share of right rows among the rows the file holds (a question whose
// request failed was never written, so it is in no denominator). Broken down by skill, topic and the evidence's
// distance; coverage says which part of the split the run answers.
import { CoverageKey, type Coverage } from '../coverage';
import type { Diagnostic } from '../io/diagnostics';
import { readAnswer } from './answer';
import { skillOf, SKILLS, type PersonaMemBench, type PmQuestion, type PmRun } from './types';

export interface Tally {
  answered: number;
  correct: number;
  /** correct / answered; null when nothing was answered */
  accuracy: number | null;
}

export interface PmRunScore {
  name: string;
  split: string;
  model: string;
  overall: Tally;
  /** skill → tally, with the spellings the files used for it */
  byType: Map<string, Tally & { spellings: string[] }>;
  byTopic: Map<string, Tally>;
  /** sessions between the evidence and the question → tally; null when the split's questions do not say */
  byDistanceBlocks: Map<number, Tally> | null;
  /** rows where neither the tagged text nor the whole response names exactly one letter (scored wrong) */
  unreadable: number;
  coverage: Coverage;
  /** per question answered: right or wrong, and the letter read (for views and the tree) */
  perQuestion: Map<string, { correct: boolean; pick: string | undefined }>;
}

const tally = (): Tally => ({ answered: 0, correct: 0, accuracy: null });
function add(t: Tally, correct: boolean): void {
  t.answered++;
  if (correct) t.correct++;
  t.accuracy = t.correct / t.answered;
}

const questionIndex = new WeakMap<object, Map<string, PmQuestion>>();
/** The split's questions by id (built once per split). */
export function questionsById(bench: PersonaMemBench, split: string): Map<string, PmQuestion> {
  const s = bench.splits.get(split);
  if (!s) return new Map();
  let m = questionIndex.get(s);
  if (!m) {
    m = new Map(s.questions.map((q) => [q.questionId, q]));
    questionIndex.set(s, m);
  }
  return m;
}

/** Whether a row is right: by the authors' reading of model_response, or the written score when there is none. */
function rowCorrect(row: PmRun['rows'][number]) {
  if (row.modelResponse === undefined)
    return { correct: row.storedScore?.trim() === 'True', pick: undefined, unreadable: false };
  return readAnswer(row.modelResponse, row.correctAnswer);
}

export function scorePersonaMemRun(bench: PersonaMemBench, run: PmRun): PmRunScore {
  const questions = questionsById(bench, run.split);
  const overall = tally();
  const byType = new Map<string, Tally & { spellings: string[] }>();
  const byTopic = new Map<string, Tally>();
  const split = bench.splits.get(run.split);
  const hasDistance =
    split !== undefined && split.questions.length > 0 && split.questions.every((q) => q.distanceBlocks !== undefined);
  const byDistance = hasDistance ? new Map<number, Tally>() : null;
  const perQuestion: PmRunScore['perQuestion'] = new Map();
  const personas = new Set<string>();
  const key = new CoverageKey();
  let unreadable = 0;
  for (const row of run.rows) {
    const q = questions.get(row.questionId);
    const reading = rowCorrect(row);
    if (reading.unreadable) unreadable++;
    add(overall, reading.correct);
    const spelling = q?.questionType ?? row.questionType;
    const skill = q?.skill ?? skillOf(spelling) ?? spelling;
    const t = byType.get(skill) ?? { ...tally(), spellings: [] };
    if (!t.spellings.includes(spelling)) t.spellings.push(spelling);
    add(t, reading.correct);
    byType.set(skill, t);
    const topic = q?.topic ?? row.topic;
    const tt = byTopic.get(topic) ?? tally();
    add(tt, reading.correct);
    byTopic.set(topic, tt);
    if (byDistance && q?.distanceBlocks !== undefined) {
      const d = byDistance.get(q.distanceBlocks) ?? tally();
      add(d, reading.correct);
      byDistance.set(q.distanceBlocks, d);
    }
    if (q && !perQuestion.has(q.questionId)) {
      perQuestion.set(q.questionId, { correct: reading.correct, pick: reading.pick });
      personas.add(q.personaId);
      key.add(CoverageKey.of(q.questionId));
    }
  }
  const allPersonas = new Set(split?.questions.map((q) => q.personaId));
  const skillRank = (s: string) => {
    const i = (SKILLS as readonly string[]).indexOf(s);
    return i < 0 ? SKILLS.length : i;
  };
  const byName = <V>(m: Map<string, V>) => new Map([...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    name: run.name,
    split: run.split,
    model: run.model,
    overall,
    byType: new Map([...byType].sort(([a], [b]) => skillRank(a) - skillRank(b) || (a < b ? -1 : a > b ? 1 : 0))),
    byTopic: byName(byTopic),
    byDistanceBlocks: byDistance && new Map([...byDistance].sort(([a], [b]) => a - b)),
    unreadable,
    coverage: {
      users: { covered: personas.size, total: allPersonas.size },
      items: { covered: perQuestion.size, total: split?.questions.length ?? 0 },
      itemNoun: 'question',
      userNoun: 'persona',
      key: key.key,
    },
    perQuestion,
  };
}

/** What a run's rows say against the release: unknown questions, another gold answer, a score cell the reading contradicts. */
export function runDiagnostics(bench: PersonaMemBench, run: PmRun): Diagnostic[] {
  const questions = questionsById(bench, run.split);
  const file = run.file.startsWith(bench.root) ? run.file.slice(bench.root.length + 1) : run.file;
  const out: Diagnostic[] = [];
  const warn = (line: number, field: string, message: string) =>
    out.push({ severity: 'warning', file, line, field, message });
  const seen = new Map<string, number>();
  for (const row of run.rows) {
    const q = questions.get(row.questionId);
    if (!q)
      warn(
        row.line,
        'question_id',
        `${row.questionId || '(empty)'} is not a question of the ${run.split} split (scored from this row alone)`,
      );
    else if (q.correctAnswer.trim() !== row.correctAnswer.trim())
      warn(
        row.line,
        'correct_answer',
        `${row.correctAnswer} here, ${q.correctAnswer} in questions_${run.split}.csv (this row's is used, as the authors' code did)`,
      );
    const first = seen.get(row.questionId);
    if (first !== undefined)
      warn(
        row.line,
        'question_id',
        `answered again (first on line ${first}); both rows count, as in the authors' mean`,
      );
    else seen.set(row.questionId, row.line);
    if (row.modelResponse !== undefined && row.storedScore !== undefined && row.storedScore.trim() !== '') {
      const stored = row.storedScore.trim();
      const read = readAnswer(row.modelResponse, row.correctAnswer).correct ? 'True' : 'False';
      if (stored !== read)
        warn(row.line, 'score', `says ${stored}, the answer reading gives ${read} (the reading is used)`);
    }
  }
  return out;
}
