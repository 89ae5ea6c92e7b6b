// The conflict table of Import Labels: one row per conflicting target (one author's labels on one step, tag, span,
// action or history record), both sides in full, and a decision per row that starts empty. Applying is refused while
// a row is undecided; nothing here writes (ImportSession.resolve does, in one transaction). Pure, so it is unit-tested
// and the webview gets plain values.
import type { ConflictDecision, ImportConflict } from './merge';
import { describeKey, type LabelTarget } from './model';

export const DECISION_TEXT: Record<ConflictDecision, { label: string; detail: string }> = {
  local: { label: 'Keep mine', detail: 'keep the labels and notes in your database; ignore the file’s' },
  incoming: { label: 'Take theirs', detail: 'replace your labels on this target by the file’s' },
  both: { label: 'Keep both', detail: 'add the file’s missing labels and join differing notes' },
};

/**
 * One label on one side. `status`: 'same' (the other side has it with this note), 'note' (the other side has it with
 * another note), 'only' (the other side lacks it).
 */
export interface ConflictSideLabel {
  label: string;
  name: string;
  note: string;
  status: 'same' | 'note' | 'only';
  /** The file's line (theirs only). */
  line?: number;
}

export interface ConflictTableRow {
  id: string;
  /** 1-based position in the table. */
  index: number;
  /** platform/user, step and run: "weibo/we_01 · step 3 · run demo-llm" */
  where: string;
  /** What in the step: "whole step", "tag #a#", "span persona 0–4", "history item 2". */
  target: string;
  author: string;
  /** The full key (benchmark included), for a tooltip. */
  title: string;
  mine: ConflictSideLabel[];
  theirs: ConflictSideLabel[];
  decision: ConflictDecision | null;
}

export type ApplyCheck =
  { ok: true; decisions: Map<string, ConflictDecision> } | { ok: false; message: string; undecided: string[] };

export function targetText(t: LabelTarget): string {
  switch (t.kind) {
    case 'step':
      return 'whole step';
    case 'action':
      return 'test action';
    case 'tag':
      return `tag ${t.tag}`;
    case 'span':
      return `span ${t.field} ${t.start}–${t.end}`;
    case 'history':
      return `history item ${t.historyIndex}`;
  }
}

/** The decisions of one import, all empty at first. */
export class ConflictTable {
  private readonly decisions = new Map<string, ConflictDecision>();

  constructor(
    readonly conflicts: readonly ImportConflict[],
    private readonly names: ReadonlyMap<string, string> = new Map(),
  ) {}

  /** false when `id` is no conflict of this import (a stale message). */
  decide(id: string, decision: ConflictDecision): boolean {
    if (!this.conflicts.some((c) => c.id === id)) return false;
    this.decisions.set(id, decision);
    return true;
  }

  /** Gives every undecided row `decision` (an explicit choice for the rest); returns how many rows it decided. */
  decideRest(decision: ConflictDecision): number {
    const rest = this.undecided();
    for (const c of rest) this.decisions.set(c.id, decision);
    return rest.length;
  }

  decision(id: string): ConflictDecision | null {
    return this.decisions.get(id) ?? null;
  }

  undecided(): ImportConflict[] {
    return this.conflicts.filter((c) => !this.decisions.has(c.id));
  }

  get decidedCount(): number {
    return this.conflicts.length - this.undecided().length;
  }

  /** The decisions when every row has one; else a refusal naming the undecided rows. */
  apply(): ApplyCheck {
    const open = this.conflicts.map((c, i) => ({ c, i })).filter(({ c }) => !this.decisions.has(c.id));
    if (open.length === 0) return { ok: true, decisions: new Map(this.decisions) };
    const rows = open.map(({ i }) => i + 1);
    const shown = rows.length > 8 ? `${rows.slice(0, 8).join(', ')} and ${rows.length - 8} more` : rows.join(', ');
    return {
      ok: false,
      message:
        `${open.length} of ${this.conflicts.length} conflict(s) have no decision yet (row${rows.length > 1 ? 's' : ''} ${shown}): ` +
        'choose Keep mine, Take theirs or Keep both on each. Nothing has been written.',
      undecided: open.map(({ c }) => c.id),
    };
  }

  rows(): ConflictTableRow[] {
    const name = (id: string) => this.names.get(id) ?? id;
    return this.conflicts.map((c, i) => {
      const first = c.incoming[0]?.row ?? c.local[0];
      const mineBy = new Map(c.local.map((r) => [r.label, r.note]));
      const theirsBy = new Map(c.incoming.map((r) => [r.row.label, r.row.note]));
      const status = (other: ReadonlyMap<string, string>, label: string, note: string) =>
        !other.has(label) ? 'only' : other.get(label) === note ? 'same' : 'note';
      return {
        id: c.id,
        index: i + 1,
        where: `${first.platform}/${first.userId} · step ${first.stepId}${first.run ? ` · run ${first.run}` : ''}`,
        target: targetText(first.target),
        author: first.author,
        title: describeKey({ ...first, label: '' }),
        mine: c.local.map((r) => ({
          label: r.label,
          name: name(r.label),
          note: r.note,
          status: status(theirsBy, r.label, r.note),
        })),
        theirs: c.incoming.map((r) => ({
          label: r.row.label,
          name: name(r.row.label),
          note: r.row.note,
          status: status(mineBy, r.row.label, r.row.note),
          line: r.line,
        })),
        decision: this.decision(c.id),
      };
    });
  }
}
