// A PersonaMem score as `score` prints it: the JSON contract (docs/scoring.md), the text report, and the per-type
// table (the leaderboard's: accuracy per skill and overall, percent with two decimals) for LaTeX, Markdown and CSV.
import { coverageJson, coverageNote, coverageText, isWhole } from '../coverage';
import { pctText, rankColumn, type TableModel } from '../tables/format';
import { tableText } from '../tables/text';
import type { PmRunScore, Tally } from './score';
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

/** Runs as rows: overall, then accuracy per question type; best and second best marked per column. */
export function typeTable(scores: readonly PmRunScore[]): TableModel<'personamem-types'> {
  const types = typeColumns(scores);
  const values = (s: PmRunScore) => [s.overall.accuracy, ...types.map((k) => s.byType.get(k)?.accuracy ?? null)];
  const texts = scores.map((s) => values(s).map((v) => (v === null ? '—' : pctText(v))));
  const heads = ['Overall', ...types.map((k) => SKILL_HEADS[k] ?? k)];
  const ranks = heads.map((_, ci) =>
    rankColumn(
      texts.map((r) => r[ci]),
      false,
    ),
  );
  return {
    id: 'personamem-types',
    title: 'PersonaMem accuracy per question type (%)',
    columns: heads.map((head, i) => ({ group: i === 0 ? '' : 'Question type', head, lowerIsBetter: false })),
    rows: scores.map((s, ri) => ({
      run: s.name,
      coverage: { whole: isWhole(s.coverage), text: coverageText(s.coverage) },
      cells: values(s).map((v, ci) => ({ text: texts[ri][ci], value: v, rank: ranks[ci][ri] })),
    })),
  };
}

export function scoreText(bench: PersonaMemBench, scores: readonly PmRunScore[]): string {
  if (scores.length === 0) return `No runs under ${bench.root}/results (eval_results_<size>_<model>.csv).`;
  const parts = [tableText(typeTable(scores)), ...scores.map(runText)];
  const lengths = byContextLength(scores).filter((m) => Object.keys(m.splits).length > 1);
  if (lengths.length > 0)
    parts.push(
      [
        'By context length (overall accuracy per split):',
        ...lengths.map(
          (m) =>
            `  ${m.model}: ${Object.entries(m.splits)
              .map(([k, t]) => `${k} ${pct(t)}`)
              .join(', ')}`,
        ),
      ].join('\n'),
    );
  return parts.join('\n\n');
}
