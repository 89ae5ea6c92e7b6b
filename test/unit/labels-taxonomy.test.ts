import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineOf, scanJsonLines } from '../../src/core/labels/jsonLines';
import { DEFAULT_TRACE_LABELS, TRACE_LABEL_SET } from '../../src/core/omni/labels/labelSet';
import { DEFAULT_LABELS, STEP_LABEL_SET } from '../../src/core/spb/labels/labelSet';
import {
  LABEL_GUIDE_MAX,
  labelDef,
  labelForKey,
  labelNames,
  loadLabelSet,
  parseLabelSet,
} from '../../src/core/labels/taxonomy';

describe('default label set', () => {
  it('has the ten failure modes with keys 1..9, 0 and distinct ids', () => {
    expect(DEFAULT_LABELS.map((l) => l.key)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '0']);
    expect(new Set(DEFAULT_LABELS.map((l) => l.id)).size).toBe(10);
    expect(DEFAULT_LABELS.map((l) => l.id)).toContain('decay-error');
    expect(labelForKey(DEFAULT_LABELS, '9')?.name).toBe('PI leak');
    expect(DEFAULT_LABELS.find((l) => l.id === 'persona-drift')?.scope).toBe('persona-span');
  });

  it('names the pool-class labels after the class they describe (D_peer, never the storage name)', () => {
    const byId = new Map(DEFAULT_LABELS.map((l) => [l.id, l]));
    expect(
      ['decay-error', 'peer-confusion', 'popularity-bias', 'random-pick', 'missed-novelty', 'missed-stability'].map(
        (id) => byId.get(id)?.name,
      ),
    ).toEqual(['D_decay pick', 'D_peer pick', 'D_viral pick', 'D_random pick', 'Missed T_new', 'Missed T_keep']);
    expect(byId.get('popularity-bias')?.description).toBe('Picked a D_viral tag: trending on the platform that day.');
    expect(new Set(DEFAULT_LABELS.map((l) => l.name)).size).toBe(DEFAULT_LABELS.length);
    expect(DEFAULT_LABELS.filter((l) => /D_cluster/.test(`${l.name} ${l.description}`))).toEqual([]);
  });

  it('shows an id the set does not know as itself instead of dropping it', () => {
    const d = labelDef(DEFAULT_LABELS, 'custom-thing');
    expect(d).toMatchObject({ id: 'custom-thing', name: 'custom-thing', unknown: true });
  });
});

describe('scanJsonLines', () => {
  it('maps element and member paths to their lines, and copes with truncation', () => {
    const text = '{\n  "labels": [\n    {"id": "a",\n     "key": "1"},\n    {\n      "id": "b"\n    }\n  ]\n}';
    const lines = scanJsonLines(text);
    expect(lines.get('labels')).toBe(2);
    expect(lines.get('labels[0]')).toBe(3);
    expect(lines.get('labels[0].key')).toBe(4);
    expect(lines.get('labels[1]')).toBe(5);
    expect(lines.get('labels[1].id')).toBe(6);
    expect(lineOf(lines, 'labels[1].scope')).toBe(5);
    const cut = scanJsonLines('[\n{"id": "x\\"y"},\n{"id": ');
    expect(cut.get('[1].id')).toBe(3);
  });
});

const good = (labels: unknown[]) => JSON.stringify({ labels }, null, 2);

describe('parseLabelSet', () => {
  it('accepts a valid workspace set', () => {
    const set = parseLabelSet(
      good([
        { id: 'too-generic', name: 'Too generic', description: 'Picked broad tags', key: 'g', scope: 'step' },
        { id: 'wrong-tag', name: 'Wrong tag', description: '', scope: 'tag' },
      ]),
      '.personalab/labels.json',
    );
    expect(set.isDefault).toBe(false);
    expect(set.diagnostics).toEqual([]);
    expect(set.labels.map((l) => l.id)).toEqual(['too-generic', 'wrong-tag']);
    expect(set.labels[1].key).toBeUndefined();
  });

  it('locates each bad entry on its line and falls back to the defaults', () => {
    const text = [
      '{',
      '  "labels": [',
      '    {"id": "ok", "name": "Fine", "description": "", "scope": "step", "key": "1"},',
      '    {"id": "Bad Id", "name": "x", "description": "", "scope": "step"},',
      '    {"id": "dup", "name": "x", "description": "", "scope": "step", "key": "1"},',
      '    {"id": "s", "name": "x", "description": "",',
      '     "scope": "paragraph"},',
      '    {"id": "nav", "name": "x", "description": "", "scope": "tag", "key": "j"},',
      '    {"id": "ok", "name": "again", "description": "", "scope": "step"}',
      '  ]',
      '}',
    ].join('\n');
    const set = parseLabelSet(text, 'labels.json');
    expect(set.isDefault).toBe(true);
    expect(set.labels).toHaveLength(10);
    const errors = set.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.line} ${d.field}`);
    expect(errors).toEqual([
      '4 labels[1].id',
      '5 labels[2].key',
      '7 labels[3].scope',
      '8 labels[4].key',
      '9 labels[5].id',
    ]);
    expect(set.diagnostics.every((d) => d.file === 'labels.json')).toBe(true);
  });

  it('reports a JSON syntax error with its line', () => {
    const set = parseLabelSet('{\n  "labels": [\n    {"id": "a",}\n  ]\n}', 'labels.json');
    expect(set.isDefault).toBe(true);
    expect(set.diagnostics[0]).toMatchObject({ severity: 'error', line: 3 });
  });

  it('keeps a set that only has warnings, and accepts a bare array', () => {
    const set = parseLabelSet('[\n  {"id": "a", "name": "A", "colour": "red"}\n]', 'l.json');
    expect(set.isDefault).toBe(false);
    expect(set.labels).toEqual([{ id: 'a', name: 'A', description: '', scope: 'step' }]);
    expect(set.diagnostics.map((d) => `${d.severity} ${d.line} ${d.field}`)).toEqual([
      'warning 2 [0].colour',
      'warning 2 [0]',
      'warning 2 [0]',
    ]);
  });

  it('rejects a non-array and an empty set', () => {
    expect(parseLabelSet('{"labels": 3}', 'l.json').diagnostics[0]).toMatchObject({
      severity: 'error',
      field: 'labels',
    });
    expect(parseLabelSet('[]', 'l.json').isDefault).toBe(true);
  });

  it('loads from disk: a missing file means the defaults without diagnostics', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-labels-'));
    expect(loadLabelSet(join(dir, 'none.json'))).toMatchObject({ isDefault: true, diagnostics: [] });
    writeFileSync(join(dir, 'labels.json'), good([{ id: 'x', name: 'X', description: 'd', scope: 'tag', key: 'x' }]));
    expect(loadLabelSet(join(dir, 'labels.json')).labels[0]).toMatchObject({ id: 'x', key: 'x', scope: 'tag' });
  });
});

describe('trace labels (OmniBehavior)', () => {
  it('has its own ten failure modes with keys 1..9, 0, on test actions and records', () => {
    expect(DEFAULT_TRACE_LABELS.map((l) => l.key)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '0']);
    expect(new Set(DEFAULT_TRACE_LABELS.map((l) => l.id)).size).toBe(10);
    expect(DEFAULT_TRACE_LABELS.map((l) => l.id)).toContain('hyper-activity');
    expect(DEFAULT_TRACE_LABELS.map((l) => l.id)).not.toContain('decay-error');
    expect(DEFAULT_TRACE_LABELS.every((l) => l.scope === 'step')).toBe(true);
  });

  it('keeps the trace defaults when labels.json has only "labels", and reads "traceLabels" when given', () => {
    const only = parseLabelSet(
      good([{ id: 'too-generic', name: 'Too generic', description: '', key: 'g', scope: 'step' }]),
      'l.json',
    );
    expect(only.formatSets.traceLabels.map((l) => l.id)).toEqual(DEFAULT_TRACE_LABELS.map((l) => l.id));
    const text = JSON.stringify(
      {
        labels: [{ id: 'too-generic', name: 'Too generic', description: '', key: 'g', scope: 'step' }],
        traceLabels: [{ id: 'over-eager', name: 'Over-eager', description: 'Acts too often', key: 'g', scope: 'step' }],
      },
      null,
      2,
    );
    // the two formats' sets alone, so that the names below are all of them
    const both = parseLabelSet(text, 'l.json', { formatSets: [STEP_LABEL_SET, TRACE_LABEL_SET] });
    expect(both.diagnostics).toEqual([]);
    // Keys are per set: the same key may serve both.
    expect(both.formatSets.traceLabels).toEqual([
      { id: 'over-eager', name: 'Over-eager', description: 'Acts too often', key: 'g', scope: 'step' },
    ]);
    expect(labelNames(both)).toEqual(
      new Map([
        ['over-eager', 'Over-eager'],
        ['too-generic', 'Too generic'],
      ]),
    );
  });

  it('locates a bad trace label and falls back to both defaults', () => {
    const text =
      '{\n  "labels": [{"id": "a", "name": "A", "description": "", "scope": "step"}],\n  "traceLabels": [\n    {"id": "b", "name": "", "scope": "step"}\n  ]\n}';
    const set = parseLabelSet(text, 'l.json');
    expect(set.isDefault).toBe(true);
    expect(set.formatSets.traceLabels.map((l) => l.id)).toEqual(DEFAULT_TRACE_LABELS.map((l) => l.id));
    expect(set.diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'error', line: 4, field: 'traceLabels[0].name' }),
    );
    expect(parseLabelSet('{"labels": [], "traceLabels": 3}', 'l.json').diagnostics[0]).toMatchObject({
      severity: 'error',
      field: 'traceLabels',
    });
  });
});

describe('guide (how to decide on a label)', () => {
  const entry = (guide: unknown) => ({ id: 'too-generic', name: 'Too generic', description: '', scope: 'step', guide });
  const lines = (guide: unknown) =>
    [
      '{',
      '  "labels": [',
      '    {"id": "ok", "name": "Fine", "description": "", "scope": "step", "key": "1"},',
      '    {"id": "too-generic", "name": "Too generic", "description": "", "scope": "step", "key": "2",',
      `     "guide": ${JSON.stringify(guide)}}`,
      '  ],',
      '  "traceLabels": [',
      '    {"id": "eager", "name": "Eager", "description": "", "scope": "step", "key": "1",',
      `     "guide": ${JSON.stringify(guide)}}`,
      '  ]',
      '}',
    ].join('\n');

  it('keeps a guide on labels and trace labels, trimmed; blank or absent means none', () => {
    const set = parseLabelSet(
      lines('  Use it when every pick is a head tag.\nNot for one broad tag.  '),
      'labels.json',
    );
    expect(set.diagnostics).toEqual([]);
    expect(set.isDefault).toBe(false);
    expect(set.labels.map((l) => l.guide)).toEqual([
      undefined,
      'Use it when every pick is a head tag.\nNot for one broad tag.',
    ]);
    expect(set.formatSets.traceLabels[0].guide).toBe('Use it when every pick is a head tag.\nNot for one broad tag.');
    const blank = parseLabelSet(good([entry('   ')]), 'l.json');
    expect(blank.diagnostics).toEqual([]);
    expect(blank.labels[0]).toEqual({ id: 'too-generic', name: 'Too generic', description: '', scope: 'step' });
    expect(DEFAULT_LABELS.every((l) => l.guide === undefined)).toBe(true);
  });

  it('drops a guide that is not a string, at its line, and keeps the label and the rest of the set', () => {
    const set = parseLabelSet(lines(['a', 'b']), '.personalab/labels.json');
    expect(set.isDefault).toBe(false);
    expect(set.labels.map((l) => l.id)).toEqual(['ok', 'too-generic']);
    expect(set.labels[1]).not.toHaveProperty('guide');
    expect(set.diagnostics).toEqual([
      {
        severity: 'warning',
        file: '.personalab/labels.json',
        line: 5,
        field: 'labels[1].guide',
        message: 'guide must be a string (got an array); the label has no guide',
      },
      {
        severity: 'warning',
        file: '.personalab/labels.json',
        line: 9,
        field: 'traceLabels[0].guide',
        message: 'guide must be a string (got an array); the label has no guide',
      },
    ]);
    expect(parseLabelSet(good([entry(7)]), 'l.json').diagnostics[0].message).toBe(
      'guide must be a string (got number); the label has no guide',
    );
  });

  it(`drops a guide longer than ${LABEL_GUIDE_MAX} characters (code points), at its line`, () => {
    expect(parseLabelSet(good([entry('字'.repeat(LABEL_GUIDE_MAX))]), 'l.json').labels[0].guide).toHaveLength(
      LABEL_GUIDE_MAX,
    );
    const set = parseLabelSet(lines('😀'.repeat(LABEL_GUIDE_MAX + 1)), 'labels.json');
    expect(set.isDefault).toBe(false);
    expect(set.labels[1]).toMatchObject({ id: 'too-generic', key: '2' });
    expect(set.labels[1].guide).toBeUndefined();
    expect(set.diagnostics[0]).toEqual({
      severity: 'warning',
      file: 'labels.json',
      line: 5,
      field: 'labels[1].guide',
      message: `guide is ${LABEL_GUIDE_MAX + 1} characters, more than ${LABEL_GUIDE_MAX}; the label has no guide`,
    });
  });
});
