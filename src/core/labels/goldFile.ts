// Gold rows in a JSONL label file: one line per decision, `"kind":"gold"` first so that a reader tells it from a label
// line (which has no `kind`), with the unit's columns as a label line names them. The whole trail is written (undone
// decisions with undone_by and undone_at), so that an import rebuilds the same gold set and the same history. A file
// without such lines (every export before gold rows) reads as before. CSV carries labels only.
import type { Diagnostic } from '../io/diagnostics';
import { goldProblem, GOLD_HOW, settledLabels, type GoldHow, type GoldRow } from './goldRows';

export const GOLD_KIND = 'gold';

export interface ImportedGold {
  gold: GoldRow;
  line: number;
}

export function goldLine(g: GoldRow): string {
  return JSON.stringify({
    kind: GOLD_KIND,
    benchmark: g.ref.benchmark,
    platform: g.ref.platform,
    user_id: g.ref.userId,
    step_id: g.ref.stepId,
    run: g.ref.run,
    labels: g.labels,
    how: g.how,
    adjudicator: g.adjudicator,
    note: g.note,
    created_at: g.createdAt,
    uid: g.uid,
    ...(g.undone ? { undone_by: g.undone.by, undone_at: g.undone.at } : {}),
  });
}

export const isGoldLine = (o: Record<string, unknown>): boolean => o.kind === GOLD_KIND;

/** Reads one gold line; pushes located diagnostics and returns null when it cannot be imported. */
export function goldFrom(o: Record<string, unknown>, file: string, line: number, diags: Diagnostic[]): GoldRow | null {
  const before = diags.length;
  const err = (field: string, message: string) => diags.push({ severity: 'error', file, line, field, message });
  const str = (field: string, required: boolean): string => {
    const v = o[field];
    if (v === undefined || v === null || v === '') {
      if (required) err(field, 'missing');
      return '';
    }
    if (typeof v !== 'string') err(field, `must be a string, got ${JSON.stringify(v)}`);
    return typeof v === 'string' ? v : '';
  };
  const stepId = o.step_id;
  if (typeof stepId !== 'number' || !Number.isSafeInteger(stepId) || stepId < 0)
    err('step_id', `must be a non-negative integer, got ${JSON.stringify(stepId ?? null)}`);
  const labels = o.labels;
  if (!Array.isArray(labels) || !labels.every((l) => typeof l === 'string'))
    err('labels', `must be a list of label keys, got ${JSON.stringify(labels ?? null)}`);
  const how = o.how === undefined ? 'adjudicated' : o.how;
  if (!GOLD_HOW.includes(how as GoldHow))
    err('how', `must be one of ${GOLD_HOW.join(', ')}, got ${JSON.stringify(how)}`);
  const undoneAt = str('undone_at', false);
  const g: GoldRow = {
    uid: str('uid', true),
    ref: {
      benchmark: str('benchmark', false),
      platform: str('platform', true),
      userId: str('user_id', true),
      stepId: typeof stepId === 'number' ? stepId : -1,
      run: str('run', false),
    },
    labels: Array.isArray(labels) ? settledLabels(labels.filter((l): l is string => typeof l === 'string')) : [],
    how: 'adjudicated',
    adjudicator: str('adjudicator', true),
    note: str('note', false),
    createdAt: str('created_at', true),
    ...(undoneAt ? { undone: { by: str('undone_by', true), at: undoneAt } } : {}),
  };
  if (diags.length > before) return null;
  const problem = goldProblem(g);
  if (problem) {
    err('', problem);
    return null;
  }
  return g;
}
