// The OmniBehavior headline components and the overall score of each run as one table (runs as rows), with best and
// second best marked, for `persona-lab score --format` on an OmniBehavior folder. Every component is on 0–100,
// higher is better (score.ts, as the authors' calculate_final_score_components).
import { coverageText, isWhole } from '../coverage';
import { pyFixed } from '../io/pyNumber';
import { rankColumn, type TableModel } from '../tables/format';
import { COMPONENT_LABELS, COMPONENTS } from './fields';
import type { OmniRunScore } from './score';

const text = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '—' : pyFixed(x, 2));

export function componentsTable(runs: readonly { name: string; score: OmniRunScore }[]): TableModel<'components'> {
  const values = (s: OmniRunScore) => [...COMPONENTS.map((c) => s.components[c]), s.overall];
  const texts = runs.map((r) => values(r.score).map(text));
  const heads = [...COMPONENTS.map((c) => COMPONENT_LABELS[c]), 'Overall'];
  const ranks = heads.map((_, ci) =>
    rankColumn(
      texts.map((row) => row[ci]),
      false,
    ),
  );
  return {
    id: 'components',
    title: 'OmniBehavior components and overall score (0-100, higher is better)',
    columns: heads.map((head, i) => ({ group: i < COMPONENTS.length ? 'Components' : '', head, lowerIsBetter: false })),
    rows: runs.map((r, ri) => ({
      run: r.name,
      // a run of some users or test actions is marked and footnoted in every export (tables/format.ts)
      coverage: { whole: isWhole(r.score.coverage), text: coverageText(r.score.coverage) },
      cells: values(r.score).map((v, ci) => ({
        text: texts[ri][ci],
        value: v !== undefined && Number.isFinite(v) ? v : null,
        rank: ranks[ci][ri],
      })),
    })),
  };
}
