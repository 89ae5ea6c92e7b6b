// Builds the trace view's labels bar state from the store's rows of one test action, their staleness and the label
// set. No `vscode` import, so it is unit-tested.
import type { LabelRow } from '../../../../core/labels/model';
import type { Freshness } from '../../../../core/labels/staleness';
import type { LabelStaleness } from '../../../../core/labels/view';
import type {
  LabelledHistoryItem,
  TraceLabelState,
  TraceRef,
  TraceScoreState,
} from '../../../../shared/omni/traceProtocol';
import { utteranceHash, type ScoreRow } from '../../../../core/labels/scores';
import { utteranceAt, utteranceText } from '../../../../core/omni/judgeAgreement';
import { JUDGE_DIMENSIONS, type OmniRun } from '../../../../core/omni/types';
import { appliedLabel, barFields, type BarInput } from '../../../labels/viewRows';

export interface TraceLabelInput extends BarInput {
  ref: TraceRef;
  run: string;
  /** Every row on this test action and run, all authors (only the author's are shown). */
  rows: readonly LabelRow[];
  freshness: ReadonlyMap<LabelRow, Freshness>;
  /** The selected run's utterance to score, with this author's scores of it (see buildScoreState). */
  scores: TraceScoreState | null;
}

/** 'missing' (the record is gone) shows as stale: the label no longer describes what is there. */
function shown(s: Freshness | undefined): LabelStaleness {
  return s === 'missing' ? 'stale' : (s ?? 'unknown');
}

export function buildTraceLabelState(input: TraceLabelInput): TraceLabelState {
  const mine = input.rows.filter(
    (r) => r.author === input.author && (r.target.kind === 'action' || r.target.kind === 'history'),
  );
  // A trace label's hash covers its one target, so a stale one's target is what changed.
  const applied = mine.map((r) =>
    appliedLabel(input.labels, r, shown(input.freshness.get(r)), '', [
      r.target.kind === 'history' ? 'history record' : 'test action',
    ]),
  );
  const byIndex = new Map<number, LabelledHistoryItem>();
  for (const a of applied) {
    if (a.target.kind !== 'history') continue;
    const item = byIndex.get(a.target.historyIndex) ?? { index: a.target.historyIndex, names: [], stale: false };
    item.names.push(a.name);
    item.stale ||= a.staleness === 'stale';
    byIndex.set(item.index, item);
  }
  return {
    ...barFields(input),
    ref: { userId: input.ref.userId, index: input.ref.index },
    run: input.run,
    applied,
    history: [...byIndex.values()].sort((a, b) => a.index - b.index),
    scores: input.scores,
  };
}

/**
 * The utterance people can score at `ref` in `run` (its predicted next_user_message, when not empty), the judge's
 * four scores of it and this author's (`mine`: their score rows of this test action and run); null when there is none.
 */
export function buildScoreState(
  run: OmniRun | undefined,
  ref: TraceRef,
  mine: readonly ScoreRow[],
): TraceScoreState | null {
  const q = run && utteranceAt(run, ref.userId, ref.index);
  const utterance = utteranceText(q);
  if (!run || !q || utterance.trim() === '') return null;
  const hash = utteranceHash(utterance);
  return {
    run: run.name,
    utterance,
    judgeModel: q.judgeModel ?? null,
    dimensions: JUDGE_DIMENSIONS.map((dimension) => {
      const own = mine.find((r) => r.dimension === dimension && r.userId === ref.userId && r.index === ref.index);
      return {
        dimension,
        judge: q.judgeScores?.[dimension] ?? null,
        mine: own?.score ?? null,
        stale: own !== undefined && own.contentHash !== '' && own.contentHash !== hash,
      };
    }),
  };
}
