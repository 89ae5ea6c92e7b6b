// StreamProfileBench's terms in the glossary (core/glossary.ts): its metrics and pool classes as named in ./names.ts,
// and the symbols of its step.
import { termsOf, type FormatGlossary, type GlossaryTerm } from '../glossaryTerm';
import { CLASS_NAMES, METRIC_NAMES } from './names';
import type { PoolClass } from './types';

const POOL_DEFINITIONS: Record<PoolClass, string> = {
  tKeep: 'tags of the target window the user had used before: the positives that recur.',
  tNew: 'tags of the target window the user had never used before: the new positives.',
  dDecay: 'tags the user used recently that do not recur in the target window (distractors).',
  dPeer: 'semantic neighbours of a positive tag (distractors; stored as D_cluster in the task files).',
  dViral: 'tags trending on the platform on the target day (distractors).',
  dRandom: 'tags drawn at random from the platform’s vocabulary (distractors).',
};

const POOL_LONG: Record<PoolClass, string> = {
  tKeep: 'recurring positives',
  tNew: 'new positives',
  dDecay: 'decayed distractors',
  dPeer: 'peer distractors',
  dViral: 'viral distractors',
  dRandom: 'random distractors',
};

const spb = termsOf('StreamProfileBench');

export const SPB_GLOSSARY: FormatGlossary = {
  topic: 'StreamProfileBench',
  terms: [
    ...Object.values(METRIC_NAMES).map((n) => spb(n.short, n.long, n.definition, n.unit)),
    ...(Object.keys(CLASS_NAMES) as PoolClass[]).map((cls): GlossaryTerm => ({
      ...spb(CLASS_NAMES[cls].name, POOL_LONG[cls], POOL_DEFINITIONS[cls]),
      ...(CLASS_NAMES[cls].stored !== CLASS_NAMES[cls].name ? { aliases: [CLASS_NAMES[cls].stored] } : {}),
    })),
    spb('C', 'candidate pool', 'the tags of a step the model picks from: its positives and its distractors.'),
    spb('k', 'picks asked for', 'how many tags the model must pick: max(1, round(0.25·|C|)).'),
    spb('K', 'positives', 'the number of positives in the pool, |T_keep ∪ T_new|.'),
    spb('δ', 'distractor picks', 'the number of distinct picks that are distractors.'),
    spb('B', 'budget', 'the share of a K-pick budget not spent on distractors: 1 − δ/K.'),
    spb(
      'α',
      'recurring share',
      'the share of the positives that recur, |T_keep| / K; it belongs to the data, not to a run (α·R_stab + (1−α)·R_nov = B).',
    ),
    spb('ρ', 'novelty-to-stability ratio', 'R_nov / R_stab; undefined when either is undefined or R_stab is 0.'),
    spb(
      'M̄',
      'two-level macro average',
      'the mean over a user’s steps, then over users, skipping undefined values, as the reference does.',
      '%',
    ),
    spb('Avg.', 'average over platforms', 'the mean of the five platforms’ figures.', '%'),
  ],
  words: [METRIC_NAMES.Recall.long],
};
