// The gold set of a labelling team: for each unit (a step or a test action, as labelledUnits defines it) the failure
// labels it settles on, and how it was settled.
// - adjudicated: an adjudicator decided the unit's labels (the latest decision of a unit counts; an empty set is a
//   decision too: "no failure label applies");
// - unanimous: no decision, and at least two annotators did the unit and gave it the same set of labels;
// - open: at least two annotators did it, their sets differ, and no one has decided;
// - single: one annotator only; not gold (nothing to compare it with) and counted apart, so the shares add up.
// An adjudicator's decision is never an annotator's label: it is kept in its own rows and never enters κ among
// annotators. Figures against gold are over settled units only (adjudicated and unanimous); a unanimous unit agrees
// with each of its annotators by construction, so each figure says how many of its units were adjudicated.
import { labelledUnits, type LabelledUnit } from './agreement';
import { byUnit } from './agreementPerLabel';
import { stepKey, type LabelRow, type StepRef } from './model';

export interface Adjudication {
  ref: StepRef;
  /** The labels the unit settles on (empty: none applies). */
  labels: readonly string[];
  adjudicator: string;
  /** ISO 8601; the latest decision of a unit is the one that counts. */
  createdAt: string;
  /** Why it was settled so, when the adjudicator said. */
  note?: string;
}

export type GoldStatus = 'adjudicated' | 'unanimous' | 'open' | 'single';
export const GOLD_STATUSES: readonly GoldStatus[] = ['adjudicated', 'unanimous', 'open', 'single'];

export interface GoldUnit {
  ref: StepRef;
  status: GoldStatus;
  /** The settled labels, sorted; null when open or single. */
  gold: string[] | null;
  /** Each annotator who did the unit (sorted) with their labels (sorted). */
  annotators: { author: string; labels: string[] }[];
  adjudicator?: string;
  adjudicatedAt?: string;
  note?: string;
}

export interface GoldSet {
  units: GoldUnit[];
  counts: Record<GoldStatus, number>;
}

const sameSet = (a: ReadonlySet<string>, b: ReadonlySet<string>) => a.size === b.size && [...a].every((x) => b.has(x));

function latestDecisions(adjudications: readonly Adjudication[]): Map<string, Adjudication> {
  const m = new Map<string, Adjudication>();
  for (const a of adjudications) {
    const k = stepKey(a.ref);
    const had = m.get(k);
    if (!had || a.createdAt >= had.createdAt) m.set(k, a);
  }
  return m;
}

function statusOf(u: LabelledUnit | undefined): Exclude<GoldStatus, 'adjudicated'> {
  if (!u || u.byAuthor.size < 2) return 'single';
  const [first, ...rest] = [...u.byAuthor.values()];
  return rest.every((s) => sameSet(s, first)) ? 'unanimous' : 'open';
}

/** The gold set of `rows` (annotators' labels) and `adjudications`, in reading order. */
export function goldSet(rows: readonly LabelRow[], adjudications: readonly Adjudication[]): GoldSet {
  const units = labelledUnits(rows);
  const decided = latestDecisions(adjudications);
  const keys = new Set([...units.keys(), ...decided.keys()]);
  const counts: Record<GoldStatus, number> = { adjudicated: 0, unanimous: 0, open: 0, single: 0 };
  const out: GoldUnit[] = [];
  for (const k of keys) {
    const u = units.get(k);
    const d = decided.get(k);
    const annotators = u
      ? [...u.byAuthor.keys()].sort().map((author) => ({ author, labels: [...u.byAuthor.get(author)!].sort() }))
      : [];
    const ref = u ? { ...u.ref } : { ...d!.ref };
    if (d) {
      counts.adjudicated++;
      out.push({
        ref,
        status: 'adjudicated',
        gold: [...new Set(d.labels)].sort(),
        annotators,
        adjudicator: d.adjudicator,
        adjudicatedAt: d.createdAt,
        ...(d.note ? { note: d.note } : {}),
      });
      continue;
    }
    const status = statusOf(u);
    counts[status]++;
    out.push({ ref, status, gold: status === 'unanimous' ? annotators[0].labels : null, annotators });
  }
  out.sort((a, b) => byUnit(a.ref, b.ref));
  return { units: out, counts };
}
