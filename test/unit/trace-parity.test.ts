// The trace view's labelling at parity with the step view's: the benchmark's order of test actions and the next
// unlabelled one (`.`), which label `n` writes the note of, the label target in words, the page's saved `restore`
// state (test action and revealed record), and the trace protocol's note and next-unlabelled messages.
import { describe, expect, it } from 'vitest';
import type { LabelRow, LabelTarget } from '../../src/core/labels/model';
import { nextUnlabelledAction, TraceLabelIndex, traceLabelKey } from '../../src/core/omni/labels/trace';
import { noteTarget, traceTargetText, type AppliedLabel } from '../../src/core/labels/view';
import { findAround } from '../../src/core/labels/walk';
import { actionsInOrder, testActionOrder, usersInOrder } from '../../src/core/omni/order';
import { LABEL_BAR_KEYS, RESERVED_LABEL_KEYS } from '../../src/shared/labelProtocol';
import { LABEL_KEYS, WEBVIEW_KEYS } from '../../src/shared/spb/stepViewProtocol';
import { isWebviewToExtension, restoreValue, savedRestore } from '../../src/shared/omni/traceProtocol';
import { fakeBench, type FakeAction } from './omni-fixture';

const act = (user: string, index: number): FakeAction => ({ user, index, scene: 'Video Browsing', questions: [] });
// Users and test actions out of order on purpose: the order is the tree's, not the file's.
const { bench } = fakeBench([act('u_2', 30), act('u_1', 12), act('u_2', 4), act('u_1', 7), act('u_3', 1)]);
const names = (list: readonly { userId: string; index: number }[]) => list.map((a) => `${a.userId}#${a.index}`);

function labelRow(userId: string, index: number, target: LabelTarget, author = 'me', run = 'r'): LabelRow {
  return {
    ...traceLabelKey({ benchmark: 'omni', userId, index, run }, target, author, 'pi-leak'),
    note: '',
    createdAt: '',
    contentHash: '',
  };
}

describe('the order of test actions', () => {
  it('lists users by id and each user’s test actions by their position in action_history', () => {
    expect(usersInOrder(bench).map((u) => u.userId)).toEqual(['u_1', 'u_2', 'u_3']);
    expect(names(actionsInOrder(bench.users.get('u_2')!))).toEqual(['u_2#4', 'u_2#30']);
    expect(names(testActionOrder(bench))).toEqual(['u_1#7', 'u_1#12', 'u_2#4', 'u_2#30', 'u_3#1']);
  });

  it('findAround goes round once from a position, the start itself last', () => {
    const list = ['a', 'b', 'c', 'd'];
    expect(findAround(list, 1, 1, (x) => x !== 'c', false)).toBe('d');
    expect(findAround(list, 3, 1, () => true, false)).toBeUndefined();
    expect(findAround(list, 3, 1, () => true, true)).toBe('a');
    expect(findAround(list, 2, 1, (x) => x === 'c', true)).toBe('c');
    expect(findAround(list, 0, -1, () => true, true)).toBe('d');
    expect(findAround(list, -1, -1, () => true, false)).toBe('d');
    expect(findAround([], 0, 1, () => true, true)).toBeUndefined();
  });
});

describe('the next unlabelled test action (the . key)', () => {
  const order = testActionOrder(bench);
  const next = (from: { userId: string; index: number } | undefined, rows: LabelRow[]) =>
    nextUnlabelledAction(order, from, new TraceLabelIndex(rows));

  it('skips test actions with a label on them or on one of their history records, across users', () => {
    const rows = [labelRow('u_1', 12, { kind: 'action' }), labelRow('u_2', 4, { kind: 'history', historyIndex: 2 })];
    expect(names([next({ userId: 'u_1', index: 7 }, rows)!])).toEqual(['u_2#30']);
  });

  it('wraps round to the start, and comes back to the one shown when it is the only one left', () => {
    const all = order.map((a) => labelRow(a.userId, a.index, { kind: 'action' }));
    const exceptFirst = all.slice(1);
    expect(names([next({ userId: 'u_3', index: 1 }, exceptFirst)!])).toEqual(['u_1#7']);
    expect(names([next({ userId: 'u_1', index: 7 }, exceptFirst)!])).toEqual(['u_1#7']);
    expect(next({ userId: 'u_1', index: 7 }, all)).toBeUndefined();
  });

  it('starts from the first test action when the one shown is not in the order', () => {
    expect(names([next({ userId: 'gone', index: 1 }, [])!])).toEqual(['u_1#7']);
    expect(names([next(undefined, [])!])).toEqual(['u_1#7']);
  });

  it('TraceLabelIndex.isLabelled counts a history record’s label for its test action only', () => {
    const ix = new TraceLabelIndex([labelRow('u_2', 30, { kind: 'history', historyIndex: 4 })]);
    expect(ix.isLabelled('u_2', 30)).toBe(true);
    expect(ix.isLabelled('u_2', 4)).toBe(false);
    expect(ix.isLabelled('u_9', 30)).toBe(false);
  });
});

describe('which label n writes the note of', () => {
  const applied = (labelId: string, target: LabelTarget): AppliedLabel => ({
    labelId,
    name: labelId,
    known: true,
    target,
    note: '',
    staleness: 'fresh',
    changed: null,
    createdAt: '',
    excerpt: '',
  });
  const onAction = applied('format-error', { kind: 'action' });
  const onRecord = applied('pi-leak', { kind: 'history', historyIndex: 3 });
  const onOther = applied('bad-ground-truth', { kind: 'history', historyIndex: 5 });
  const list = [onAction, onRecord, onOther];

  it('the label last added, else one on the target the keys label now, else the first', () => {
    expect(noteTarget(list, { labelId: 'bad-ground-truth', target: onOther.target }, { kind: 'action' })).toBe(onOther);
    expect(noteTarget(list, undefined, { kind: 'history', historyIndex: 3 })).toBe(onRecord);
    expect(noteTarget(list, undefined, { kind: 'action' })).toBe(onAction);
    expect(noteTarget([onRecord, onOther], undefined, { kind: 'action' })).toBe(onRecord);
    // The label last added was removed since: the target decides.
    expect(noteTarget(list, { labelId: 'random-pick', target: { kind: 'action' } }, onOther.target)).toBe(onOther);
    expect(noteTarget([], undefined, { kind: 'action' })).toBeUndefined();
  });

  it('is the step view’s rule with the whole step as the target', () => {
    const step = applied('format-error', { kind: 'step' });
    const tag = applied('pi-leak', { kind: 'tag', tag: '#a#' });
    expect(noteTarget([tag, step], undefined, { kind: 'step' })).toBe(step);
  });

  it('n, u and . are the same keys in both views and no label set may take them', () => {
    expect(LABEL_BAR_KEYS).toEqual({ note: 'n', undo: 'u', nextUnlabelled: '.' });
    expect([LABEL_KEYS.note, LABEL_KEYS.undo, LABEL_KEYS.nextUnlabelled]).toEqual(['n', 'u', '.']);
    for (const key of Object.values(LABEL_BAR_KEYS)) expect(RESERVED_LABEL_KEYS).toContain(key);
  });
});

describe('the label target in words', () => {
  it('names the test action, or the history record with its behaviours when known', () => {
    expect(traceTargetText(1149, { kind: 'action' })).toBe('test action #1149');
    expect(traceTargetText(1149, { kind: 'history', historyIndex: 3 }, ['search', 'show', 'click'])).toBe(
      'history record #3 (search, show, click)',
    );
    expect(traceTargetText(1149, { kind: 'history', historyIndex: 0 })).toBe('history record #0');
  });
});

describe('the trace page’s saved restore state', () => {
  const ref = { userId: 'u_1', index: 40 };

  it('round-trips the test action and the revealed record with its target', () => {
    for (const record of [null, { index: 3, target: true }, { index: 0, target: false }]) {
      expect(savedRestore({ open: {}, restore: restoreValue({ ref, record }) })).toEqual({ ref, record });
    }
  });

  it('reads the state pages saved before the record was kept, and refuses what is not a test action', () => {
    expect(savedRestore({ restore: { userId: 'u_1', index: 40 } })).toEqual({ ref, record: null });
    // Without recordTarget the record was the target (the reveal makes it so).
    expect(savedRestore({ restore: { userId: 'u_1', index: 40, record: 2 } })).toEqual({
      ref,
      record: { index: 2, target: true },
    });
    expect(savedRestore({ restore: { userId: 'u_1', index: 40, record: 40 } })?.record).toBeNull();
    expect(savedRestore({ restore: { userId: 'u_1', index: 40, record: -1 } })?.record).toBeNull();
    expect(savedRestore({ restore: { userId: 'u_1', index: 1.5 } })).toBeUndefined();
    expect(savedRestore({ restore: { userId: 7, index: 1 } })).toBeUndefined();
    expect(savedRestore({ open: {} })).toBeUndefined();
    expect(savedRestore(null)).toBeUndefined();
  });
});

describe('the trace protocol’s note and next-unlabelled messages', () => {
  const ref = { userId: 'u_1', index: 40 };
  const label = (action: unknown) => isWebviewToExtension({ type: 'label', action });

  it('accepts a note on the test action or a history record, and the next unlabelled request', () => {
    expect(
      label({ kind: 'setNote', ref, labelId: 'pi-leak', target: { kind: 'action' }, note: 'a phone number' }),
    ).toBe(true);
    expect(
      label({ kind: 'setNote', ref, labelId: 'pi-leak', target: { kind: 'history', historyIndex: 3 }, note: '' }),
    ).toBe(true);
    expect(label({ kind: 'nextUnlabelled', ref })).toBe(true);
  });

  it('refuses a note on a step view target, without a note, or a next unlabelled without the test action', () => {
    expect(label({ kind: 'setNote', ref, labelId: 'pi-leak', target: { kind: 'step' }, note: 'x' })).toBe(false);
    expect(label({ kind: 'setNote', ref, labelId: 'pi-leak', target: { kind: 'action' } })).toBe(false);
    expect(label({ kind: 'nextUnlabelled' })).toBe(false);
    expect(label({ kind: 'nextUnlabelled', ref: { userId: 'u_1', index: -1 } })).toBe(false);
  });
});

describe('reserved label keys', () => {
  it('reserve every key the step view walks with', () => {
    for (const key of Object.keys(WEBVIEW_KEYS)) expect(RESERVED_LABEL_KEYS).toContain(key);
  });
});
