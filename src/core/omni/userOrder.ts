// The orders OmniBehavior users can be listed in (Sort Users By…): by id, labelled first, or by what the core's
// score says of their answers (OmniRunScore.perAction summed over a user's test actions): the wrong answers, the
// share right, the answers left out. Worst first by default.
import { ID_ORDER, LABELLED_ORDER, sortByFigure, type OrderKeyInfo, type UserOrder } from '../userOrder';
import type { ActionCounts } from './score';

export const OMNI_ORDER_KEYS = ['id', 'labelled', 'incorrect', 'shareRight', 'leftOut'] as const;
export type OmniOrderKey = (typeof OMNI_ORDER_KEYS)[number];

export const OMNI_DEFAULT_ORDER: UserOrder<OmniOrderKey> = { key: 'id', direction: 'ascending' };

const counted = (label: string, name: string, direction: OrderKeyInfo['direction']): OrderKeyInfo => ({
  label,
  name,
  figure: true,
  direction,
  ascendingText: 'fewest first',
  descendingText: 'most first',
});

export const OMNI_ORDER_INFO: Readonly<Record<OmniOrderKey, OrderKeyInfo>> = {
  id: ID_ORDER,
  labelled: LABELLED_ORDER,
  incorrect: counted('Wrong answers', 'Wrong answers', 'descending'),
  shareRight: {
    label: 'Share right',
    name: 'Share right',
    figure: true,
    direction: 'ascending',
    ascendingText: 'lowest first',
    descendingText: 'highest first',
  },
  leftOut: counted('Left out', 'Left out', 'descending'),
};

/** right / (right + wrong); undefined when the user has neither. */
export function shareRight(c: ActionCounts | undefined): number | undefined {
  if (!c || c.correct + c.incorrect === 0) return undefined;
  return c.correct / (c.correct + c.incorrect);
}

export interface SortableOmniUser {
  userId: string;
  /** undefined: no run selected */
  counts: ActionCounts | undefined;
  labelled: boolean;
}

export function sortOmniUsers<T extends SortableOmniUser>(rows: readonly T[], order: UserOrder<OmniOrderKey>): T[] {
  const { key, direction } = order;
  const id = (row: T) => row.userId;
  switch (key) {
    case 'id':
      return sortByFigure(rows, id, null, direction);
    case 'labelled':
      return sortByFigure(rows, id, (row) => (row.labelled ? 1 : 0), direction);
    case 'incorrect':
      return sortByFigure(rows, id, (row) => row.counts?.incorrect, direction);
    case 'shareRight':
      return sortByFigure(rows, id, (row) => shareRight(row.counts), direction);
    case 'leftOut':
      return sortByFigure(rows, id, (row) => row.counts?.leftOut, direction);
  }
}
