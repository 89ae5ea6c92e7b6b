import { mkdtempSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LabelRow } from '../../src/core/labels/model';
import { LabelStore } from '../../src/core/labels/store';
import { parseLabelSet } from '../../src/core/labels/taxonomy';
import { DEFAULT_LABELS } from '../../src/core/spb/labels/labelSet';
import {
  codePointOffset,
  describeTarget,
  effectiveTarget,
  sameTarget,
  spanText,
  targetAllowed,
  utf16Offset,
  staleText,
} from '../../src/core/labels/view';
import { authorName, benchmarkId, dbPath, labelSetPath, labelsHome } from '../../src/extension/labels/paths';
import { UndoStack } from '../../src/extension/labels/undo';
import { buildLabelView } from '../../src/extension/benchmarks/spb/labels/viewState';
import { isExtensionToWebview, isWebviewToExtension } from '../../src/shared/spb/stepViewProtocol';
import { RESERVED_LABEL_KEYS } from '../../src/shared/labelProtocol';

const ref = { platform: 'weibo' as const, userId: 'we_0000000001', stepId: 2 };
const row = (over: Partial<LabelRow>): LabelRow => ({
  benchmark: 'sample',
  platform: 'weibo',
  userId: ref.userId,
  stepId: 2,
  run: 'gpt',
  author: 'me',
  target: { kind: 'step' },
  label: 'decay-error',
  note: '',
  createdAt: '2025-01-01T00:00:00.000Z',
  contentHash: 'h1',
  ...over,
});

describe('label targets', () => {
  it('lets every label sit on a step, tag labels on a tag, span labels on a span', () => {
    const tag = { kind: 'tag' as const, tag: '#a#' };
    const span = { kind: 'span' as const, field: 'persona_summary', start: 0, end: 2 };
    expect(targetAllowed('step', { kind: 'step' })).toBe(true);
    expect(targetAllowed('step', tag)).toBe(false);
    expect(targetAllowed('tag', tag)).toBe(true);
    expect(targetAllowed('tag', span)).toBe(false);
    expect(targetAllowed('persona-span', span)).toBe(true);
    expect(effectiveTarget('step', tag)).toEqual({ kind: 'step' });
    expect(effectiveTarget('tag', tag)).toEqual(tag);
    expect(effectiveTarget('tag', null)).toEqual({ kind: 'step' });
    expect(sameTarget(span, { ...span })).toBe(true);
    expect(sameTarget(span, { ...span, end: 3 })).toBe(false);
    expect(describeTarget(tag)).toBe('tag #a#');
    expect(describeTarget(span, '一二三四五六七八九十一二三四五六七八九十一二三四五')).toBe(
      'persona span “一二三四五六七八九十一二三四五六七八九十一二三四…”',
    );
  });

  it('counts span offsets in code points, as Python does', () => {
    const text = 'a😀b大c';
    expect(codePointOffset(text, 3)).toBe(2); // 'a' + the two UTF-16 units of the emoji
    expect(utf16Offset(text, 2)).toBe(3);
    expect(utf16Offset(text, 99)).toBe(text.length);
    expect(spanText(text, 1, 4)).toBe('😀b大');
    expect(spanText(text, 3, 9)).toBe('');
    expect(spanText(text, 2, 2)).toBe('');
  });
});

describe('buildLabelView', () => {
  const base = {
    ref,
    run: 'gpt',
    author: 'me',
    labels: DEFAULT_LABELS,
    // 'h1' is the full hash older rows hold; new rows hold the part hashes.
    currentHash: { full: 'h1', parts: { pool: 'p1', split: 's1', posts: 't1' } },
    persona: '用户是医学生',
    canUndo: false,
  };

  it("splits this author's labels from others', marks stale ones and unknown ids", () => {
    const view = buildLabelView({
      ...base,
      rows: [
        row({}),
        row({
          label: 'persona-drift',
          target: { kind: 'span', field: 'persona_summary', start: 3, end: 6 },
          contentHash: 'old',
        }),
        row({ label: 'retired-label', contentHash: '' }),
        row({ author: 'bob', label: 'pi-leak' }),
      ],
      suggestions: [],
    });
    expect(view.applied.map((a) => [a.labelId, a.staleness, a.known, a.excerpt])).toEqual([
      ['decay-error', 'fresh', true, ''],
      ['persona-drift', 'stale', true, '医学生'],
      ['retired-label', 'unknown', false, ''],
    ]);
    expect(view.applied[2].name).toBe('retired-label');
    expect(view.applied[1].changed).toBeNull(); // an older row: stale, but which part is not known
    expect(view.others).toEqual([{ author: 'bob', labelId: 'pi-leak', name: 'PI leak' }]);
    expect(view.labels[0]).toEqual({
      id: 'decay-error',
      name: 'D_decay pick',
      description: DEFAULT_LABELS[0].description,
      key: '1',
      scope: 'tag',
      guide: null,
    });
    expect(view.error).toBeNull();
  });

  it('shows the suggestions not yet on the whole step, a tag label of the same id not counting', () => {
    const view = buildLabelView({
      ...base,
      rows: [row({ label: 'decay-error', target: { kind: 'tag', tag: '#d#' } }), row({ label: 'random-pick' })],
      suggestions: [
        { labelId: 'decay-error', reason: 'picked D_decay tag(s): #d#', tags: ['#d#'] },
        { labelId: 'random-pick', reason: 'picked D_random tag(s): #r#', tags: ['#r#'] },
      ],
    });
    expect(view.suggestions).toEqual([
      { labelId: 'decay-error', name: 'D_decay pick', key: '1', reason: 'picked D_decay tag(s): #d#', tags: ['#d#'] },
    ]);
  });

  it('says which parts of the step changed for rows stored with part hashes', () => {
    const view = buildLabelView({
      ...base,
      rows: [
        row({ contentHash: 'parts1:p1:s1:t1' }),
        row({ label: 'random-pick', contentHash: 'parts1:p0:s0:t1' }),
        row({ label: 'format-error', contentHash: 'parts1:p1:s1:t0' }),
      ],
      suggestions: [],
    });
    expect(view.applied.map((a) => [a.labelId, a.staleness, a.changed])).toEqual([
      ['decay-error', 'fresh', null],
      ['random-pick', 'stale', ['pool', 'split']],
      ['format-error', 'stale', ['posts']],
    ]);
    expect(staleText(view.applied[1].changed, 'the data')).toBe(
      'stale: the pool and the split changed since this label was made',
    );
    expect(staleText(null, 'the step’s data')).toBe('stale: the step’s data changed since this label was made');
  });

  it('marks nothing stale when the current hash is unknown', () => {
    const view = buildLabelView({
      ...base,
      currentHash: undefined,
      rows: [row({ contentHash: 'other' })],
      suggestions: [],
    });
    expect(view.applied[0].staleness).toBe('unknown');
  });

  it('is a message the webview accepts', () => {
    const state = buildLabelView({ ...base, rows: [row({})], suggestions: [], flash: { kind: 'info', text: 'x' } });
    expect(isExtensionToWebview({ type: 'labels', state })).toBe(true);
    expect(isExtensionToWebview({ type: 'labels', state: { ...state, applied: 'no' } })).toBe(false);
  });

  it("carries each label's guide to the webview, and the guard refuses a guide that is not text", () => {
    const labels = [{ ...DEFAULT_LABELS[0], guide: 'Only when the tag was used in the last two steps.' }];
    const state = buildLabelView({ ...base, labels, rows: [], suggestions: [] });
    expect(state.labels[0].guide).toBe('Only when the tag was used in the last two steps.');
    expect(isExtensionToWebview({ type: 'labels', state })).toBe(true);
    const bad = { ...state, labels: [{ ...state.labels[0], guide: 3 }] };
    expect(isExtensionToWebview({ type: 'labels', state: bad })).toBe(false);
    const missing = { ...state, labels: [{ ...state.labels[0], guide: undefined }] };
    expect(isExtensionToWebview({ type: 'labels', state: missing })).toBe(false);
  });
});

describe('label protocol guards', () => {
  it('accepts the label actions and rejects malformed ones', () => {
    const ok = [
      { kind: 'toggle', ref, labelId: 'decay-error', target: { kind: 'tag', tag: '#a#' } },
      { kind: 'toggle', ref, labelId: 'x', target: { kind: 'span', field: 'persona_summary', start: 0, end: 3 } },
      { kind: 'acceptSuggestions', ref },
      { kind: 'setNote', ref, labelId: 'x', target: { kind: 'step' }, note: '' },
      { kind: 'undo' },
      { kind: 'move', ref, delta: -1 },
      { kind: 'nextUnlabelled', ref },
    ];
    for (const action of ok) expect(isWebviewToExtension({ type: 'label', action }), JSON.stringify(action)).toBe(true);
    const bad = [
      { kind: 'toggle', ref, labelId: 'x', target: { kind: 'span', field: 'f', start: 0.5, end: 1 } },
      { kind: 'toggle', ref, labelId: 'x', target: { kind: 'everything' } },
      { kind: 'move', ref, delta: 2 },
      { kind: 'setNote', ref, labelId: 'x', target: { kind: 'step' } },
      { kind: 'acceptSuggestions', ref: { platform: 'weibo', userId: 'u' } },
      { kind: 'drop tables' },
    ];
    for (const action of bad)
      expect(isWebviewToExtension({ type: 'label', action }), JSON.stringify(action)).toBe(false);
  });

  it("reserves the bar's and the navigation keys, so a label set cannot bind them", () => {
    expect([...RESERVED_LABEL_KEYS].sort()).toEqual(
      ['.', '?', '[', ']', 'a', 'e', 'j', 'k', 'n', 's', 'u', '{', '}'].sort(),
    );
    const set = parseLabelSet('[{"id": "x", "name": "X", "scope": "step", "key": "?"}]', 'l.json', {
      reservedKeys: RESERVED_LABEL_KEYS,
    });
    expect(set.diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'error', field: '[0].key', message: 'key "?" is reserved by the step view' }),
    );
  });
});

describe('UndoStack', () => {
  it('keeps inverses newest last, skips no-ops and drops the oldest past its limit', () => {
    const u = new UndoStack(2);
    const remove = (n: number) => ({ kind: 'remove' as const, key: { ...row({ stepId: n }) } });
    u.push({ inverse: { kind: 'batch', actions: [] }, ref, description: 'nothing' });
    expect(u.size).toBe(0);
    for (const n of [1, 2, 3]) u.push({ inverse: remove(n), ref, description: `#${n}` });
    expect(u.size).toBe(2);
    expect(u.pop()?.description).toBe('#3');
    expect(u.pop()?.description).toBe('#2');
    expect(u.pop()).toBeUndefined();
  });
});

describe('label paths and names', () => {
  it('puts the database and the label set in .personalab/ of the first folder unless the setting says otherwise', () => {
    expect(labelsHome(['/w1', '/w2'], '/bench', '/global')).toBe('/w1');
    expect(labelsHome([], '/bench', '/global')).toBe('/bench');
    expect(labelsHome([], undefined, '/global')).toBe('/global');
    expect(dbPath('', ['/w1'], '/home/me', '/w1')).toBe('/w1/.personalab/labels.db');
    expect(dbPath('shared/l.db', ['/w1'], '/home/me', '/w1')).toBe('/w1/shared/l.db');
    expect(dbPath('~/labels.db', ['/w1'], '/home/me', '/w1')).toBe('/home/me/labels.db');
    expect(dbPath('${workspaceFolder}/x.db', ['/w1'], '/home/me', '/w1')).toBe('/w1/x.db');
    expect(labelSetPath('/w1')).toBe('/w1/.personalab/labels.json');
  });

  it('takes the author from the setting, else the OS user; the benchmark id is the folder name', () => {
    expect(authorName('  alice ')).toBe('alice');
    expect(authorName('')).toBe(userInfo().username || 'annotator');
    expect(benchmarkId('/data/StreamProfileBench/')).toBe('StreamProfileBench');
    expect(benchmarkId('C:\\bench\\spb')).toBe('spb');
  });
});

describe('LabelStore.dataVersion', () => {
  it("changes when another connection commits, not for this connection's own writes", () => {
    const path = join(mkdtempSync(join(tmpdir(), 'pl-dataversion-')), 'labels.db');
    const a = LabelStore.open(path);
    const b = LabelStore.open(path);
    try {
      const v0 = a.dataVersion();
      a.add({ ...row({}) });
      expect(a.dataVersion()).toBe(v0);
      b.add({ ...row({ label: 'pi-leak' }) });
      expect(a.dataVersion()).not.toBe(v0);
    } finally {
      a.close();
      b.close();
    }
  });
});
