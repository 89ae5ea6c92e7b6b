// Why an OmniBehavior figure is missing, and what a run's figures cover, in the words every view shows. The overall
// is the mean of the six components (evaluator.py), so it is missing whenever one component is: the reader is told
// which and why (not judged yet, no answer of that scene in a run of some users, no video duration) rather than
// being left with "—" or a component that looks like a score of 0.
import { coverageNote, coverageText, isWhole } from '../coverage';
import { pyFixed } from '../io/pyNumber';
import { BINARY_COMPONENT_SCENE, COMPONENT_LABELS, COMPONENTS } from './fields';
import type { FieldScore, OmniRunScore } from './score';
import type { ComponentId } from './types';

type ScoreFacts = Pick<OmniRunScore, 'fields' | 'components' | 'coverage'>;

/** The command that writes the judge's scores of the utterances (package.json's title). */
export const JUDGE_COMMAND = 'Judge Run…';

const asked = (f: FieldScore | undefined) => (f ? f.answered + f.leftOut : 0);

/**
 * Why component `id` has no value in the run's score; undefined when it has one. `judge` names how to run the judge
 * where the words are shown: the extension's command, or the CLI's `persona-lab judge DIR --run NAME`.
 */
export function componentReason(score: ScoreFacts, id: ComponentId, judge = JUDGE_COMMAND): string | undefined {
  if (score.components[id] !== undefined) return undefined;
  const scene = BINARY_COMPONENT_SCENE[id];
  if (scene) {
    const fields = score.fields.filter((f) => f.kind === 'binary' && f.scene === scene);
    if (fields.every((f) => asked(f) === 0)) return `no ${scene} test action in this run`;
    return `no ${scene} answer with a usable prediction and a Yes / No truth`;
  }
  if (id === 'videoContinuous') {
    const f = score.fields.find((x) => x.field === 'video_watch_seconds');
    if (asked(f) === 0) return 'no video_watch_seconds answer in this run';
    if (f!.n === 0) return 'no video_watch_seconds answer with a usable prediction and a video duration';
    return 'NMAE is not a finite number';
  }
  const f = score.fields.find((x) => x.field === 'next_user_message');
  if (asked(f) === 0) return 'no next_user_message answer in this run';
  if (f!.answered === 0) return 'every next_user_message answer is empty (left out, as the reference leaves it out)';
  return `not judged yet: ${judge} scores the next_user_message answers, which give ${COMPONENT_LABELS.shopText}`;
}

/** The CLI's words for running the judge on a run: "`persona-lab judge sample/omnibehavior --run one-user`". */
export function judgeCommandLine(dir: string, run: string): string {
  const arg = (x: string) => (/^[\w./@%+=:,-]+$/.test(x) ? x : `'${x.replace(/'/g, `'\\''`)}'`);
  return `\`persona-lab judge ${arg(dir)} --run ${arg(run)}\``;
}

/**
 * What a component's figure needs said beside it: why it is missing, or why a binary component is 0 (the reference's
 * F1 is 0 when no answer is a true positive, which a run of one user often has: it is a score, not a gap, but not a
 * measure of much either). undefined when the figure speaks for itself.
 */
export function componentNote(score: ScoreFacts, id: ComponentId): string | undefined {
  const missing = componentReason(score, id);
  if (missing !== undefined) return missing;
  const scene = BINARY_COMPONENT_SCENE[id];
  if (!scene || score.components[id] !== 0) return undefined;
  const fields = score.fields.filter((f) => f.kind === 'binary' && f.scene === scene && f.n > 0);
  const sum = (pick: (f: FieldScore) => number | undefined) => fields.reduce((s, f) => s + (pick(f) ?? 0), 0);
  const n = sum((f) => f.n);
  const real = sum((f) => (f.tp ?? 0) + (f.fn ?? 0));
  const predicted = sum((f) => (f.tp ?? 0) + (f.fp ?? 0));
  return `no true positive in ${n} answer${n === 1 ? '' : 's'} (${real} real Yes, ${predicted} predicted Yes): F1 is 0 then, as in the reference`;
}

/**
 * Why the overall is missing: each missing component's reason, the judge first (the one a person can fix with a
 * command), then the coverage when the run is of part of the benchmark. undefined when the overall has a value.
 */
export function overallReason(
  score: ScoreFacts & Pick<OmniRunScore, 'overall'>,
  judge = JUDGE_COMMAND,
): string | undefined {
  if (score.overall !== undefined) return undefined;
  const missing = COMPONENTS.filter((c) => score.components[c] === undefined);
  const order = (c: ComponentId) => (c === 'shopText' ? 0 : 1);
  const reasons = [...missing]
    .sort((a, b) => order(a) - order(b))
    .map((c) => {
      const why = componentReason(score, c, judge) as string;
      return why.startsWith('not judged yet') ? why : `${COMPONENT_LABELS[c]}: ${why}`;
    });
  const covers = isWhole(score.coverage) ? '' : `the run covers ${coverageText(score.coverage)}`;
  return [reasons.join('; '), covers].filter(Boolean).join('; ');
}

/**
 * The run's headline as a sentence: "overall 61.2", "overall 23.3 over 1 of 6 users, 78 of 495 test actions", or
 * "overall — (not judged yet: …)"; the coverage is part of the reason when the overall is missing.
 */
export function overallText(score: ScoreFacts & Pick<OmniRunScore, 'overall'>, judge = JUDGE_COMMAND): string {
  if (score.overall === undefined) return `overall — (${overallReason(score, judge)})`;
  const note = coverageNote(score.coverage);
  return `overall ${pyFixed(score.overall, 1)}${note ? ` ${note}` : ''}`;
}

/**
 * The short coverage a tree row has room for: "over 1 of 6 users" (or "over 78 of 495 test actions" when every user
 * has some); undefined when the run is whole.
 */
export function shortCoverage(score: Pick<OmniRunScore, 'coverage'>): string | undefined {
  const c = score.coverage;
  if (isWhole(c)) return undefined;
  const n = (x: number) => x.toLocaleString('en-US');
  if (c.users.covered < c.users.total) return `over ${n(c.users.covered)} of ${n(c.users.total)} users`;
  return `over ${n(c.items.covered)} of ${n(c.items.total)} test actions`;
}
