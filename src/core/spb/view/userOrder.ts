// The orders StreamProfileBench users can be listed in (Sort Users By…): as in the tasks file (the default), by id,
// labelled first, or by one of the core's per-user figures (RunScore.userScores, the numbers the platform figures
// average). Recalls sort lowest first and error rates highest first, so that the users who fail come first.
import type { UserScore } from '../score/step';
import { userF1ns } from '../score/step';
import { FIGURE_VIEW_ORDER, METRIC_NAMES } from '../names';
import { METRIC_KEYS } from '../types';
import { ID_ORDER, LABELLED_ORDER, sortByFigure, type OrderKeyInfo, type UserOrder } from '../../userOrder';

/** The figures in METRIC_KEYS order (Recall first), F1^NS after recall. */
export const SPB_ORDER_KEYS = ['file', 'id', 'labelled', 'Recall', 'F1NS', ...METRIC_KEYS.slice(1)] as const;
export type SpbOrderKey = (typeof SPB_ORDER_KEYS)[number];
/** The per-user figures, in the order a tooltip lists them. */
export type SpbFigureKey = Exclude<SpbOrderKey, 'file' | 'id' | 'labelled'>;
export const SPB_FIGURE_KEYS: readonly SpbFigureKey[] = FIGURE_VIEW_ORDER;

export const SPB_DEFAULT_ORDER: UserOrder<SpbOrderKey> = { key: 'file', direction: 'ascending' };

/** A figure's label is its short name, its name the long one (src/core/spb/names.ts). */
const figure = (key: keyof typeof METRIC_NAMES, direction: OrderKeyInfo['direction']): OrderKeyInfo => ({
  label: METRIC_NAMES[key].short,
  name: METRIC_NAMES[key].long,
  symbol: METRIC_NAMES[key].short,
  figure: true,
  direction,
  ascendingText: 'lowest first',
  descendingText: 'highest first',
});
const recall = (key: keyof typeof METRIC_NAMES) => figure(key, 'ascending');
const error = (key: keyof typeof METRIC_NAMES) => figure(key, 'descending');

export const SPB_ORDER_INFO: Readonly<Record<SpbOrderKey, OrderKeyInfo>> = {
  file: {
    label: 'File order',
    name: 'File order',
    direction: 'ascending',
    ascendingText: 'as the tasks file lists them',
    descendingText: 'the tasks file from its end',
  },
  id: ID_ORDER,
  labelled: LABELLED_ORDER,
  Recall: recall('Recall'),
  F1NS: recall('F1NS'),
  Recall_Novelty: recall('Recall_Novelty'),
  Recall_Stability: recall('Recall_Stability'),
  Error_Decay: error('Error_Decay'),
  Error_Peer: error('Error_Peer'),
  Error_Viral: error('Error_Viral'),
  Error_Random: error('Error_Random'),
};

/** One per-user figure of the core's score; undefined when the user has no scored step. NaN: undefined metric. */
export function spbUserFigure(key: SpbFigureKey, score: UserScore | undefined): number | undefined {
  if (!score) return undefined;
  return key === 'F1NS' ? userF1ns(score) : score.metrics[key];
}

export interface SortableUser {
  user: { userId: string };
  score: UserScore | undefined;
}

/** `rows` (in file order) in `order`; `labelled` says whether a user carries labels (only read for the labelled-first order). */
export function sortSpbUsers<T extends SortableUser>(
  rows: readonly T[],
  order: UserOrder<SpbOrderKey>,
  labelled: (row: T) => boolean,
): T[] {
  const { key, direction } = order;
  const id = (row: T) => row.user.userId;
  if (key === 'file') return direction === 'ascending' ? [...rows] : [...rows].reverse();
  if (key === 'id') return sortByFigure(rows, id, null, direction);
  if (key === 'labelled') return sortByFigure(rows, id, (row) => (labelled(row) ? 1 : 0), direction);
  return sortByFigure(rows, id, (row) => spbUserFigure(key, row.score), direction);
}
