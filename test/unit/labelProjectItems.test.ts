// A labelling project's items: one step or one test action of one run as an opaque key that reads back, and a sample that the
// project's name fixes.
import { describe, expect, it } from 'vitest';
import {
  itemOf,
  parseItem,
  seededSample,
  testActionItemOf,
  unitItem,
  unitItemOf,
} from '../../src/core/labels/server/projectItems';

describe('project items', () => {
  it('reads back what it wrote, whatever the ids hold, and refuses what it did not write', () => {
    const ref = { platform: 'weibo' as const, userId: 'a","b\\\\', stepId: 3 };
    expect(parseItem(itemOf('run, one', ref))).toEqual({ kind: 'step', run: 'run, one', ref });
    const action = { userId: 'weibo', index: 4 };
    expect(parseItem(testActionItemOf('run, one', action))).toEqual({
      kind: 'testAction',
      run: 'run, one',
      ref: action,
    });
    expect(parseItem('["r","weibo","u",1.5]')).toBeUndefined();
    expect(parseItem('["r","u",-1]')).toBeUndefined();
    expect(parseItem('["r","u","2"]')).toBeUndefined();
    expect(parseItem('[1,"u",2]')).toBeUndefined();
    expect(parseItem('["r","weibo","u",1,2]')).toBeUndefined();
    expect(parseItem('["r","omnibehavior","u",1]')).toBeUndefined();
    expect(parseItem('["r","","u",1]')).toBeUndefined();
    expect(parseItem('["r","weibo","u"]')).toBeUndefined();
    expect(parseItem('not json')).toBeUndefined();
  });

  it("reads another format's item (its own platform) back as an item, the same key as its labels' unit", () => {
    const ref = { platform: '32k', userId: '7', stepId: 2 };
    const key = unitItemOf('demo-strong', ref);
    expect(parseItem(key)).toEqual({ kind: 'item', run: 'demo-strong', ref });
    expect(unitItem({ benchmark: 'personamem', run: 'demo-strong', ...ref })).toBe(key);
  });

  it('samples n items in their order, the same for the same seed and another for another seed', () => {
    const items = Array.from({ length: 100 }, (_, i) => i);
    const a = seededSample(items, 10, 'week 49');
    expect(a).toHaveLength(10);
    expect(new Set(a).size).toBe(10);
    expect([...a].sort((x, y) => x - y)).toEqual(a);
    expect(seededSample(items, 10, 'week 49')).toEqual(a);
    expect(seededSample(items, 10, 'week 50')).not.toEqual(a);
    expect(seededSample(items, 500, 'x')).toEqual(items);
  });
});
