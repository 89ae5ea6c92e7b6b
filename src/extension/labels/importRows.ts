// The summary line of Import Labels (shown above the conflict table, or in the confirmation when there is none).
// Pure (no `vscode`), so it is unit-tested.
import type { ImportPlan } from '../../core/labels/merge';

/** What the import holds, without the file: "4 label(s) read, …, 2 conflict(s)". */
export function planParts(read: number, skipped: number, plan: ImportPlan): string {
  const parts = [`${read} label(s) read`];
  if (skipped) parts.push(`${skipped} line(s) skipped (see the Problems panel)`);
  parts.push(
    `${plan.additions.length} new`,
    `${plan.identical} already present`,
    `${plan.conflicts.length} conflict(s)`,
  );
  return parts.join(', ');
}

/** One line for the summary notification before anything is written. */
export function planSummary(file: string, read: number, skipped: number, plan: ImportPlan): string {
  return `${file}: ${planParts(read, skipped, plan)}`;
}
