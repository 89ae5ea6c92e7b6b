// The run dashboard's paper tables (Tables 4-6) on the shared renderer (../shared/paperTable.ts): the Avg. columns
// first, Table 6 split by platform when it does not fit.
import type { CopyFormat, TableId, TableModel } from '../../../src/shared/spb/dashboardProtocol';
import { renderPaperTable } from '../../shared/paperTable';

/** The column order on the page: the Avg. columns (the key figures) right after the run, then the platforms. */
function shownOrder(t: { columns: readonly { group: string }[] }): number[] {
  const all = t.columns.map((_c, i) => i);
  return [...all.filter((i) => t.columns[i].group === 'Avg.'), ...all.filter((i) => t.columns[i].group !== 'Avg.')];
}

/** `coverage`: run -> what its figures cover, for the runs over part of the benchmark (shown under the run's name). */
export function renderTable(
  t: TableModel,
  onCopy: (id: TableId, format: CopyFormat) => void,
  coverage: Record<string, string> = {},
): HTMLElement {
  const lower = t.columns.some((c) => c.lowerIsBetter);
  const caption = lower ? 'Lower is better. ' : '';
  return renderPaperTable(t, onCopy, coverage, {
    help: `${caption}Per platform: two-level macro average M̄ (per user over the scored steps, then over users), as the reference runner. Avg.: the mean of the platform figures, shown first here (copies keep the paper's order). F1^NS: mean of per-user F1 over users with R_nov + R_stab > 0. Bold: best; underlined: second best (on the shown figures), among the runs that cover the same steps only: a run over part of the benchmark says so under its name and is not ranked against the others.`,
    order: shownOrder,
    splitCaption: "One table per platform, so that it fits; LaTeX, Markdown and CSV copy the paper's one table.",
  });
}
