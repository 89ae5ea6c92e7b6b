// The parts of a labels bar's state that the step view and the trace view build alike from the label set and the
// store's rows. No `vscode` import, so it is unit-tested with both views' states.
import type { LabelRow } from '../../core/labels/model';
import { labelDef, type LabelDef } from '../../core/labels/taxonomy';
import type { AppliedLabel, LabelFlash, LabelServerLine, LabelStaleness } from '../../core/labels/view';

/** The label set as the bar lists it. */
export function labelChoices(labels: readonly LabelDef[]) {
  return labels.map((l) => ({
    id: l.id,
    name: l.name,
    description: l.description,
    key: l.key ?? null,
    scope: l.scope,
    guide: l.guide ?? null,
  }));
}

export function appliedLabel(
  labels: readonly LabelDef[],
  r: LabelRow,
  staleness: LabelStaleness,
  excerpt: string,
  changed: string[] | null = null,
): AppliedLabel {
  const def = labelDef(labels, r.label);
  return {
    labelId: r.label,
    name: def.name,
    known: !def.unknown,
    target: r.target,
    note: r.note,
    staleness,
    changed: staleness === 'stale' ? changed : null,
    createdAt: r.createdAt,
    excerpt,
  };
}

/** What every item view's bar state is built from beside its rows (the label set, the service's and the bar's state). */
export interface BarInput {
  author: string;
  labels: readonly LabelDef[];
  canUndo: boolean;
  error: string | null;
  labelSetNote: string | null;
  flash: LabelFlash | null;
  server?: LabelServerLine | null;
  project?: string | null;
}

/** The fields of a bar's state that come from BarInput as they are. */
export function barFields(input: BarInput) {
  return {
    author: input.author,
    labels: labelChoices(input.labels),
    canUndo: input.canUndo,
    error: input.error,
    labelSetNote: input.labelSetNote,
    flash: input.flash,
    server: input.server ?? null,
    project: input.project ?? null,
  };
}
