// Labels on PersonaMem questions. A label goes on one question of one run (run '' when no run of its split is
// selected: a label about the data). Its key follows the other formats' step columns: `platform` is the split
// ("32k"), `userId` the persona, `stepId` the question's place among that persona's questions of the split in the
// file's order (0-based, what the tree lists and [ ] walk). The content hash covers the question's id and text, so a
// label whose question moved or changed reads stale, and one whose place is gone reads missing.
import type { LabelRow, StepRef } from '../labels/model';
import { piLeakLabel, type FormatLabelSet, type LabelDef } from '../labels/labelDefs';
import type { Freshness } from '../labels/staleness';
import { findAround } from '../labels/walk';
import type { PersonaMemBench, PmQuestion } from './types';
import { personaIds } from './view';
import { crypto } from '../io/builtins';

/** Where a label on a question is kept, the benchmark and run aside. */
export interface PmLabelUnit {
  split: string;
  personaId: string;
  /** the question's 0-based place among its persona's questions of the split */
  index: number;
}

/** The failure modes of a PersonaMem answer, after what the benchmark asks a model to do with a long history. */
export const DEFAULT_QUESTION_LABELS: readonly LabelDef[] = [
  {
    id: 'preference-not-recalled',
    name: 'Preference not recalled',
    description: 'The pick ignores a preference the user stated in the history.',
    key: '1',
    scope: 'step',
  },
  {
    id: 'outdated-preference',
    name: 'Outdated preference used',
    description: 'The pick follows a preference the user has since changed.',
    key: '2',
    scope: 'step',
  },
  {
    id: 'evidence-ignored',
    name: 'Evidence ignored',
    description: 'What decides the answer is in the history the model saw; the response does not use it.',
    key: '3',
    scope: 'step',
  },
  {
    id: 'wrong-despite-evidence',
    name: 'Wrong option despite evidence',
    description: 'The response cites the right part of the history, then picks another option.',
    key: '4',
    scope: 'step',
  },
  {
    id: 'generic-pick',
    name: 'Generic pick',
    description: 'Picked the option that would suit anyone rather than this user.',
    key: '5',
    scope: 'step',
  },
  {
    id: 'reason-misread',
    name: 'Update reason misread',
    description: 'Misreads why the user changed a preference.',
    key: '6',
    scope: 'step',
  },
  {
    id: 'evidence-not-seen',
    name: 'Evidence not in view',
    description: 'What decides the answer lies past the end index: the model could not have seen it.',
    key: '7',
    scope: 'step',
  },
  {
    id: 'format-error',
    name: 'Format error',
    description: 'No single option letter can be read from the response.',
    key: '8',
    scope: 'step',
  },
  piLeakLabel('step'),
  {
    id: 'bad-ground-truth',
    name: 'Bad ground truth',
    description: 'The question, its options or its correct answer is itself wrong.',
    key: '0',
    scope: 'step',
  },
];

/** PersonaMem's label set: `questionLabels` in labels.json, else the defaults above. */
export const QUESTION_LABEL_SET: FormatLabelSet = { key: 'questionLabels', defaults: DEFAULT_QUESTION_LABELS };

interface SplitIndex {
  byPersona: Map<string, PmQuestion[]>;
  units: Map<string, PmLabelUnit>;
}
const indexes = new WeakMap<PmQuestion[], SplitIndex>();

/** The split's questions by persona, each in the file's order, and each question's unit (built once per split). */
function splitIndex(bench: PersonaMemBench, split: string): SplitIndex | undefined {
  const questions = bench.splits.get(split)?.questions;
  if (!questions) return undefined;
  let index = indexes.get(questions);
  if (!index) {
    index = { byPersona: new Map(), units: new Map() };
    for (const q of questions) {
      const list = index.byPersona.get(q.personaId) ?? [];
      // a question id written twice keeps its first place, as a run's rows are read
      if (!index.units.has(q.questionId))
        index.units.set(q.questionId, { split, personaId: q.personaId, index: list.length });
      list.push(q);
      index.byPersona.set(q.personaId, list);
    }
    indexes.set(questions, index);
  }
  return index;
}

/** The label unit of a question; undefined when it is not in the loaded benchmark. */
export function questionUnit(bench: PersonaMemBench, split: string, questionId: string): PmLabelUnit | undefined {
  return splitIndex(bench, split)?.units.get(questionId);
}

/** The question a unit names now; undefined when the split, persona or place is gone. */
export function questionAt(bench: PersonaMemBench, unit: PmLabelUnit): PmQuestion | undefined {
  return splitIndex(bench, unit.split)?.byPersona.get(unit.personaId)?.[unit.index];
}

/** The store's columns of a unit in `run` of `benchmark`. */
export function questionStepRef(benchmark: string, unit: PmLabelUnit, run: string): StepRef {
  return { benchmark, platform: unit.split, userId: unit.personaId, stepId: unit.index, run };
}

/** The unit a stored row names. */
export function unitOfRow(row: Pick<StepRef, 'platform' | 'userId' | 'stepId'>): PmLabelUnit {
  return { split: row.platform, personaId: row.userId, index: row.stepId };
}

/** sha256 of what a label on the question judges: its id, text, options, answer and the history's end. */
export function questionHash(q: PmQuestion): string {
  const parts = [q.questionId, q.question, q.optionsText, q.correctAnswer, q.contextId, String(q.endIndex ?? '')];
  return crypto().createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** Each row of `benchmark` against the questions as loaded now (rows of other benchmarks are left out). */
export function questionFreshness(
  bench: PersonaMemBench,
  benchmark: string,
  rows: readonly LabelRow[],
): Map<LabelRow, Freshness> {
  const out = new Map<LabelRow, Freshness>();
  for (const r of rows) {
    if (r.benchmark !== benchmark) continue;
    const q = r.target.kind === 'step' ? questionAt(bench, unitOfRow(r)) : undefined;
    if (!q) out.set(r, 'missing');
    else if (!r.contentHash) out.set(r, 'unknown');
    else out.set(r, r.contentHash === questionHash(q) ? 'fresh' : 'stale');
  }
  return out;
}

/** Every question in the tree's order: split by split, personas (reversed when `descending`), then the file's. */
export function questionOrder(bench: PersonaMemBench, descending = false): PmQuestion[] {
  return [...bench.splits.keys()].flatMap((split) => {
    const ids = personaIds(bench, split);
    if (descending) ids.reverse();
    const index = splitIndex(bench, split);
    return ids.flatMap((id) => index?.byPersona.get(id) ?? []);
  });
}

/** A printable key of a unit, for sets of labelled ones. */
export const unitKey = (u: PmLabelUnit): string => JSON.stringify([u.split, u.personaId, u.index]);

/**
 * The next question after `from` (going round once) whose unit is not in `labelled` (unitKey of each labelled one);
 * `from` itself comes last, so it is returned only when it is the one left.
 */
export function nextUnlabelledQuestion(
  bench: PersonaMemBench,
  order: readonly PmQuestion[],
  from: { split: string; questionId: string },
  labelled: ReadonlySet<string>,
): PmQuestion | undefined {
  const start = order.findIndex((q) => q.split === from.split && q.questionId === from.questionId);
  return findAround(
    order,
    start,
    1,
    (q) => {
      const unit = questionUnit(bench, q.split, q.questionId);
      return unit !== undefined && !labelled.has(unitKey(unit));
    },
    true,
  );
}
