// Builds the labels bar's state for one step from the store's rows, the label set and the suggestions. No `vscode`
// import, so it is unit-tested.
import { changedParts, stepStaleness, type StepHash } from '../../../../core/spb/labels/hash';
import type { LabelRow } from '../../../../core/labels/model';
import type { Suggestion } from '../../../../core/spb/labels/suggest';
import { labelDef, type LabelDef } from '../../../../core/labels/taxonomy';
import { spanText, type LabelFlash, type LabelServerLine, type LabelViewState } from '../../../../core/labels/view';
import type { StepLocation } from '../../../../core/spb/view/stepModel';
import { appliedLabel, labelChoices } from '../../../labels/viewRows';

export interface LabelViewInput {
  ref: StepLocation;
  run: string;
  author: string;
  labels: readonly LabelDef[];
  /** Every row on this step and run, all authors. */
  rows: readonly LabelRow[];
  /** The step's hashes now (undefined when they could not be computed: nothing is then marked stale). */
  currentHash: StepHash | undefined;
  /** The persona this run wrote at the step, for span excerpts. */
  persona: string;
  suggestions: readonly Suggestion[];
  canUndo: boolean;
  error?: string | null;
  labelSetNote?: string | null;
  flash?: LabelFlash | null;
  server?: LabelServerLine | null;
  project?: string | null;
}

export function buildLabelView(input: LabelViewInput): LabelViewState<StepLocation> {
  const mine = input.rows.filter((r) => r.author === input.author);
  const others = input.rows.filter((r) => r.author !== input.author);
  const stepLevel = new Set(mine.filter((r) => r.target.kind === 'step').map((r) => r.label));
  return {
    ref: { ...input.ref },
    run: input.run,
    author: input.author,
    labels: labelChoices(input.labels),
    applied: mine.map((r) =>
      appliedLabel(
        input.labels,
        r,
        input.currentHash ? stepStaleness(r, input.currentHash) : 'unknown',
        r.target.kind === 'span' ? spanText(input.persona, r.target.start, r.target.end) : '',
        input.currentHash ? (changedParts(r, input.currentHash) ?? null) : null,
      ),
    ),
    // A suggestion is settled once the label is on the whole step (a tag-level label of the same id does not count:
    // the suggestion is about the step).
    suggestions: input.suggestions
      .filter((s) => !stepLevel.has(s.labelId))
      .map((s) => {
        const def = labelDef(input.labels, s.labelId);
        return { labelId: s.labelId, name: def.name, key: def.key ?? null, reason: s.reason, tags: [...s.tags] };
      }),
    others: others.map((r) => ({ author: r.author, labelId: r.label, name: labelDef(input.labels, r.label).name })),
    canUndo: input.canUndo,
    error: input.error ?? null,
    labelSetNote: input.labelSetNote ?? null,
    flash: input.flash ?? null,
    server: input.server ?? null,
    project: input.project ?? null,
  };
}
