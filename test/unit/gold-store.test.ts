// Gold rows in a label database file (src/core/labels/goldStore.ts): decide, change, undo back to the earlier
// decision and to none, the trail kept, a v5 file migrated with its labels, and decisions never counted as labels.
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { goldSet } from '../../src/core/labels/gold';
import { GoldStore } from '../../src/core/labels/goldStore';
import { migrate } from '../../src/core/labels/migrations';
import type { StepRef } from '../../src/core/labels/model';
import { LabelStoreError } from '../../src/core/labels/store';
import { summarize } from '../../src/core/labels/agreement';
import { labelKey, labelStores } from './labelStore-fixture';

const stores = labelStores();
const golds: GoldStore[] = [];
afterEach(() => golds.splice(0).forEach((g) => g.close()));

let tick = 0;
const clock = () => `2026-12-06T10:00:${String(tick++).padStart(2, '0')}.000Z`;
const openGold = (path: string) => {
  const g = GoldStore.open(path, { now: clock });
  golds.push(g);
  return g;
};
const freshPath = () => join(mkdtempSync(join(tmpdir(), 'pl-gold-')), 'labels.db');
const ref: StepRef = { benchmark: 'spb', platform: 'weibo', userId: 'we_0000000001', stepId: 1, run: 'gpt' };

describe('GoldStore', () => {
  it('keeps a changed decision and an undo in its trail, and the latest live one counts', () => {
    const path = freshPath();
    const labels = stores.open(path);
    labels.add(labelKey({ author: 'alice', label: 'decay-error' }));
    labels.add(labelKey({ author: 'bob', label: 'missed-tag' }));
    const g = openGold(path);
    const status = () => goldSet(labels.list(), g.adjudications()).units[0];
    expect(status()).toMatchObject({ status: 'open', gold: null });

    g.decide({ ref, labels: ['missed-tag', 'decay-error', 'missed-tag'], adjudicator: 'carol', note: 'both' });
    expect(status()).toMatchObject({ status: 'adjudicated', gold: ['decay-error', 'missed-tag'], note: 'both' });
    g.decide({ ref, labels: ['missed-tag'], adjudicator: 'carol' });
    expect(status()).toMatchObject({ status: 'adjudicated', gold: ['missed-tag'], adjudicator: 'carol' });

    expect(g.undo(ref, 'carol')?.labels).toEqual(['missed-tag']);
    expect(status()).toMatchObject({ status: 'adjudicated', gold: ['decay-error', 'missed-tag'] });
    expect(g.undo(ref, 'carol')?.labels).toEqual(['decay-error', 'missed-tag']);
    expect(status()).toMatchObject({ status: 'open', gold: null });
    expect(g.undo(ref, 'carol')).toBeUndefined();

    const trail = g.list({}, true);
    expect(trail.map((r) => [r.labels, r.undone?.by])).toEqual([
      [['decay-error', 'missed-tag'], 'carol'],
      [['missed-tag'], 'carol'],
    ]);
    expect(g.list()).toEqual([]);
  });

  it('an empty decision settles a unit on "no label applies"', () => {
    const path = freshPath();
    const g = openGold(path);
    g.decide({ ref, labels: [], adjudicator: 'carol' });
    expect(goldSet([], g.adjudications()).units[0]).toMatchObject({ status: 'adjudicated', gold: [] });
  });

  it('never counts a decision as a label: authors, counts and agreement read the annotators only', () => {
    const path = freshPath();
    const labels = stores.open(path);
    labels.add(labelKey({ author: 'alice' }));
    openGold(path).decide({ ref, labels: ['decay-error'], adjudicator: 'carol' });
    expect(labels.authors()).toEqual(['alice']);
    expect(labels.count()).toBe(1);
    expect(summarize(labels.list()).authors).toEqual(['alice']);
  });

  it('refuses a bad decision with the field and writes nothing', () => {
    const g = openGold(freshPath());
    expect(() => g.decide({ ref: { ...ref, stepId: -1 }, labels: ['x'], adjudicator: 'carol' })).toThrow(
      /invalid gold decision: stepId must be a non-negative integer/,
    );
    expect(() => g.decide({ ref, labels: [''], adjudicator: 'carol' })).toThrow(/each label must be a non-empty/);
    expect(() => g.decide({ ref, labels: ['x'], adjudicator: '' })).toThrow(LabelStoreError);
    expect(g.list({}, true)).toEqual([]);
  });

  it('merges an exported trail by uid: new decisions added, undos carried over, twice is once', () => {
    const a = openGold(freshPath());
    a.decide({ ref, labels: ['x'], adjudicator: 'carol' });
    a.decide({ ref: { ...ref, stepId: 2 }, labels: ['y'], adjudicator: 'carol' });
    const b = openGold(freshPath());
    expect(b.importTrail(a.list({}, true))).toEqual({ added: 2, undone: 0, identical: 0 });
    a.undo({ ...ref, stepId: 2 }, 'carol');
    expect(b.importTrail(a.list({}, true))).toEqual({ added: 0, undone: 1, identical: 1 });
    expect(b.importTrail(a.list({}, true))).toEqual({ added: 0, undone: 0, identical: 2 });
    expect(b.list({}, true)).toEqual(a.list({}, true));
  });

  it('a v5 database with labels migrates to v6 keeping them, then takes decisions; read-only refuses them', () => {
    const path = freshPath();
    const raw = new Database(path);
    migrate(raw, 5);
    raw.close();
    const labels = stores.open(path);
    labels.add(labelKey());
    const g = openGold(path);
    g.decide({ ref, labels: ['decay-error'], adjudicator: 'carol' });
    expect(labels.schemaVersion()).toBe(6);
    expect(labels.count()).toBe(1);
    const ro = GoldStore.open(path, { readOnly: true });
    golds.push(ro);
    expect(ro.list().map((r) => r.adjudicator)).toEqual(['carol']);
    expect(() => ro.decide({ ref, labels: [], adjudicator: 'carol' })).toThrow(/read-only/);
  });
});
