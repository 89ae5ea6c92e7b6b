// A label on a whole step, for the label store and label server tests: every field a test does not name is the same
// fixed value, so that a test's rows differ only where its assertion looks.
import type { LabelRow } from '../../src/core/labels/model';

export function stepLabel(fields: Partial<LabelRow> & Pick<LabelRow, 'author' | 'label'>): LabelRow {
  return {
    benchmark: 'bench',
    platform: 'weibo',
    userId: 'u1',
    stepId: 1,
    run: 'demo',
    target: { kind: 'step' },
    note: '',
    createdAt: '2026-12-04T10:00:00.000Z',
    contentHash: '',
    ...fields,
  };
}
