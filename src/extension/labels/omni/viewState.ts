// Builds the trace view's labels bar state from the store's rows of one test action, their staleness and the label
// set. No `vscode` import, so it is unit-tested.
import type { LabelRow } from '../../../core/labels/model';
import type { LabelDef } from '../../../core/labels/taxonomy';
import type { TraceStaleness } from '../../../core/labels/trace';
import type { LabelFlash, LabelStaleness } from '../../../core/labels/view';
import type { LabelledHistoryItem, TraceLabelState, TraceRef } from '../../../shared/traceProtocol';
import { appliedLabel, labelChoices } from '../viewRows';

export interface TraceLabelInput {
  ref: TraceRef;
  run: string;
  author: string;
  labels: readonly LabelDef[];
  /** Every row on this test action and run, all authors (only the author's are shown). */
  rows: readonly LabelRow[];
  freshness: ReadonlyMap<LabelRow, TraceStaleness>;
  canUndo: boolean;
  error: string | null;
  labelSetNote: string | null;
  flash: LabelFlash | null;
}

/** 'missing' (the record is gone) shows as stale: the label no longer describes what is there. */
function shown(s: TraceStaleness | undefined): LabelStaleness {
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
    ref: { userId: input.ref.userId, index: input.ref.index },
    run: input.run,
    author: input.author,
    labels: labelChoices(input.labels),
    applied,
    history: [...byIndex.values()].sort((a, b) => a.index - b.index),
    canUndo: input.canUndo,
    error: input.error,
    labelSetNote: input.labelSetNote,
    flash: input.flash,
  };
}
