// Best / second best marks among runs of the same coverage only: a run of one user beside whole-benchmark runs is
// scored exactly, but its figure is over other steps, so ranking it against theirs would mark a figure "best" that
// is not comparable. A platform's columns compare the runs' coverage of that platform, the Avg. columns their
// coverage in all; a run alone with its coverage gets no mark.
import { coverageGroups, type Coverage } from '../../coverage';
import { rankColumn, type TableModel } from '../../tables/format';
import { PLATFORMS, type Platform } from '../types';
import type { RunScore } from './run';
import { PLATFORM_LABELS } from './tables';

const platformOfGroup = new Map<string, Platform>(PLATFORMS.map((p) => [PLATFORM_LABELS[p], p]));

/** What a column's figures cover for a run: the platform's coverage under a platform group, else the run's. */
function columnCoverage(score: RunScore, group: string): Coverage {
  const platform = platformOfGroup.get(group);
  return (platform && score.coverage.platforms.get(platform)) || score.coverage.total;
}

/**
 * The tables with each column's marks recomputed among the rows of the same coverage (rows are matched to scores by
 * run name; a row without a score keeps no mark). The texts and values are left as they are.
 */
export function rankWithinCoverage<Id extends string>(
  tables: readonly TableModel<Id>[],
  scores: readonly RunScore[],
): TableModel<Id>[] {
  const byName = new Map(scores.map((s) => [s.name, s]));
  return tables.map((t) => {
    const ranks = t.rows.map((r) => r.cells.map((): 0 | 1 | 2 => 0));
    t.columns.forEach((col, ci) => {
      const rows = t.rows.flatMap((r, ri) => {
        const s = byName.get(r.run);
        return s ? [{ ri, coverage: columnCoverage(s, col.group) }] : [];
      });
      for (const group of coverageGroups(rows.map((r) => r.coverage))) {
        const at = group.map((g) => rows[g].ri);
        const marks = rankColumn(
          at.map((ri) => t.rows[ri].cells[ci].text),
          col.lowerIsBetter,
        );
        at.forEach((ri, k) => (ranks[ri][ci] = marks[k]));
      }
    });
    return {
      ...t,
      rows: t.rows.map((r, ri) => ({ ...r, cells: r.cells.map((c, ci) => ({ ...c, rank: ranks[ri][ci] })) })),
    };
  });
}
