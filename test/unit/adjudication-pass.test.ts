// The adjudication pass's queue (core/labels/adjudication.ts) on hand-made label sets and a real GoldStore: which
// units are open, agreed or settled, the walk over the open ones, a decision taking one annotator's labels, a decision
// changed, an undo that opens the unit again; and the section a view shows (labels and notes side by side).
import { afterEach, describe, expect, it } from 'vitest';
import {
  adjudicationSection,
  annotatorLabels,
  DecisionTrail,
  nextOpen,
  passItems,
  passProgress,
  progressText,
} from '../../src/core/labels/adjudication';
import { GoldStore } from '../../src/core/labels/goldStore';
import { stepKey, type LabelRow, type StepRef } from '../../src/core/labels/model';
import { labelRow, labelStores } from './labelStore-fixture';

const stores = labelStores();
const golds: GoldStore[] = [];
afterEach(() => golds.splice(0).forEach((g) => g.close()));

/** labelRow's step `stepId` as a unit. */
const ref = (stepId: number): StepRef => {
  const { benchmark, platform, userId, run } = labelRow();
  return { benchmark, platform, userId, stepId, run };
};
const row = (author: string, stepId: number, label: string, note = ''): LabelRow =>
  labelRow({ author, stepId, label, note });

// Step 1: ann and bob disagree. Step 2: they agree. Step 3: ann alone. Step 4: ann, bob and cy, cy differs.
const ROWS: LabelRow[] = [
  row('ann', 1, 'A', 'the persona drops the decay'),
  row('bob', 1, 'B'),
  row('ann', 2, 'A'),
  row('bob', 2, 'A'),
  row('ann', 3, 'A'),
  row('ann', 4, 'A'),
  row('bob', 4, 'A'),
  row('cy', 4, 'A'),
  row('cy', 4, 'C'),
];

function setUp() {
  const labels = stores.fresh('pl-adjudicate-');
  for (const r of ROWS) labels.add(r);
  const gold = GoldStore.open(labels.path);
  golds.push(gold);
  const items = () => passItems(labels.list(), gold.adjudications());
  return { labels, gold, items };
}

describe('the adjudication pass queue', () => {
  it('keeps units with two or more annotators: open where they differ, agreed where they match', () => {
    const { items } = setUp();
    const all = items();
    expect(all.map((i) => [i.ref.stepId, i.state])).toEqual([
      [1, 'open'],
      [2, 'agreed'],
      [4, 'open'],
    ]);
    expect(passProgress(all)).toEqual({ settled: 0, agreed: 1, open: 2 });
    expect(progressText(passProgress(all))).toBe('0 settled · 1 agreed · 2 open of 3');
  });

  it('walks the open units in order, wrapping round, and skips the agreed ones', () => {
    const all = setUp().items();
    expect(nextOpen(all)?.ref.stepId).toBe(1);
    expect(nextOpen(all, all[0].key)?.ref.stepId).toBe(4);
    expect(nextOpen(all, all[2].key)?.ref.stepId).toBe(1);
    // From the agreed unit the walk goes on to the next open one.
    expect(nextOpen(all, all[1].key)?.ref.stepId).toBe(4);
  });

  it('limits the pass to a scope of units', () => {
    const { labels, gold } = setUp();
    const scope = new Set([stepKey(ref(2)), stepKey(ref(4))]);
    expect(passItems(labels.list(), gold.adjudications(), scope).map((i) => i.ref.stepId)).toEqual([2, 4]);
  });

  it("takes the nth annotator's labels, settles the unit, and a changed decision replaces it", () => {
    const { gold, items } = setUp();
    const four = items().find((i) => i.ref.stepId === 4)!;
    expect(four.unit.annotators.map((a) => a.author)).toEqual(['ann', 'bob', 'cy']);
    expect(annotatorLabels(four.unit, 3)).toEqual(['A', 'C']);
    expect(annotatorLabels(four.unit, 4)).toBeUndefined();
    expect(annotatorLabels(four.unit, 0)).toBeUndefined();

    gold.decide({ ref: ref(4), labels: annotatorLabels(four.unit, 3)!, adjudicator: 'judy' });
    let now = items();
    expect(now.find((i) => i.ref.stepId === 4)).toMatchObject({ state: 'settled', unit: { gold: ['A', 'C'] } });
    expect(passProgress(now)).toEqual({ settled: 1, agreed: 1, open: 1 });
    expect(nextOpen(now, stepKey(ref(4)))?.ref.stepId).toBe(1);

    // Changed: the later decision counts.
    gold.decide({ ref: ref(4), labels: annotatorLabels(four.unit, 1)!, adjudicator: 'judy' });
    now = items();
    expect(now.find((i) => i.ref.stepId === 4)?.unit.gold).toEqual(['A']);
    expect(passProgress(now)).toEqual({ settled: 1, agreed: 1, open: 1 });
  });

  it('an agreed unit the adjudicator opens and decides becomes settled', () => {
    const { gold, items } = setUp();
    gold.decide({ ref: ref(2), labels: [], adjudicator: 'judy' });
    const two = items().find((i) => i.ref.stepId === 2)!;
    expect(two.state).toBe('settled');
    expect(two.unit.gold).toEqual([]);
  });

  it('undo reverts the newest decision: the earlier one counts again, then the unit is open again', () => {
    const { gold, items } = setUp();
    const trail = new DecisionTrail();
    gold.decide({ ref: ref(1), labels: ['A'], adjudicator: 'judy' });
    trail.push(ref(1));
    gold.decide({ ref: ref(1), labels: ['B'], adjudicator: 'judy' });
    trail.push(ref(1));
    expect(trail.size).toBe(2);

    gold.undo(trail.pop()!, 'judy');
    expect(items().find((i) => i.ref.stepId === 1)).toMatchObject({ state: 'settled', unit: { gold: ['A'] } });
    gold.undo(trail.pop()!, 'judy');
    expect(items().find((i) => i.ref.stepId === 1)?.state).toBe('open');
    expect(trail.pop()).toBeUndefined();
    expect(passProgress(items())).toEqual({ settled: 0, agreed: 1, open: 2 });
  });
});

describe('the adjudication section', () => {
  it("shows each annotator's labels by name and their notes, numbered for the keys", () => {
    const { labels, items } = setUp();
    const one = items()[0];
    const s = adjudicationSection(
      one,
      labels.listByStep(ref(1)),
      new Map([
        ['A', 'Alpha'],
        ['B', 'Beta'],
      ]),
      { scope: 'the Disagreements list', progress: passProgress(items()), canUndo: false },
    );
    expect(s.unit).toBe(stepKey(ref(1)));
    expect(s.state).toBe('open');
    expect(s.gold).toBeNull();
    expect(s.decidedBy).toBeNull();
    expect(s.annotators).toEqual([
      {
        n: 1,
        author: 'ann',
        labels: ['Alpha'],
        notes: [{ label: 'Alpha', where: 'step', note: 'the persona drops the decay' }],
      },
      { n: 2, author: 'bob', labels: ['Beta'], notes: [] },
    ]);
  });

  it('names the adjudicator and the gold labels once decided', () => {
    const { labels, gold, items } = setUp();
    gold.decide({ ref: ref(1), labels: ['B'], adjudicator: 'judy' });
    const one = items()[0];
    const s = adjudicationSection(one, labels.listByStep(ref(1)), new Map(), {
      scope: 'x',
      progress: passProgress(items()),
      canUndo: true,
    });
    expect(s.state).toBe('settled');
    expect(s.gold).toEqual(['B']);
    expect(s.decidedBy).toMatch(/^judy, \d{4}-\d\d-\d\d \d\d:\d\d$/);
  });
});
