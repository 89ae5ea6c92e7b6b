// One name per thing: the metric and pool-class names every view, the CLI's text output and the README's glossary
// use. Short names are the paper's symbols written in plain text; LaTeX is what the paper typesets.
import type { MetricKey, PoolClass } from './types';

export interface MetricName {
  /** in tables, tiles, tree descriptions and the CLI: R, R_stab, Err_decay, F1^NS */
  short: string;
  /** in sentences and tooltips */
  long: string;
  latex: string;
  /** the reference runner's key (scores JSON, eval reports) */
  key: MetricKey | 'F1NS';
}

const m = (key: MetricKey | 'F1NS', short: string, long: string, latex: string): MetricName => ({
  key,
  short,
  long,
  latex,
});

export const METRIC_NAMES: Record<MetricKey | 'F1NS', MetricName> = {
  Recall: m('Recall', 'R', 'Recall', '$R$'),
  Recall_Stability: m('Recall_Stability', 'R_stab', 'Stability recall', '$R_{\\mathrm{stab}}$'),
  Recall_Novelty: m('Recall_Novelty', 'R_nov', 'Novelty recall', '$R_{\\mathrm{nov}}$'),
  Error_Decay: m('Error_Decay', 'Err_decay', 'Decay error rate', '$E_{\\mathrm{decay}}$'),
  Error_Peer: m('Error_Peer', 'Err_peer', 'Peer error rate', '$E_{\\mathrm{peer}}$'),
  Error_Viral: m('Error_Viral', 'Err_viral', 'Viral error rate', '$E_{\\mathrm{viral}}$'),
  Error_Random: m('Error_Random', 'Err_random', 'Random error rate', '$E_{\\mathrm{rand}}$'),
  F1NS: m('F1NS', 'F1^NS', 'F1 of novelty and stability recall', '$\\mathrm{F1}^{\\mathrm{NS}}$'),
};

/**
 * The order views list the seven metrics in: recall, stability before novelty, then the four error rates (the step
 * view, the long-context comparison). METRIC_KEYS (types.ts) keeps the reference runner's order, novelty first, which
 * scores files, the index, the paper tables and Sort Users By follow.
 */
export const METRIC_VIEW_ORDER = [
  'Recall',
  'Recall_Stability',
  'Recall_Novelty',
  'Error_Decay',
  'Error_Peer',
  'Error_Viral',
  'Error_Random',
] as const satisfies readonly MetricKey[];

/** The same with F1^NS after recall: the per-user figures' tooltips and the experiments. */
export const FIGURE_VIEW_ORDER: readonly (MetricKey | 'F1NS')[] = ['Recall', 'F1NS', ...METRIC_VIEW_ORDER.slice(1)];

/** A short name (as a table head shows it) back to its metric, for LaTeX heads. */
export function metricByShort(short: string): MetricName | undefined {
  return Object.values(METRIC_NAMES).find((n) => n.short === short);
}

/** Pool classes by the paper's names; `stored` is the task file's meta key (only D_peer differs: D_cluster). */
export const CLASS_NAMES: Record<PoolClass, { name: string; stored: string }> = {
  tKeep: { name: 'T_keep', stored: 'T_keep' },
  tNew: { name: 'T_new', stored: 'T_new' },
  dDecay: { name: 'D_decay', stored: 'D_decay' },
  dPeer: { name: 'D_peer', stored: 'D_cluster' },
  dViral: { name: 'D_viral', stored: 'D_viral' },
  dRandom: { name: 'D_random', stored: 'D_random' },
};

/** The default label for a picked distractor of a class, named after the class: "D_viral pick". */
export const pickLabelName = (cls: 'dDecay' | 'dPeer' | 'dViral' | 'dRandom'): string =>
  `${CLASS_NAMES[cls].name} pick`;
/** The default label for a positive class none of whose tags was picked: "Missed T_new". */
export const missedLabelName = (cls: 'tNew' | 'tKeep'): string => `Missed ${CLASS_NAMES[cls].name}`;
