// The step view's words: the pool groups' labels and tooltips, each metric's label, group and tooltip, the order the
// metrics are shown in, and how their values are written.
import { METRIC_VIEW_ORDER } from '../names';
import type { MetricKey, PoolClass } from '../types';

export type MetricGroup = 'recall' | 'error' | 'diagnostic';

export interface MetricCell {
  key: MetricKey | 'K' | 'delta' | 'budget' | 'alpha' | 'ratio';
  label: string;
  group: MetricGroup;
  /** null when undefined (NaN: empty denominator) or not available. */
  value: number | null;
  text: string;
  tooltip: string;
}

export const GROUP_LABELS: Record<PoolClass, string> = {
  tKeep: 'T_keep',
  tNew: 'T_new',
  dDecay: 'D_decay',
  dPeer: 'D_peer',
  dViral: 'D_viral',
  dRandom: 'D_random',
};

export const GROUP_TOOLTIPS: Record<PoolClass, string> = {
  tKeep: 'T_keep (positive): tags of the target window that the user had already used before.',
  tNew: 'T_new (positive): tags of the target window that the user had never used before.',
  dDecay: 'D_decay (distractor): tags the user used recently that do not recur in the target window.',
  dPeer: 'D_peer (distractor, stored as D_cluster): semantic neighbours of a positive tag.',
  dViral: 'D_viral (distractor): platform-wide trending tags of the target day.',
  dRandom: 'D_random (distractor): uniform samples of the tag vocabulary.',
};

export const METRIC_INFO: Record<MetricCell['key'], { label: string; group: MetricGroup; tooltip: string }> = {
  Recall: {
    label: 'R',
    group: 'recall',
    tooltip:
      'Recall: |P ∩ (T_new ∪ T_keep)| / |T_new ∪ T_keep|, the share of the positives the model picked (P = distinct picks).',
  },
  Recall_Stability: {
    label: 'R_stab',
    group: 'recall',
    tooltip:
      'Recall_Stability: |P ∩ T_keep| / |T_keep|, the share of recurring tags picked. Undefined when T_keep is empty.',
  },
  Recall_Novelty: {
    label: 'R_nov',
    group: 'recall',
    tooltip: 'Recall_Novelty: |P ∩ T_new| / |T_new|, the share of new tags picked. Undefined when T_new is empty.',
  },
  Error_Decay: {
    label: 'Err_decay',
    group: 'error',
    tooltip:
      'Error_Decay: |P ∩ D_decay| / |D_decay|, the share of decayed (no longer used) tags picked. Undefined when D_decay is empty.',
  },
  Error_Peer: {
    label: 'Err_peer',
    group: 'error',
    tooltip:
      'Error_Peer: |P ∩ D_peer| / |D_peer|, the share of peer distractors (D_cluster, neighbours of a positive) picked. Undefined when empty.',
  },
  Error_Viral: {
    label: 'Err_viral',
    group: 'error',
    tooltip:
      'Error_Viral: |P ∩ D_viral| / |D_viral|, the share of trending distractors picked. Undefined when D_viral is empty.',
  },
  Error_Random: {
    label: 'Err_random',
    group: 'error',
    tooltip:
      'Error_Random: |P ∩ D_random| / |D_random|, the share of random distractors picked. Undefined when D_random is empty.',
  },
  K: { label: 'K', group: 'diagnostic', tooltip: 'K = |C+| = |T_keep ∪ T_new|, the number of positives in the pool.' },
  delta: {
    label: 'δ',
    group: 'diagnostic',
    tooltip: 'δ: the number of distinct picks that fall in C- (the distractors).',
  },
  budget: {
    label: 'B',
    group: 'diagnostic',
    tooltip: 'Budget B = 1 − δ/K: the share of a K-pick budget not spent on distractors.',
  },
  alpha: {
    label: 'α',
    group: 'diagnostic',
    tooltip:
      'α = |T_keep| / K: the share of the positives that are recurring tags. With exactly K distinct in-pool picks, α·R_stab + (1−α)·R_nov = B.',
  },
  ratio: {
    label: 'ρ',
    group: 'diagnostic',
    tooltip: 'ρ = R_nov / R_stab: novelty vs stability recall. Undefined when either is undefined or R_stab = 0.',
  },
};

export const METRIC_ORDER: MetricCell['key'][] = [...METRIC_VIEW_ORDER, 'K', 'delta', 'budget', 'alpha', 'ratio'];

/** Rates as percentages with one decimal, K and δ as integers, B, α, ρ with two decimals; "—" when undefined. */
export function formatMetric(key: MetricCell['key'], value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '—';
  if (key === 'K' || key === 'delta') return String(value);
  if (key === 'budget' || key === 'alpha' || key === 'ratio') return value.toFixed(2);
  return `${(value * 100).toFixed(1)} %`;
}
