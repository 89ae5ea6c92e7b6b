// PersonaMem's part of `persona-lab compare`: what its Compare Runs view computes (benchmarks/personamem/compare/):
// each run's score, the two runs of one split compared on the questions both answered, accuracy overall and per
// question type with B − A and its paired interval over personas, and the questions whose answer changed.
import {
  comparePersonaMemRuns,
  PM_CHANGE_TEXT,
  pmChangeCountsText,
  pmCompareProblem,
  pmCompareScopeText,
  pmCompareTexts,
  type PmCompareRow,
} from '../../../core/personamem/compare';
import { personaMem } from '../../../core/personamem/format';
import { scorePersonaMemRun } from '../../../core/personamem/score';
import { SKILL_HEADS } from '../../../core/personamem/types';
import { loadPair, type CompareCommand } from '../../compareReport';

const COLUMNS = ['', 'A', 'B', 'B − A (pp)', '95 % CI', 'Personas W / T / L', 'Questions'];

function row(r: PmCompareRow): string[] {
  const t = pmCompareTexts(r);
  return [r.head, t.a, t.b, t.diff, t.interval, `${r.units} (${r.win} / ${r.tie} / ${r.loss})`, String(r.items)];
}

export const personaMemCompare: CompareCommand = {
  async compare(dir, { pair, limit }, opts) {
    const loaded = await loadPair(personaMem, dir, pair, opts);
    if ('missing' in loaded) return loaded;
    const { bench } = loaded;
    const a = scorePersonaMemRun(bench, loaded.a);
    const b = scorePersonaMemRun(bench, loaded.b);
    const problem = pmCompareProblem(a, b);
    if (problem) return { problem };
    const cmp = comparePersonaMemRuns(bench, a, b);
    const letter = (x: string | null) => (x === null ? 'none read' : `(${x})`);
    return {
      report: {
        json: { format: personaMem.id, ...cmp },
        heading: [`Compare: ${cmp.runB} (B) against ${cmp.runA} (A)`, pmCompareScopeText(cmp)],
        tables: [
          {
            title: 'Accuracy on the paired questions, %',
            columns: COLUMNS,
            rows: [cmp.overall, ...cmp.byType].map(row),
          },
        ],
        notes: [
          `Accuracy: right answers over the paired questions, by the authors' answer reading. B − A in percentage ` +
            `points. 95 % CI: percentile bootstrap, ${cmp.overall.resamples} resamples of personas (a persona's ` +
            `questions share one history), seed ${cmp.overall.seed}; none over one persona. W / T / L: personas where ` +
            `B is right on more / as many / fewer of their questions.`,
        ],
        changed: {
          title: 'Questions where the runs differ',
          total: cmp.differing.length,
          counts: pmChangeCountsText(cmp),
          columns: ['Question', 'Persona', 'Type', 'Topic', 'A picked', 'B picked', 'Answer', 'Change'],
          words: [0, 1, 2, 3, 7],
          rows: cmp.differing
            .slice(0, limit)
            .map((d) => [
              d.questionId,
              d.personaId,
              SKILL_HEADS[d.skill] ?? d.skill,
              d.topic,
              letter(d.pickA),
              letter(d.pickB),
              d.correctAnswer,
              PM_CHANGE_TEXT[d.change],
            ]),
        },
      },
    };
  },
};
