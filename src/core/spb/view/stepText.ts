// The step view's words: the pool groups' labels and tooltips, each metric's label, group and tooltip, the order the
// metrics are shown in, and how their values are written.
import { hoverText, MISSING } from '../../glossary';
import { CLASS_NAMES, METRIC_NAMES, METRIC_VIEW_ORDER } from '../names';
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

/** The pool class's hover: "T_keep (recurring positives): positive: …". */
const poolClassHover = (cls: PoolClass): string => hoverText(CLASS_NAMES[cls].name);

/** Each pool class's hover: its glossary entry (src/core/glossary.ts). */
export const GROUP_TOOLTIPS: Record<PoolClass, string> = {
  tKeep: poolClassHover('tKeep'),
  tNew: poolClassHover('tNew'),
  dDecay: poolClassHover('dDecay'),
  dPeer: poolClassHover('dPeer'),
  dViral: poolClassHover('dViral'),
  dRandom: poolClassHover('dRandom'),
};

/** A metric's tile: its short name, group and hover (the glossary's sentence, then how this step computes it). */
const cell = (label: string, group: MetricGroup, formula: string) => ({
  label,
  group,
  tooltip: `${hoverText(label)} ${formula}`,
});
const rate = (key: MetricKey, group: MetricGroup, formula: string) => cell(METRIC_NAMES[key].short, group, formula);

export const METRIC_INFO: Record<MetricCell['key'], { label: string; group: MetricGroup; tooltip: string }> = {
  Recall: rate('Recall', 'recall', 'This step: |P ∩ (T_new ∪ T_keep)| / |T_new ∪ T_keep|, P the distinct picks.'),
  Recall_Stability: rate('Recall_Stability', 'recall', 'This step: |P ∩ T_keep| / |T_keep|.'),
  Recall_Novelty: rate('Recall_Novelty', 'recall', 'This step: |P ∩ T_new| / |T_new|.'),
  Error_Decay: rate('Error_Decay', 'error', 'This step: |P ∩ D_decay| / |D_decay|; undefined when D_decay is empty.'),
  Error_Peer: rate('Error_Peer', 'error', 'This step: |P ∩ D_peer| / |D_peer|; undefined when D_peer is empty.'),
  Error_Viral: rate('Error_Viral', 'error', 'This step: |P ∩ D_viral| / |D_viral|; undefined when D_viral is empty.'),
  Error_Random: rate(
    'Error_Random',
    'error',
    'This step: |P ∩ D_random| / |D_random|; undefined when D_random is empty.',
  ),
  K: cell('K', 'diagnostic', 'A count.'),
  delta: cell('δ', 'diagnostic', 'A count.'),
  budget: cell('B', 'diagnostic', 'A fraction, 0 to 1.'),
  alpha: cell(
    'α',
    'diagnostic',
    'A fraction, 0 to 1; with exactly K distinct in-pool picks, α·R_stab + (1−α)·R_nov = B.',
  ),
  ratio: cell('ρ', 'diagnostic', 'A ratio.'),
};

export const METRIC_ORDER: MetricCell['key'][] = [...METRIC_VIEW_ORDER, 'K', 'delta', 'budget', 'alpha', 'ratio'];

/** Rates as percentages with one decimal, K and δ as integers, B, α, ρ with two decimals; MISSING ("—") when undefined. */
export function formatMetric(key: MetricCell['key'], value: number | null): string {
  if (value === null || !Number.isFinite(value)) return MISSING;
  if (key === 'K' || key === 'delta') return String(value);
  if (key === 'budget' || key === 'alpha' || key === 'ratio') return value.toFixed(2);
  return `${(value * 100).toFixed(1)} %`;
}
