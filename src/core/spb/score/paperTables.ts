// The paper's Tables 4, 5 and 6 as data, with best / second best marks among runs of the same coverage: the dashboard shows them, its copy buttons
// and `persona-lab score --format` write them through tables/format.ts. Columns follow tables.ts.
import { pctText, type TableCell, type TableColumn, type TableModel } from '../../tables/format';
import { footnoteText, tableText } from '../../tables/text';
import { isWhole } from '../../coverage';
import { runCoverageText } from './coverage';
import { rankWithinCoverage } from './coverageRanks';
import type { RunScore } from './run';
import { PLATFORM_LABELS, statsAvgText } from './tables';
import { PLATFORMS, type MetricKey, type Platform } from '../types';
import { METRIC_NAMES, metricByShort } from '../names';

export const TABLE_IDS = ['t4', 't5', 't6'] as const;
export type TableId = (typeof TABLE_IDS)[number];

type Key = MetricKey | 'F1NS';

interface ColumnDef extends TableColumn {
  value: (s: RunScore) => number | undefined;
  /** the cell's text when it is not the value's percentage: the Avg. columns, as stats.py gives them */
  text?: (s: RunScore) => string;
}

const TITLES: Record<TableId, string> = {
  t4: 'Table 4. Recall and F1^NS (%), two-level macro average',
  t5: 'Table 5. Stability and novelty recall (%)',
  t6: 'Table 6. Error rates by distractor class (%), lower is better',
};

function platformValue(p: Platform, key: Key): (s: RunScore) => number | undefined {
  return (s) => {
    const ps = s.platforms.get(p);
    return ps ? (key === 'F1NS' ? ps.f1ns : ps.metrics[key]) : undefined;
  };
}

function columns(id: TableId, platforms: readonly Platform[]): ColumnDef[] {
  const pair = (a: [Key, string], b: [Key, string]): ColumnDef[] => [
    ...platforms.flatMap((p) =>
      [a, b].map(([key, head]) => ({
        group: PLATFORM_LABELS[p],
        head,
        lowerIsBetter: false,
        value: platformValue(p, key),
      })),
    ),
    ...[a, b].map(([key, head]) => ({
      group: 'Avg.',
      head,
      lowerIsBetter: false,
      // the value is the unrounded mean (as score --json gives it), the text the paper's figure (stats.py's)
      value: (s: RunScore) => (key === 'F1NS' ? s.avg.F1NS : s.avg[key]),
      text: (s: RunScore) => statsAvgText(s, key),
    })),
  ];
  const short = (key: Key): [Key, string] => [key, METRIC_NAMES[key].short];
  if (id === 't4') return pair(short('Recall'), short('F1NS'));
  if (id === 't5') return pair(short('Recall_Stability'), short('Recall_Novelty'));
  const errors: [Key, string][] = [
    ['Error_Decay', METRIC_NAMES.Error_Decay.short],
    ['Error_Peer', METRIC_NAMES.Error_Peer.short],
    ['Error_Viral', METRIC_NAMES.Error_Viral.short],
    ['Error_Random', METRIC_NAMES.Error_Random.short],
  ];
  return platforms.flatMap((p) =>
    errors.map(([key, head]) => ({
      group: PLATFORM_LABELS[p],
      head,
      lowerIsBetter: true,
      value: platformValue(p, key),
    })),
  );
}

/** A metric's head as the paper typesets it (R, F1^NS, R_stab, Err_decay …); other heads stay plain. */
function latexHead(head: string): { latex?: string } {
  const latex = metricByShort(head === 'F1NS' ? 'F1^NS' : head)?.latex;
  return latex === undefined ? {} : { latex };
}

/** `on`: what the scores were computed over when not the whole benchmark ("sample s5 (5 users)"), named in each title. */
export function tableModels(scores: readonly RunScore[], on?: string): TableModel<TableId>[] {
  const platforms = PLATFORMS.filter((p) => scores.some((s) => s.platforms.has(p)));
  const models = TABLE_IDS.map((id) => {
    const cols = columns(id, platforms);
    const texts = scores.map((s) => cols.map((c) => (c.text ? c.text(s) : pctText(c.value(s)))));
    const model: TableModel<TableId> = {
      id,
      title: on ? `${TITLES[id]}, on ${on}` : TITLES[id],
      columns: cols.map(({ group, head, lowerIsBetter }) => ({ group, head, ...latexHead(head), lowerIsBetter })),
      scope: on ?? 'the benchmark',
      rows: scores.map((s, ri) => ({
        run: s.name,
        coverage: { whole: isWhole(s.coverage.total), text: runCoverageText(s.coverage) },
        cells: cols.map((c, ci): TableCell => {
          const v = c.value(s);
          // Marks are given below, among the runs of the same coverage only.
          return { text: texts[ri][ci], value: v !== undefined && Number.isFinite(v) ? v : null, rank: 0 };
        }),
      })),
    };
    return model;
  });
  return rankWithinCoverage(models, scores);
}

/**
 * `score`'s text: Tables 4, 5 and 6 as tableModels gives them, each at most 120 columns wide (tables/text.ts), and
 * the coverage footnote once under the three.
 */
export function paperTablesText(scores: readonly RunScore[], on?: string): string {
  const models = tableModels(scores, on);
  const notes = footnoteText(models[0]);
  const tables = models.map((t) => tableText(t, { footnote: false })).join('\n\n');
  return notes.length ? `${tables}\n\n${notes.join('\n')}` : tables;
}
