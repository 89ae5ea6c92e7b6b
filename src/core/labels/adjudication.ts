// The adjudication pass: the units of a scope (a labelling project's items, or every unit of the label database)
// that more than one annotator did, each open (their labels differ, no decision), agreed (every annotator gave the
// same labels: settled unless the adjudicator opens it) or settled (an adjudicator decided), on the gold set's one
// rule (gold.ts). The pass walks the open ones; a decision takes one annotator's labels or labels set directly.
// Also the section a view shows on such a unit: each annotator's labels and notes side by side. Pure: the webview
// bundles read its types.
import { progressText, type PassProgress } from './passProgress';
import { goldSet, type Adjudication, type GoldUnit } from './gold';
import { stepKey, targetKey, type LabelRow, type StepRef } from './model';

export type PassState = 'open' | 'agreed' | 'settled';

export interface PassItem {
  /** stepKey of the unit. */
  key: string;
  ref: StepRef;
  state: PassState;
  unit: GoldUnit;
}

export { progressText, type PassProgress };

const STATE_OF: Record<GoldUnit['status'], PassState | null> = {
  adjudicated: 'settled',
  unanimous: 'agreed',
  open: 'open',
  single: null,
};

/** The pass's items in reading order: units with more than one annotator, within `scope` (stepKeys) when given. */
export function passItems(
  rows: readonly LabelRow[],
  adjudications: readonly Adjudication[],
  scope?: ReadonlySet<string>,
): PassItem[] {
  const out: PassItem[] = [];
  for (const unit of goldSet(rows, adjudications).units) {
    const state = STATE_OF[unit.status];
    const key = stepKey(unit.ref);
    if (state === null || unit.annotators.length < 2 || (scope && !scope.has(key))) continue;
    out.push({ key, ref: unit.ref, state, unit });
  }
  return out;
}

export function passProgress(items: readonly PassItem[]): PassProgress {
  const p: PassProgress = { settled: 0, agreed: 0, open: 0 };
  for (const i of items) p[i.state]++;
  return p;
}

/** The progress as one line: "2 settled · 5 agreed · 3 open of 10". */
/** The first open item after `afterKey` in reading order, wrapping round; undefined when none is open. */
export function nextOpen(items: readonly PassItem[], afterKey?: string): PassItem | undefined {
  const at = afterKey === undefined ? -1 : items.findIndex((i) => i.key === afterKey);
  for (let k = 1; k <= items.length; k++) {
    const item = items[(at + k + items.length) % items.length];
    if (item.state === 'open' && item.key !== afterKey) return item;
  }
  return undefined;
}

/** The labels of the `n`th annotator (1-based, in the section's order: by name) of `unit`; undefined past the last. */
export function annotatorLabels(unit: GoldUnit, n: number): string[] | undefined {
  return Number.isInteger(n) && n >= 1 ? unit.annotators[n - 1]?.labels : undefined;
}

/** The decisions this pass made, newest last, for undo (each undo reverts the newest decision of its unit). */
export class DecisionTrail {
  private readonly refs: StepRef[] = [];

  push(ref: StepRef): void {
    this.refs.push({ ...ref });
  }

  pop(): StepRef | undefined {
    return this.refs.pop();
  }

  get size(): number {
    return this.refs.length;
  }
}

// ---- the section a view shows ----------------------------------------------------------------------------------

export interface AnnotatorColumn {
  /** The number key that takes these labels. */
  n: number;
  author: string;
  /** Label names, sorted by name; empty: this annotator's labels are all on parts of the unit that list none. */
  labels: string[];
  /** Each note this annotator left on the unit, with the label and where it sits. */
  notes: { label: string; where: string; note: string }[];
}

/** The adjudication section of one unit, as JSON-safe data (dataset text is shown as text only). */
export interface AdjudicationSection {
  /** stepKey of the unit: a decision names it, so a key pressed as the next unit arrives settles the one seen. */
  unit: string;
  /** The scope walked: "the Disagreements list", "project NAME". */
  scope: string;
  state: PassState;
  annotators: AnnotatorColumn[];
  /** The settled labels' names (agreed or decided); null while open. */
  gold: string[] | null;
  /** Who decided and when ("carol, 2026-12-07 00:12"), or null when not decided. */
  decidedBy: string | null;
  progress: PassProgress;
  canUndo: boolean;
}

/** The section of `item`; `rows` are the unit's label rows, `names` label id → name. */
export function adjudicationSection(
  item: PassItem,
  rows: readonly LabelRow[],
  names: ReadonlyMap<string, string>,
  context: { scope: string; progress: PassProgress; canUndo: boolean },
): AdjudicationSection {
  const name = (id: string) => names.get(id) ?? id;
  const byName = (a: string, b: string) => a.localeCompare(b);
  const u = item.unit;
  return {
    unit: item.key,
    scope: context.scope,
    state: item.state,
    annotators: u.annotators.map((a, i) => ({
      n: i + 1,
      author: a.author,
      labels: a.labels.map(name).sort(byName),
      notes: rows
        .filter((r) => r.author === a.author && r.note !== '')
        .map((r) => ({ label: name(r.label), where: targetKey(r.target), note: r.note })),
    })),
    gold: u.gold === null ? null : u.gold.map(name).sort(byName),
    decidedBy: u.adjudicator ? `${u.adjudicator}, ${(u.adjudicatedAt ?? '').slice(0, 16).replace('T', ' ')}` : null,
    progress: context.progress,
    canUndo: context.canUndo,
  };
}
