// A PersonaMem score as `score` prints it: the JSON contract (docs/scoring.md), the text report, and the per-type
// table (the leaderboard's: accuracy per skill and overall, percent with two decimals) for LaTeX, Markdown and CSV.
// Best and second best are marked among the runs that answered the same questions only (core/coverage.ts).
import { coverageGroups, coverageJson, coverageNote, coverageText, isWhole, type Coverage } from '../coverage';
import { pctText, rankColumn, type TableModel } from '../tables/format';
import { tableText } from '../tables/text';
import type { PmRunScore, Tally } from './score';
import { compareSizes } from './load';
import { SKILL_HEADS, SKILLS, type PersonaMemBench } from './types';

const tallyJson = (t: Tally) => ({ answered: t.answered, correct: t.correct, accuracy: t.accuracy });
const mapJson = <K, V>(m: Map<K, V>, f: (v: V) => unknown) =>
  Object.fromEntries([...m].map(([k, v]) => [String(k), f(v)]));

/** Per model, its overall figure on each split it was run on: the paper's reading by context length. */
export function byContextLength(scores: readonly PmRunScore[]) {
  const models = new Map<string, Record<string, Tally & { whole: boolean }>>();
  for (const s of scores) {
    const m = models.get(s.model) ?? {};
    m[s.split] = { ...s.overall, whole: isWhole(s.coverage) };
    models.set(s.model, m);
  }
  return [...models].map(([model, splits]) => ({ model, splits }));
}

export function scoreJson(bench: PersonaMemBench, scores: readonly PmRunScore[]) {
  return {
    format: 'personamem',
    splits: [...bench.splits.values()].map((s) => ({
      size: s.size,
      questions: s.questions.length,
      personas: new Set(s.questions.map((q) => q.personaId)).size,
      contexts: s.contexts.size,
    })),
    runs: scores.map((s) => ({
      name: s.name,
      split: s.split,
      model: s.model,
      ...tallyJson(s.overall),
      unreadable: s.unreadable,
      byType: mapJson(s.byType, (t) => ({ ...tallyJson(t), spellings: t.spellings })),
      byTopic: mapJson(s.byTopic, tallyJson),
      byDistanceBlocks: s.byDistanceBlocks && mapJson(s.byDistanceBlocks, tallyJson),
      coverage: coverageJson(s.coverage),
    })),
    byContextLength: byContextLength(scores),
  };
}

const pct = (t: Tally) => (t.accuracy === null ? '—' : `${pctText(t.accuracy)}%`);
const line = (name: string, t: Tally, width: number) =>
  `  ${name.padEnd(width)}  ${pct(t).padStart(7)}  (${t.correct} of ${t.answered})`;

export function runText(s: PmRunScore): string {
  const note = coverageNote(s.coverage);
  const out = [
    `${s.name} (split ${s.split}, model ${s.model}): accuracy ${pct(s.overall)} (${s.overall.correct} of ${s.overall.answered} rows)`,
    `  ${note ?? `over ${coverageText(s.coverage)}`}`,
  ];
  if (s.unreadable > 0)
    out.push(`  ${s.unreadable} answers name no single option letter (scored wrong, as the authors' reading does)`);
  const w1 = Math.max(...[...s.byType.keys()].map((k) => k.length), 10);
  out.push('', ' By question type:', ...[...s.byType].map(([k, t]) => line(k, t, w1)));
  const w2 = Math.max(...[...s.byTopic.keys()].map((k) => k.length), 10);
  out.push('', ' By topic:', ...[...s.byTopic].map(([k, t]) => line(k, t, w2)));
  if (s.byDistanceBlocks) {
    out.push(
      '',
      " By sessions between the evidence and the question (Persona Lab's grouping of the released distances):",
    );
    out.push(...[...s.byDistanceBlocks].map(([k, t]) => line(String(k), t, 10)));
  }
  return out.join('\n');
}

/** The skills any run has, in the paper's order, then other spellings by name. */
function typeColumns(scores: readonly PmRunScore[]): string[] {
  const present = new Set(scores.flatMap((s) => [...s.byType.keys()]));
  const known = SKILLS.filter((k) => present.has(k));
  const other = [...present].filter((k) => !(SKILLS as readonly string[]).includes(k)).sort();
  return [...known, ...other];
}

interface TableRowSpec {
  name: string;
  coverage?: { whole: boolean; text: string };
  values: (number | null)[];
  /** what the figure of column ci covers: only figures over the same questions are ranked against each other */
  covers(ci: number): Coverage | undefined;
}

/** Best and second best of one column, among the rows whose figures cover the same questions only. */
function rankWithinCoverage(texts: readonly string[], covers: readonly (Coverage | undefined)[]): (0 | 1 | 2)[] {
  const ranks = texts.map((): 0 | 1 | 2 => 0);
  const known = covers.flatMap((c, i) => (c ? [{ c, i }] : []));
  for (const group of coverageGroups(known.map((k) => k.c))) {
    const at = group.map((g) => known[g].i);
    const marks = rankColumn(
      at.map((i) => texts[i]),
      false,
    );
    at.forEach((i, k) => (ranks[i] = marks[k]));
  }
  return ranks;
}

/** Accuracy in percent, two decimals, best and second best marked per column (tables/format.ts). */
function accuracyTable<Id extends string>(
  id: Id,
  title: string,
  columns: { group: string; head: string }[],
  rows: TableRowSpec[],
): TableModel<Id> {
  const texts = rows.map((r) => r.values.map((v) => (v === null ? '—' : pctText(v))));
  const ranks = columns.map((_, ci) =>
    rankWithinCoverage(
      texts.map((t) => t[ci]),
      rows.map((r) => r.covers(ci)),
    ),
  );
  return {
    id,
    title,
    columns: columns.map((c) => ({ ...c, lowerIsBetter: false })),
    rows: rows.map((r, ri) => ({
      run: r.name,
      coverage: r.coverage,
      cells: r.values.map((v, ci) => ({ text: texts[ri][ci], value: v, rank: ranks[ci][ri] })),
    })),
  };
}

const coverageOf = (s: PmRunScore) => ({ whole: isWhole(s.coverage), text: coverageText(s.coverage) });

/** Runs as rows: overall, then accuracy per question type (the leaderboard's table). */
export function typeTable(scores: readonly PmRunScore[]): TableModel<'personamem-types'> {
  const types = typeColumns(scores);
  return accuracyTable(
    'personamem-types',
    'PersonaMem accuracy per question type (%)',
    [{ group: '', head: 'Overall' }, ...types.map((k) => ({ group: 'Question type', head: SKILL_HEADS[k] ?? k }))],
    scores.map((s) => ({
      name: s.name,
      coverage: coverageOf(s),
      covers: () => s.coverage,
      values: [s.overall.accuracy, ...types.map((k) => s.byType.get(k)?.accuracy ?? null)],
    })),
  );
}

/** Runs as rows, accuracy per topic. */
export function topicTable(scores: readonly PmRunScore[]): TableModel<'personamem-topics'> {
  const topics = [...new Set(scores.flatMap((s) => [...s.byTopic.keys()]))].sort();
  return accuracyTable(
    'personamem-topics',
    'PersonaMem accuracy per topic (%)',
    topics.map((t) => ({ group: 'Topic', head: t })),
    scores.map((s) => ({
      name: s.name,
      coverage: coverageOf(s),
      covers: () => s.coverage,
      values: topics.map((t) => s.byTopic.get(t)?.accuracy ?? null),
    })),
  );
}

/** Models as rows, overall accuracy per split (context length); only when the runs cover more than one split. */
export function lengthTable(scores: readonly PmRunScore[]): TableModel<'personamem-lengths'> | undefined {
  const sizes = [...new Set(scores.map((s) => s.split))].sort(compareSizes);
  if (sizes.length < 2) return undefined;
  return accuracyTable(
    'personamem-lengths',
    'PersonaMem overall accuracy per context length (%)',
    sizes.map((z) => ({ group: 'Context length', head: z })),
    byContextLength(scores).map((m) => {
      const parts = Object.values(m.splits);
      return {
        name: m.model,
        coverage: parts.every((p) => p.whole) ? undefined : { whole: false, text: 'a split answered in part' },
        covers: (ci) => scores.find((s) => s.model === m.model && s.split === sizes[ci])?.coverage,
        values: sizes.map((z) => m.splits[z]?.accuracy ?? null),
      };
    }),
  );
}

/** The tables `score --format` prints, in order. */
export function scoreTables(scores: readonly PmRunScore[]): TableModel[] {
  const lengths = lengthTable(scores);
  return [typeTable(scores), topicTable(scores), ...(lengths ? [lengths] : [])];
}

export function scoreText(bench: PersonaMemBench, scores: readonly PmRunScore[]): string {
  if (scores.length === 0) return `No runs under ${bench.root}/results (eval_results_<size>_<model>.csv).`;
  const parts = [tableText(typeTable(scores)), ...scores.map(runText)];
  const lengths = lengthTable(scores);
  if (lengths) parts.push(tableText(lengths));
  return parts.join('\n\n');
}
