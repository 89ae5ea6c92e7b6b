// The adjudicators' live decisions in the label database file, for the views that show gold (the Label Agreement's
// gold part, the dashboards' why-runs-fail section): none before the file exists, or why they cannot be read.
import { existsSync } from 'node:fs';
import type { Adjudication } from '../../../core/labels/gold';
import { GoldStore } from '../../../core/labels/goldStore';

export type Decisions = { adjudications: Adjudication[] } | { error: string };

export function readDecisions(file: string, benchmark?: string): Decisions {
  if (!existsSync(file)) return { adjudications: [] };
  try {
    const store = GoldStore.open(file, { readOnly: true });
    try {
      return { adjudications: store.adjudications(benchmark === undefined ? {} : { benchmark }) };
    } finally {
      store.close();
    }
  } catch (err) {
    return { error: (err as Error).message };
  }
}
