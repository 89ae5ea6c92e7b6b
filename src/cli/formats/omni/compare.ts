// OmniBehavior's part of `persona-lab compare`: what its Compare Runs view computes (benchmarks/omni/compare/): two
// runs that share a test action compared on the answers both gave and can score, each run's figures (the overall,
// the components, each field's), B − A with its paired interval over users, and the answers whose outcome changed.
import {
  compareOmniRuns,
  omniChangeCountsText,
  omniChangeText,
  omniCompareProblem,
  omniCompareScopeText,
  omniCompareTexts,
  omniFewerResamplesText,
  OMNI_KIND_HEADS,
  type OmniCompareRow,
} from '../../../core/omni/compare';
import { omniBehavior } from '../../../core/omni/format';
import { loadPair, type CompareCommand, type CompareTable } from '../../compareReport';

const COLUMNS = ['', 'Figure', 'A', 'B', 'B − A', '95 % CI', 'Users W / T / L', 'Answers'];

function row(r: OmniCompareRow): string[] {
  const t = omniCompareTexts(r);
  const users = `${r.units} (${r.win} / ${r.tie} / ${r.loss})${r.undecided ? ` · ${r.undecided} undecided` : ''}`;
  return [r.head, r.measure, t.a, t.b, t.diff, t.interval, users, String(r.answers)];
}

/** The overall, then one table per question kind (its components, then its fields), as the view's sections. */
function tables(rows: readonly OmniCompareRow[]): CompareTable[] {
  const sections: { title: string; rows: OmniCompareRow[] }[] = [];
  for (const r of rows) {
    const title = r.kind === 'mixed' ? 'Overall' : OMNI_KIND_HEADS[r.kind];
    const last = sections.at(-1);
    if (last?.title === title) last.rows.push(r);
    else sections.push({ title, rows: [r] });
  }
  return sections.map((s) => ({ title: s.title, columns: COLUMNS, rows: s.rows.map(row), words: [0, 1] }));
}

export const omniCompare: CompareCommand = {
  async compare(dir, { pair, limit }, opts) {
    const loaded = await loadPair(omniBehavior, dir, pair, opts);
    if ('missing' in loaded) return loaded;
    const { bench, a, b } = loaded;
    const problem = omniCompareProblem(a, b);
    if (problem) return { problem };
    const cmp = compareOmniRuns(bench, a, b);
    const first = cmp.rows[0];
    const value = (text: string) => (text === '' ? '—' : text);
    return {
      report: {
        json: { format: omniBehavior.id, ...cmp },
        heading: [`Compare: ${cmp.runB} (B) against ${cmp.runA} (A)`, omniCompareScopeText(cmp)],
        tables: tables(cmp.rows),
        notes: [
          `Each figure is the run's score (F1 per binary field and its scene's mean, NMAE, the judge's mean, exact ` +
            `match), over the answers both runs gave and can score only. B − A; a lower NMAE is better. 95 % CI: ` +
            `percentile bootstrap, ${first?.resamples ?? 0} resamples of users (a user's test actions share one ` +
            `history), seed ${first?.seed ?? 0}; none over one user. W / T / L: users where B's own figure is ` +
            `better / equal / worse.` +
            omniFewerResamplesText(cmp),
        ],
        changed: {
          title: 'Answers whose outcome changed',
          total: cmp.changed.length,
          counts: omniChangeCountsText(cmp),
          columns: ['Test action', 'Scene', 'Field', 'Truth', 'A', 'B', 'Change'],
          words: [0, 1, 2, 3, 4, 5, 6],
          rows: cmp.changed
            .slice(0, limit)
            .map((c) => [
              `${c.userId} #${c.index}`,
              c.scene,
              c.field,
              value(c.truth),
              value(c.a),
              value(c.b),
              omniChangeText(c),
            ]),
        },
      },
    };
  },
};
