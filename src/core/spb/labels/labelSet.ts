// StreamProfileBench's default label set, `labels` in labels.json (a bare array there means this set too): the
// failure modes of a step, named after the pool class they describe ("D_viral pick", "Missed T_new").
import { piLeakLabel, type FormatLabelSet, type LabelDef } from '../../labels/labelDefs';
import { missedLabelName, pickLabelName } from '../names';

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
  piLeakLabel('persona-span'),
  {
    id: 'bad-ground-truth',
    name: 'Bad ground truth',
    description: 'The data itself is wrong (split, pool or target).',
    key: '0',
    scope: 'tag',
  },
];

export const STEP_LABEL_SET: FormatLabelSet = { key: 'labels', defaults: DEFAULT_LABELS };
