// The trace view's labels bar state (labels/omni/viewState.ts) and the trace protocol's label messages.
import { describe, expect, it } from 'vitest';
import type { LabelRow } from '../../src/core/labels/model';
import { DEFAULT_LABELS } from '../../src/core/labels/taxonomy';
import type { TraceStaleness } from '../../src/core/labels/trace';
import { buildTraceLabelState } from '../../src/extension/labels/omni/viewState';
import { isExtensionToWebview, isWebviewToExtension } from '../../src/shared/traceProtocol';

const row = (label: string, target: LabelRow['target'], author = 'me'): LabelRow => ({
  benchmark: 'omnibehavior',
  platform: 'omnibehavior',
  userId: 'u_1',
  stepId: 40,
  run: 'r',
  author,
  target,
  label,
  note: '',
  createdAt: '2026-01-01T00:00:00Z',
  contentHash: 'h',
});

describe('buildTraceLabelState', () => {
  it('lists this author’s labels with their staleness and groups the labelled history records', () => {
    const a = row('decay-error', { kind: 'action' });
    const h1 = row('peer-confusion', { kind: 'history', historyIndex: 7 });
    const h2 = row('pi-leak', { kind: 'history', historyIndex: 7 });
    const h3 = row('random-pick', { kind: 'history', historyIndex: 3 });
    const other = row('format-error', { kind: 'action' }, 'someone else');
    const freshness = new Map<LabelRow, TraceStaleness>([
      [a, 'fresh'],
      [h1, 'stale'],
      [h2, 'fresh'],
      [h3, 'missing'],
    ]);
    const s = buildTraceLabelState({
      ref: { userId: 'u_1', index: 40 },
      run: 'r',
      author: 'me',
      labels: DEFAULT_LABELS,
      rows: [a, h1, h2, h3, other],
      freshness,
      canUndo: true,
      error: null,
      labelSetNote: null,
      flash: null,
    });
    expect(s.labels.map((l) => l.key)).toEqual(DEFAULT_LABELS.map((l) => l.key));
    expect(s.applied.map((x) => `${x.labelId}:${x.staleness}`)).toEqual([
      'decay-error:fresh',
      'peer-confusion:stale',
      'pi-leak:fresh',
      'random-pick:stale',
    ]);
    expect(s.history).toEqual([
      { index: 3, names: ['D_random pick'], stale: true },
      { index: 7, names: ['D_peer pick', 'PI leak'], stale: true },
    ]);
    expect(isExtensionToWebview({ type: 'labels', state: s })).toBe(true);
  });

  it('shows a label without a staleness check as unknown, never stale', () => {
    const a = row('decay-error', { kind: 'action' });
    const s = buildTraceLabelState({
      ref: { userId: 'u_1', index: 40 },
      run: '',
      author: 'me',
      labels: DEFAULT_LABELS,
      rows: [a],
      freshness: new Map(),
      canUndo: false,
      error: null,
      labelSetNote: null,
      flash: null,
    });
    expect(s.applied[0].staleness).toBe('unknown');
    expect(s.history).toEqual([]);
  });
});

// The label messages are shaped as the step view's (src/shared/labelProtocol.ts): { type: 'label', action }.
const toggle = (action: Record<string, unknown>) => ({ type: 'label', action: { kind: 'toggle', ...action } });

describe('trace protocol label messages', () => {
  it('accepts toggles on the test action or a history record, and undo', () => {
    expect(
      isWebviewToExtension(toggle({ ref: { userId: 'u', index: 3 }, labelId: 'x', target: { kind: 'action' } })),
    ).toBe(true);
    expect(
      isWebviewToExtension(
        toggle({ ref: { userId: 'u', index: 3 }, labelId: 'x', target: { kind: 'history', historyIndex: 1 } }),
      ),
    ).toBe(true);
    expect(isWebviewToExtension({ type: 'label', action: { kind: 'undo' } })).toBe(true);
    expect(isExtensionToWebview({ type: 'reveal', index: 4 })).toBe(true);
  });

  it('rejects other targets and malformed toggles', () => {
    expect(
      isWebviewToExtension(toggle({ ref: { userId: 'u', index: 3 }, labelId: 'x', target: { kind: 'step' } })),
    ).toBe(false);
    expect(
      isWebviewToExtension(
        toggle({ ref: { userId: 'u', index: 3 }, labelId: 'x', target: { kind: 'history', historyIndex: -1 } }),
      ),
    ).toBe(false);
    expect(isWebviewToExtension(toggle({ ref: { userId: 'u' }, labelId: 'x', target: { kind: 'action' } }))).toBe(
      false,
    );
    expect(isExtensionToWebview({ type: 'reveal', index: 'a' })).toBe(false);
    // the step view's other actions, and the former trace-only message shapes
    expect(
      isWebviewToExtension({ type: 'label', action: { kind: 'move', ref: { userId: 'u', index: 3 }, delta: 1 } }),
    ).toBe(false);
    expect(
      isWebviewToExtension({
        type: 'labelToggle',
        ref: { userId: 'u', index: 3 },
        labelId: 'x',
        target: { kind: 'action' },
      }),
    ).toBe(false);
    expect(isWebviewToExtension({ type: 'labelUndo' })).toBe(false);
  });
});
