// The PersonaMem dashboard's model: the tables `score` prints (report.ts), made per split from the runs' scores (the
// store's, never scored again here), and by context length across the splits, each with what it covers: the split,
// how many of its questions each run answered, and whether that is the whole split or part of it. A run over part of
// a split is never shown as a whole-split figure (its row is marked, and the table says over what).
import { coverageText, isWhole } from '../coverage';
import type { TableModel } from '../tables/format';
import { compareSizes } from './load';
import { lengthTable, topicTable, typeTable } from './report';
import type { PmRunScore } from './score';
import type { PersonaMemBench } from './types';

/** What one run's figures cover of its split. */
export interface PmRunCover {
  run: string;
  model: string;
  split: string;
  /** rows of the run's results file (the accuracy's denominator) */
  answered: number;
  /** distinct questions of the split it answered, of `total` */
  covered: number;
  total: number;
  whole: boolean;
  /** "32k_demo-weak: 13 of 18 questions of the 32k split (3 of 3 personas): part of the split" */
  text: string;
}

export interface PmDashTable {
  /** its id is unique on the page: a copy or a saved chart names it */
  table: TableModel;
  /** what the table covers: its split (or splits) and how much of it each row answered, whole or part */
  covers: string;
}

export interface PmDashSplit {
  split: string;
  questions: number;
  personas: number;
  runs: PmRunCover[];
  types: PmDashTable;
  topics: PmDashTable;
}

export interface PmDashboardModel {
  root: string;
  /** the splits that have runs, shortest context first */
  splits: PmDashSplit[];
  /** splits of the folder no run answers */
  unanswered: string[];
  /** overall accuracy per context length, models as rows; null when the runs answer fewer than two splits */
  lengths: PmDashTable | null;
  /** what the context-length table covers, or why there is none */
  lengthsNote: string;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** "all 18 questions (whole)", "13 of 18 questions (part)" */
const questionsOf = (c: PmRunCover) =>
  `${c.whole ? `all ${c.total}` : `${c.covered} of ${c.total}`} questions (${c.whole ? 'whole' : 'part'})`;

/** One line: the split, then each run with how much of it it answered. */
function splitCovers(split: string, covers: readonly PmRunCover[]): string {
  return `Over the ${split} split: ${covers.map((c) => `${c.run} ${questionsOf(c)}`).join('; ')}.`;
}

/** "32k_demo-weak: all 3 personas, 13 of 18 questions of the 32k split (13 rows scored): part of the split". */
function coverOf(s: PmRunScore): PmRunCover {
  const c = s.coverage;
  const whole = isWhole(c);
  return {
    run: s.name,
    model: s.model,
    split: s.split,
    answered: s.overall.answered,
    covered: c.items.covered,
    total: c.items.total,
    whole,
    text: `${s.name}: ${coverageText(c)} of the ${s.split} split (${plural(s.overall.answered, 'row')} scored): ${
      whole ? 'the whole split' : 'part of the split'
    }`,
  };
}

/** The table as `score` makes it, named for its split so that a copy says what it is over. */
function ofSplit(t: TableModel, split: string, questions: number): TableModel {
  return {
    ...t,
    id: `${t.id}-${split}`,
    title: `${t.title}, ${split} split (${plural(questions, 'question')})`,
    scope: `the ${split} split`,
  };
}

function lengths(scores: readonly PmRunScore[]): { table: PmDashTable | null; note: string } {
  const table = lengthTable(scores);
  const sizes = [...new Set(scores.map((s) => s.split))].sort(compareSizes);
  if (!table)
    return {
      table: null,
      note:
        sizes.length === 0
          ? 'No run answers any split.'
          : `The runs answer the ${sizes[0]} split only: accuracy by context length needs runs of one model on two or more splits (32k, 128k, 1M).`,
    };
  const byModel = new Map<string, PmRunCover[]>();
  for (const s of scores) byModel.set(s.model, [...(byModel.get(s.model) ?? []), coverOf(s)]);
  const perSplit = (c: PmRunCover) => `${c.split} ${questionsOf(c)}`;
  const detail = (model: string) =>
    (byModel.get(model) ?? [])
      .sort((a, b) => compareSizes(a.split, b.split))
      .map(perSplit)
      .join(', ');
  return {
    table: {
      table: {
        ...table,
        title: `${table.title}, splits ${sizes.join(', ')}`,
        scope: 'its split',
        // the row's own splits, in place of the one-line "a split answered in part"
        rows: table.rows.map((r) => (r.coverage ? { ...r, coverage: { ...r.coverage, text: detail(r.run) } } : r)),
      },
      covers: `Each model over the splits it answered: ${table.rows.map((r) => `${r.run}: ${detail(r.run)}`).join('; ')}.`,
    },
    note: 'Each cell is the model’s overall accuracy on one split; a split it answered in part is marked.',
  };
}

/** The dashboard of the runs' scores (one per run, as the store scored them). */
export function buildPmDashboard(bench: PersonaMemBench, scores: readonly PmRunScore[]): PmDashboardModel {
  const splits: PmDashSplit[] = [];
  const unanswered: string[] = [];
  // a results file may name a split whose questions file is missing: its runs still get their tables
  const sizes = [...new Set([...bench.splits.keys(), ...scores.map((s) => s.split)])].sort(compareSizes);
  for (const size of sizes) {
    const split = bench.splits.get(size);
    const runs = scores
      .filter((s) => s.split === size)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (runs.length === 0) {
      unanswered.push(size);
      continue;
    }
    const questions = split?.questions.length ?? 0;
    const covers = runs.map(coverOf);
    splits.push({
      split: size,
      questions,
      personas: new Set(split?.questions.map((q) => q.personaId)).size,
      runs: covers,
      types: { table: ofSplit(typeTable(runs), size, questions), covers: splitCovers(size, covers) },
      topics: { table: ofSplit(topicTable(runs), size, questions), covers: splitCovers(size, covers) },
    });
  }
  const l = lengths(scores);
  return { root: bench.root, splits, unanswered, lengths: l.table, lengthsNote: l.note };
}

/** Every table of the model, by id (what a copy asks for). */
export function pmDashboardTables(m: PmDashboardModel): TableModel[] {
  return [...m.splits.flatMap((s) => [s.types.table, s.topics.table]), ...(m.lengths ? [m.lengths.table] : [])];
}
