// The label definitions and the default label sets: the failure modes of each benchmark (named after the pool class
// they describe: "D_viral pick", "Missed T_new"; ids are what the database keeps, so renaming a label never touches a
// stored row). taxonomy.ts validates a workspace's labels.json into these.
import { missedLabelName, pickLabelName } from '../spb/names';

/**
 * The most specific target a label may be put on. Every label can go on a whole step; 'tag' labels may also go on
 * one tag of the pool, 'persona-span' labels on a selected span of the persona (or another text field).
 */
export type LabelScope = 'step' | 'tag' | 'persona-span';
export const LABEL_SCOPES: readonly LabelScope[] = ['step', 'tag', 'persona-span'];

export interface LabelDef {
  id: string;
  name: string;
  description: string;
  /** One character that toggles the label in the step view. */
  key?: string;
  scope: LabelScope;
  /** How to decide on this label (labels.json's `guide`), shown on the chip's hover and in the views' `?` sheet. */
  guide?: string;
}

/** The longest `guide` a label set keeps, in characters (code points): a few short paragraphs. */
export const LABEL_GUIDE_MAX = 1000;

export const DEFAULT_LABELS: readonly LabelDef[] = [
  {
    id: 'decay-error',
    name: pickLabelName('dDecay'),
    description: 'Picked a D_decay tag: recently used, does not recur.',
    key: '1',
    scope: 'tag',
  },
  {
    id: 'peer-confusion',
    name: pickLabelName('dPeer'),
    description: 'Picked a D_peer tag: a semantic neighbour of a positive.',
    key: '2',
    scope: 'tag',
  },
  {
    id: 'popularity-bias',
    name: pickLabelName('dViral'),
    description: 'Picked a D_viral tag: trending on the platform that day.',
    key: '3',
    scope: 'tag',
  },
  {
    id: 'random-pick',
    name: pickLabelName('dRandom'),
    description: 'Picked a D_random tag: a uniform sample of the vocabulary.',
    key: '4',
    scope: 'tag',
  },
  {
    id: 'missed-novelty',
    name: missedLabelName('tNew'),
    description: 'A T_new tag (never used before) was not picked.',
    key: '5',
    scope: 'tag',
  },
  {
    id: 'missed-stability',
    name: missedLabelName('tKeep'),
    description: 'A T_keep tag (already used) was not picked.',
    key: '6',
    scope: 'tag',
  },
  {
    id: 'format-error',
    name: 'Format error',
    description: 'Not JSON, wrong count, duplicates or out-of-pool picks.',
    key: '7',
    scope: 'step',
  },
  {
    id: 'persona-drift',
    name: 'Persona drift',
    description: 'The persona lost or invented facts.',
    key: '8',
    scope: 'persona-span',
  },
  {
    id: 'pi-leak',
    name: 'PI leak',
    description: 'Personal information slipped through the masking.',
    key: '9',
    scope: 'persona-span',
  },
  {
    id: 'bad-ground-truth',
    name: 'Bad ground truth',
    description: 'The data itself is wrong (split, pool or target).',
    key: '0',
    scope: 'tag',
  },
];

/**
 * The default failure modes of a trace's prediction (a test action, or one record of the history before it),
 * after the paper's diagnostics: simulators that act far more often than users and answer alike for everyone.
 */
export const DEFAULT_TRACE_LABELS: readonly LabelDef[] = [
  {
    id: 'hyper-activity',
    name: 'Hyper-activity',
    description: 'Predicted an action (Yes) that the user did not take.',
    key: '1',
    scope: 'step',
  },
  {
    id: 'missed-action',
    name: 'Missed action',
    description: 'Predicted No where the user acted.',
    key: '2',
    scope: 'step',
  },
  {
    id: 'homogenised',
    name: 'Homogenised',
    description: "Ignores this user's own habits: any user would get the same answer.",
    key: '3',
    scope: 'step',
  },
  {
    id: 'history-misread',
    name: 'History misread',
    description: 'Misreads or ignores the history before the test action.',
    key: '4',
    scope: 'step',
  },
  {
    id: 'context-misread',
    name: 'Context misread',
    description: 'Misreads the scene context (video, live room, item, ad).',
    key: '5',
    scope: 'step',
  },
  {
    id: 'watch-time-off',
    name: 'Watch time off',
    description: "Far from the video's duration or the user's usual watching.",
    key: '6',
    scope: 'step',
  },
  {
    id: 'utterance-off',
    name: 'Utterance off',
    description: 'The predicted customer-service message is off in intent or tone.',
    key: '7',
    scope: 'step',
  },
  {
    id: 'format-error',
    name: 'Format error',
    description: 'No usable answer in the raw output (not Yes / No, not a number).',
    key: '8',
    scope: 'step',
  },
  {
    id: 'pi-leak',
    name: 'PI leak',
    description: 'Personal information slipped through the masking.',
    key: '9',
    scope: 'step',
  },
  {
    id: 'bad-ground-truth',
    name: 'Bad ground truth',
    description: 'The record or the true value itself is wrong.',
    key: '0',
    scope: 'step',
  },
];

/** Keys the step view keeps for itself (next / previous step). */
export const DEFAULT_RESERVED_KEYS: readonly string[] = ['j', 'k'];
