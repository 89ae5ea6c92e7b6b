// Builds the question view's labels bar state from the store's rows on one question, their freshness and the label
// set. No `vscode` import, so it is unit-tested.
import type { LabelRow } from '../../../../core/labels/model';
import type { LabelDef } from '../../../../core/labels/taxonomy';
import type { TraceStaleness } from '../../../../core/labels/trace';
import type { LabelFlash, LabelServerLine, LabelStaleness } from '../../../../core/labels/view';
import type { QuestionLabelState } from '../../../../shared/personamem/labelProtocol';
import type { QuestionRef } from '../../../../shared/personamem/questionProtocol';
import { appliedLabel, labelChoices } from '../../../labels/viewRows';

export interface QuestionLabelInput {
  ref: QuestionRef;
  run: string;
  author: string;
  labels: readonly LabelDef[];
  /** Every row on this question and run, all authors (only the author's are shown). */
  rows: readonly LabelRow[];
  freshness: ReadonlyMap<LabelRow, TraceStaleness>;
  canUndo: boolean;
  error: string | null;
  labelSetNote: string | null;
  flash: LabelFlash | null;
  server?: LabelServerLine | null;
  project?: string | null;
}

/** 'missing' cannot be the question shown; it reads as stale like any label whose question changed. */
function shown(s: TraceStaleness | undefined): LabelStaleness {
  return s === 'missing' ? 'stale' : (s ?? 'unknown');
}

export function buildQuestionLabelState(input: QuestionLabelInput): QuestionLabelState {
  const mine = input.rows.filter((r) => r.author === input.author && r.target.kind === 'step');
  return {
    ref: { split: input.ref.split, questionId: input.ref.questionId },
    run: input.run,
    author: input.author,
    labels: labelChoices(input.labels),
    applied: mine.map((r) => appliedLabel(input.labels, r, shown(input.freshness.get(r)), '', ['question'])),
    canUndo: input.canUndo,
    error: input.error,
    labelSetNote: input.labelSetNote,
    flash: input.flash,
    server: input.server ?? null,
    project: input.project ?? null,
  };
}
