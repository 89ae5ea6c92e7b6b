// Rows of the Choose Run… quick pick. Pure, so it is unit-tested.
import type { RunScore } from '../../../core/spb/score/run';
import { pct } from './treeModel';
import { coverageNote } from '../../../core/coverage';

/** "over 1 of 10 users, 2 of 17 steps" for a run over part of the benchmark: its figures are not the whole's. */
const note = (s: RunScore) => (s.coverage.total.items.total > 0 ? coverageNote(s.coverage.total) : undefined);

export interface RunPickRow {
  name: string;
  label: string;
  description: string;
  detail: string;
  current: boolean;
}

/** `mark`: what made a run, when Persona Lab did with its own prompt wording. */
export function runPickRows(
  scores: readonly RunScore[],
  current: string | undefined,
  mark: (run: string) => string | undefined = () => undefined,
): RunPickRow[] {
  return scores.map((s) => {
    const platforms = [...s.platforms.values()];
    const steps = platforms.reduce((n, p) => n + p.steps, 0);
    return {
      name: s.name,
      label: s.name,
      description: `Avg. Recall ${pct(s.avg.Recall)} · F1^NS ${pct(s.avg.F1NS)}${note(s) ? ` ${note(s)}` : ''}${s.name === current ? ' · selected' : ''}`,
      detail: `${platforms.length} platform${platforms.length === 1 ? '' : 's'}, ${steps.toLocaleString('en-US')} scored steps${mark(s.name) ? ` · ${mark(s.name)}` : ''}`,
      current: s.name === current,
    };
  });
}
