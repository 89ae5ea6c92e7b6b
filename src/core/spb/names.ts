// One name per thing: the metric and pool-class names every view, the CLI's text output and the README's glossary
// use. Short names are the paper's symbols written in plain text; LaTeX is what the paper typesets.
import type { MetricKey, Platform, PoolClass } from './types';

/** Each platform's name as every table, note and view prints it. */
export const PLATFORM_LABELS: Record<Platform, string> = {
  weibo: 'Weibo',
  xiaohongshu: 'Xiaohongshu',
  toutiao: 'Toutiao',
  zhihu: 'Zhihu',
  douban: 'Douban',
};

export interface MetricName {
  /** in tables, tiles, tree descriptions and the CLI: R, R_stab, Err_decay, F1^NS */
  short: string;
  /** in sentences and tooltips */
  long: string;
  latex: string;
  /** the reference runner's key (scores JSON, eval reports) */
  key: MetricKey | 'F1NS';
  /** one sentence in our words, for hovers and the glossary (src/core/glossary.ts) */
  definition: string;
  /** every view writes these seven as percentages (one decimal, two in the paper's tables) */
  unit: '%';
}

const m = (key: MetricKey | 'F1NS', short: string, long: string, latex: string, definition: string): MetricName => ({
  key,
  short,
  long,
  latex,
  definition,
  unit: '%',
});

export const METRIC_NAMES: Record<MetricKey | 'F1NS', MetricName> = {
  Recall: m(
    'Recall',
    'R',
    'Recall',
    '$R$',
    'the share of the step’s positives (T_keep and T_new) the model picked; higher is better.',
  ),
  Recall_Stability: m(
    'Recall_Stability',
    'R_stab',
    'Stability recall',
    '$R_{\\mathrm{stab}}$',
    'the share of the T_keep tags (positives the user had used before) the model picked; undefined when T_keep is empty.',
  ),
  Recall_Novelty: m(
    'Recall_Novelty',
    'R_nov',
    'Novelty recall',
    '$R_{\\mathrm{nov}}$',
    'the share of the T_new tags (positives the user had never used) the model picked; undefined when T_new is empty.',
  ),
  Error_Decay: m(
    'Error_Decay',
    'Err_decay',
    'Decay error rate',
    '$E_{\\mathrm{decay}}$',
    'the share of the D_decay tags (used recently, not recurring) the model picked; lower is better.',
  ),
  Error_Peer: m(
    'Error_Peer',
    'Err_peer',
    'Peer error rate',
    '$E_{\\mathrm{peer}}$',
    'the share of the D_peer tags (neighbours of a positive) the model picked; lower is better.',
  ),
  Error_Viral: m(
    'Error_Viral',
    'Err_viral',
    'Viral error rate',
    '$E_{\\mathrm{viral}}$',
    'the share of the D_viral tags (trending on the platform) the model picked; lower is better.',
  ),
  Error_Random: m(
    'Error_Random',
    'Err_random',
    'Random error rate',
    '$E_{\\mathrm{rand}}$',
    'the share of the D_random tags (drawn at random from the vocabulary) the model picked; lower is better.',
  ),
  F1NS: m(
    'F1NS',
    'F1^NS',
    'F1 of novelty and stability recall',
    '$\\mathrm{F1}^{\\mathrm{NS}}$',
    'the harmonic mean of R_nov and R_stab, taken per user as the reference does, then averaged; higher is better.',
  ),
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
