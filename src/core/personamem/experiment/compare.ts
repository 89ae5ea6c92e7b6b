// A PersonaMem experiment's figures: the experiment's run against a base run on exactly the sample's questions that
// both answered, scored as `score` scores each run (scorePersonaMemRun), accuracy of each, the paired difference with
// its 95 % percentile bootstrap interval over personas (a persona's questions share one history, so the persona is
// the unit resampled), and the same per question type, the sample's strata.
import { pct, pp } from '../../experiments/format';
import { pairedShareDifference, type PairedUnit } from '../../stats/pairedUnits';
import { alignColumns } from '../../tables/text';
import { scorePersonaMemRun } from '../score';
import { SKILL_HEADS, type PersonaMemBench, type PmRun } from '../types';
import { crypto } from '../../io/builtins';

/**
 * An experiment's run name: exp-<sample>-<hash of what makes two tries differ (the model, the temperature, the
 * checkout whose request it sends or our template)>. The same try gives the same name, so it resumes.
 */
export function pmExperimentRunName(
  sample: string,
  config: { model: string; temperature: number | undefined; checkout: string | null | undefined },
): string {
  const c = crypto()
    .createHash('sha256')
    .update(JSON.stringify([config.model, config.temperature ?? null, config.checkout ?? 'template']))
    .digest('hex')
    .slice(0, 6);
  return `exp-${sample}-${c}`;
}

export interface PmPairedRow {
  /** "overall" or a question type */
  key: string;
  questions: number;
  base: number;
  run: number;
  /** run − base, a share (0.05 = 5 pp) */
  diff: number;
  low: number;
  high: number;
}

export interface PmExperimentFigures {
  baseRun: string;
  run: string;
  /** sample questions both runs answered */
  paired: number;
  personas: number;
  /** sample questions only one of the runs answered (an unfinished run, a base run of other questions) */
  onlyBase: number;
  onlyRun: number;
  /** overall first, then each type in the sample's order */
  rows: PmPairedRow[];
  /** questions right only in the run, and right only in the base run */
  gained: number;
  lost: number;
}

interface Pair {
  persona: string;
  type: string;
  base: boolean;
  run: boolean;
}

function row(key: string, pairs: readonly Pair[]): PmPairedRow {
  const byPersona = new Map<string, PairedUnit>();
  for (const p of pairs) {
    const u = byPersona.get(p.persona) ?? { items: 0, rightA: 0, rightB: 0 };
    u.items++;
    u.rightA += Number(p.base);
    u.rightB += Number(p.run);
    byPersona.set(p.persona, u);
  }
  // Compare Runs' rule (core/stats/pairedUnits.ts), so that an experiment and Compare Runs agree on one pair.
  const d = pairedShareDifference([...byPersona.values()]);
  const nan = (x: number | null) => x ?? NaN;
  // One persona: every resample draws it, so there is no interval to give.
  const varies = byPersona.size > 1;
  return {
    key,
    questions: pairs.length,
    base: nan(d.shareA),
    run: nan(d.shareB),
    diff: nan(d.diff),
    low: varies ? nan(d.low) : NaN,
    high: varies ? nan(d.high) : NaN,
  };
}

/** The paired figures on the sample's questions (`types`: the sample's strata, in order). */
export function pmExperimentFigures(
  bench: PersonaMemBench,
  base: PmRun,
  run: PmRun,
  questions: readonly string[],
  types: readonly string[],
): PmExperimentFigures {
  const a = scorePersonaMemRun(bench, base).perQuestion;
  const b = scorePersonaMemRun(bench, run).perQuestion;
  const byId = new Map(bench.splits.get(run.split)?.questions.map((q) => [q.questionId, q]));
  const pairs: Pair[] = [];
  let onlyBase = 0;
  let onlyRun = 0;
  for (const id of questions) {
    const x = a.get(id);
    const y = b.get(id);
    const q = byId.get(id);
    if (x && !y) onlyBase++;
    if (y && !x) onlyRun++;
    if (x && y && q) pairs.push({ persona: q.personaId, type: q.skill, base: x.correct, run: y.correct });
  }
  return {
    baseRun: base.name,
    run: run.name,
    paired: pairs.length,
    personas: new Set(pairs.map((p) => p.persona)).size,
    onlyBase,
    onlyRun,
    rows: [
      row('overall', pairs),
      ...types.map((t) =>
        row(
          t,
          pairs.filter((p) => p.type === t),
        ),
      ),
    ],
    gained: pairs.filter((p) => p.run && !p.base).length,
    lost: pairs.filter((p) => p.base && !p.run).length,
  };
}

/** "+1.2 [−0.5, +3.0]": the difference and its 95 % interval in pp; "+1.2 (CI n/a)" with one persona. */
export const pmDeltaText = (r: PmPairedRow): string =>
  Number.isFinite(r.low) ? `${pp(r.diff)} [${pp(r.low)}, ${pp(r.high)}]` : `${pp(r.diff)} (CI n/a)`;

/** The figures as text: a row per type, accuracy in %, the difference and its interval in pp. */
export function pmFigureLines(f: PmExperimentFigures): string[] {
  const table = [['type', f.baseRun, 'experiment', 'Δ pp [95% CI]', 'questions']];
  for (const r of f.rows) {
    table.push([
      r.key === 'overall' ? 'overall' : (SKILL_HEADS[r.key] ?? r.key),
      pct(r.base),
      pct(r.run),
      pmDeltaText(r),
      String(r.questions),
    ]);
  }
  const lines = alignColumns(table);
  return [
    `compared with ${f.baseRun} on ${f.paired} paired questions of ${f.personas} personas` +
      (f.onlyBase || f.onlyRun ? ` (${f.onlyBase} only in the base run, ${f.onlyRun} only in the experiment)` : ''),
    ...lines.map((l) => `  ${l}`),
    `  ${f.gained} questions right only in the experiment, ${f.lost} right only in ${f.baseRun}; the interval resamples personas`,
  ];
}

/** One line for a message: both accuracies, the difference with its interval, over what. */
export function deltaLine(f: PmExperimentFigures): string {
  const r = f.rows[0];
  return `accuracy ${pct(r.run)}% vs ${pct(r.base)}% in ${f.baseRun}, Δ ${pmDeltaText(r)} pp over ${f.paired} paired questions of ${f.personas} personas`;
}
