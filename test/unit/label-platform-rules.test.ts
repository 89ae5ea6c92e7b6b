// The labels' rules read from the formats' descriptors (core/labels/platformRules.ts), proved on the tinybench fixture,
// a format the label code has never heard of: its labels on its own platform are kept, a target kind it does not take
// is refused on its platform (by the store and, located, by an import), a platform it declares is its own, its label
// set is a key of labels.json, its units are project items and named by its noun, and it has no judge.
import { describe, expect, it } from 'vitest';
import { FORMATS, registerFormat } from '../../src/core/formats';
import { parseLabelFile, toJsonl } from '../../src/core/labels/exportImport';
import {
  formatOfPlatform,
  importedPlatformProblem,
  judgeDimensions,
  labelKeyProblem,
  platformProblem,
  targetPlatformProblem,
} from '../../src/core/labels/platformRules';
import { scoreProblem } from '../../src/core/labels/scores';
import { parseItem, unitItem } from '../../src/core/labels/server/projectItems';
import { defaultLabelSet, labelNames, parseLabelSet } from '../../src/core/labels/taxonomy';
import { platformUnitNoun } from '../../src/core/labels/unitNoun';
import { omniBehavior } from '../../src/core/omni/format';
import { TRACE_PLATFORM } from '../../src/core/omni/labels/labelSet';
import { personaMem } from '../../src/core/personamem/format';
import { streamProfileBench } from '../../src/core/spb/format/format';
import { TINY_LABEL_SET } from '../fixtures/tinybench/parts';
import { TINY_PLATFORM, tinyBench } from '../fixtures/tinybench/format';
import { labelKey, labelRow, labelStores } from './labelStore-fixture';

registerFormat(tinyBench);
const stores = labelStores();
const tiny = (over: Parameters<typeof labelKey>[0] = {}) =>
  labelKey({ benchmark: 'bench', platform: TINY_PLATFORM, userId: 'u1', stepId: 2, label: 'tiny-wrong-word', ...over });

describe("a third format's labels on its own platform", () => {
  it('are kept: the rule, the store and an import accept a whole-item label on its platform', () => {
    expect(formatOfPlatform(TINY_PLATFORM)).toBe(tinyBench);
    expect(labelKeyProblem(tiny())).toBeNull();
    const store = stores.fresh('pl-tiny-rules-');
    store.add(tiny());
    expect(store.list().map((r) => [r.platform, r.target.kind])).toEqual([[TINY_PLATFORM, 'step']]);
    const parsed = parseLabelFile(toJsonl([labelRow(tiny())]), 'tiny.jsonl', 'jsonl');
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.rows.map((r) => r.row.platform)).toEqual([TINY_PLATFORM]);
  });

  it('refuse a tag label on its platform: the store says why, an import locates it at the platform field', () => {
    const tag = tiny({ target: { kind: 'tag', tag: 'x' } });
    expect(labelKeyProblem(tag)).toBe(`platform "${TINY_PLATFORM}" takes step targets only`);
    const store = stores.fresh('pl-tiny-rules-');
    expect(() => store.add(tag)).toThrow(`invalid label: platform "${TINY_PLATFORM}" takes step targets only`);
    const text = toJsonl([labelRow(tiny()), labelRow(tag)]);
    const parsed = parseLabelFile(text, 'tiny.jsonl', 'jsonl');
    expect(parsed.rows).toHaveLength(1);
    expect(parsed.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        file: 'tiny.jsonl',
        line: 2,
        field: 'platform',
        message: `unknown platform "${TINY_PLATFORM}"`,
      }),
    ]);
  });
});

describe('a format that declares platforms claims them', () => {
  it('no other target kind may carry them, and the kinds it alone takes need them', () => {
    const builtIn = [streamProfileBench, omniBehavior, personaMem];
    // without the fixture, its platform is nobody's: a step label may carry it, a tag needs a step platform
    expect(platformProblem('step', TINY_PLATFORM, builtIn)).toBeNull();
    expect(platformProblem('tag', TINY_PLATFORM, builtIn)?.claimedBy).toBeUndefined();
    // with it, its platform is its own
    const all = [...builtIn, tinyBench];
    expect(platformProblem('tag', TINY_PLATFORM, all)?.claimedBy).toBe(tinyBench);
    expect(platformProblem('action', TINY_PLATFORM, all)).toMatchObject({
      needs: { formats: [omniBehavior], platforms: [TRACE_PLATFORM] },
      claimedBy: tinyBench,
    });
    // where every format taking a kind declares its platforms, that kind's labels carry one of theirs
    expect(targetPlatformProblem('step', 'weibo', [omniBehavior, tinyBench])).toBe(
      `a step target (${tinyBench.label}) needs platform "${TINY_PLATFORM}"`,
    );
    expect(importedPlatformProblem('step', 'weibo', [omniBehavior, tinyBench])).toBe(
      `a step label (${tinyBench.label}) needs platform "${TINY_PLATFORM}", got "weibo"`,
    );
    // a format that declares none claims none: PersonaMem's splits stay free for whole-item labels
    expect(personaMem.labelPlatforms).toEqual([]);
    expect(platformProblem('step', '32k', all)).toBeNull();
  });

  it('keeps the built-in rules word for word (but "a history", where it said "an history")', () => {
    expect(targetPlatformProblem('action', 'weibo')).toBe(
      'an action target (OmniBehavior) needs platform "omnibehavior"',
    );
    expect(targetPlatformProblem('history', TINY_PLATFORM)).toBe(
      'a history target (OmniBehavior) needs platform "omnibehavior"',
    );
    expect(targetPlatformProblem('step', TRACE_PLATFORM)).toBe(
      'platform "omnibehavior" takes action or history targets only',
    );
    expect(targetPlatformProblem('tag', TRACE_PLATFORM)).toBe(
      'platform "omnibehavior" takes action or history targets only',
    );
    expect(importedPlatformProblem('action', 'weibo')).toBe(
      'an action label (OmniBehavior) needs platform "omnibehavior", got "weibo"',
    );
    expect(importedPlatformProblem('span', 'nowhere')).toBe('unknown platform "nowhere"');
    expect(importedPlatformProblem('tag', 'douban')).toBeNull();
    expect(importedPlatformProblem('step', 'anything')).toBeNull();
  });
});

describe("the rest of a third format's labels", () => {
  it('its label set is a key of labels.json beside the others, and its names are in every summary', () => {
    expect(defaultLabelSet().formatSets[TINY_LABEL_SET.key].map((l) => l.id)).toEqual(
      TINY_LABEL_SET.defaults.map((l) => l.id),
    );
    const text = JSON.stringify({
      labels: [{ id: 'a', name: 'A', scope: 'step', description: '' }],
      tinyLabels: [{ id: 'tiny-own', name: 'Tiny own', scope: 'step', description: '' }],
    });
    const set = parseLabelSet(text, 'labels.json');
    expect(set.diagnostics).toEqual([]);
    expect(set.formatSets.tinyLabels.map((l) => l.id)).toEqual(['tiny-own']);
    expect(labelNames(set).get('tiny-own')).toBe('Tiny own');
    // a bare array is still the main set, the formats' sets their defaults
    const bare = parseLabelSet(JSON.stringify([{ id: 'b', name: 'B', scope: 'step', description: '' }]), 'l.json');
    expect(bare.labels.map((l) => l.id)).toEqual(['b']);
    expect(bare.formatSets.labels).toBe(bare.labels);
    expect(bare.formatSets.tinyLabels).toHaveLength(TINY_LABEL_SET.defaults.length);
  });

  it('its units are project items of four fields, named by its noun when the format of a benchmark is not known', () => {
    const ref = { benchmark: 'bench', platform: TINY_PLATFORM, userId: 'u1', stepId: 2, run: 'guess' };
    expect(parseItem(unitItem(ref))).toEqual({
      kind: 'item',
      run: 'guess',
      ref: { platform: TINY_PLATFORM, userId: 'u1', stepId: 2 },
    });
    expect(parseItem(unitItem({ ...ref, platform: 'weibo' }))?.kind).toBe('step');
    expect(unitItem({ ...ref, platform: TRACE_PLATFORM })).toBe(JSON.stringify(['guess', 'u1', 2]));
    expect(parseItem(JSON.stringify(['guess', TRACE_PLATFORM, 'u1', 2]))).toBeUndefined();
    expect(platformUnitNoun('bench', [ref]).title).toBe('items');
    expect(platformUnitNoun('bench', [ref, { platform: 'weibo' }]).title).toBe('steps and items');
  });

  it('it has no judge: the dimensions people score are those of the formats that have one', () => {
    expect(tinyBench.judgeDimensions).toEqual([]);
    expect(judgeDimensions()).toEqual([...omniBehavior.judgeDimensions]);
    expect(judgeDimensions(FORMATS.filter((f) => f !== omniBehavior))).toEqual([]);
    const key = { benchmark: 'b', userId: 'u', index: 3, run: 'r', author: 'a', dimension: 'wording' };
    expect(scoreProblem(key, judgeDimensions())).toBe(
      `dimension must be one of ${omniBehavior.judgeDimensions.join(', ')}`,
    );
    expect(scoreProblem({ ...key, dimension: omniBehavior.judgeDimensions[0] }, judgeDimensions())).toBeNull();
  });
});
