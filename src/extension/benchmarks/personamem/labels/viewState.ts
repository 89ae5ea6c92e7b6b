// Builds the question view's labels bar state from the store's rows on one question, their freshness and the label
// set. No `vscode` import, so it is unit-tested.
import type { LabelRow } from '../../../../core/labels/model';
import type { Freshness } from '../../../../core/labels/staleness';
import type { LabelStaleness } from '../../../../core/labels/view';
import type { QuestionLabelState } from '../../../../shared/personamem/labelProtocol';
import type { QuestionRef } from '../../../../shared/personamem/questionProtocol';
import { appliedLabel, barFields, type BarInput } from '../../../labels/viewRows';

export interface QuestionLabelInput extends BarInput {
  ref: QuestionRef;
  run: string;
  /** Every row on this question and run, all authors (only the author's are shown). */
  rows: readonly LabelRow[];
  freshness: ReadonlyMap<LabelRow, Freshness>;
}

/** 'missing' cannot be the question shown; it reads as stale like any label whose question changed. */
function shown(s: Freshness | undefined): LabelStaleness {
  return s === 'missing' ? 'stale' : (s ?? 'unknown');
}

export function buildQuestionLabelState(input: QuestionLabelInput): QuestionLabelState {
  const mine = input.rows.filter((r) => r.author === input.author && r.target.kind === 'step');
  return {
    ...barFields(input),
    ref: { split: input.ref.split, questionId: input.ref.questionId },
    run: input.run,
    applied: mine.map((r) => appliedLabel(input.labels, r, shown(input.freshness.get(r)), '', ['question'])),
  };
}
