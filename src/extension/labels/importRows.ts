// Quick pick rows of Import Labels' conflict list. Pure (no `vscode`), so it is unit-tested.
import type { ConflictDecision, ImportConflict, ImportPlan } from '../../core/labels/merge';

export const DECISION_TEXT: Record<ConflictDecision, { label: string; detail: string }> = {
  local: { label: 'Keep mine', detail: 'keep the labels and notes in your database; ignore the file’s' },
  incoming: { label: 'Take theirs', detail: 'replace your labels on this target by the file’s' },
  both: { label: 'Keep both', detail: 'add the file’s missing labels and join differing notes' },
};

function side(rows: readonly { label: string; note: string }[], names: ReadonlyMap<string, string>): string {
  if (rows.length === 0) return '(none)';
  return rows
    .map((r) => `${names.get(r.label) ?? r.label}${r.note ? ` (“${r.note.replace(/\s+/g, ' ').slice(0, 60)}”)` : ''}`)
    .join(', ');
}

export interface ConflictRow {
  id: string;
  label: string;
  description: string;
  detail: string;
}

export function conflictRows(
  conflicts: readonly ImportConflict[],
  decisions: ReadonlyMap<string, ConflictDecision>,
  names: ReadonlyMap<string, string> = new Map(),
): ConflictRow[] {
  return conflicts.map((c, i) => {
    const d = decisions.get(c.id);
    return {
      id: c.id,
      label: `${i + 1}. ${c.description}`,
      description: d ? `→ ${DECISION_TEXT[d].label}` : 'unresolved',
      detail: `mine: ${side(c.local, names)} · theirs: ${side(
        c.incoming.map((r) => r.row),
        names,
      )} (line ${c.incoming.map((r) => r.line).join(', ')})`,
    };
  });
}

/** One line for the summary notification before anything is written. */
export function planSummary(file: string, read: number, skipped: number, plan: ImportPlan): string {
  const parts = [`${read} label(s) read`];
  if (skipped) parts.push(`${skipped} line(s) skipped (see the Problems panel)`);
  parts.push(
    `${plan.additions.length} new`,
    `${plan.identical} already present`,
    `${plan.conflicts.length} conflict(s)`,
  );
  return `${file}: ${parts.join(', ')}`;
}
