// Compare mode's tree badges (src/extension/compare/badges.ts): an item the part names gets "↓" and its tooltip, each
// row above it that carries a badge uri the count of its items, for that format only; clearing removes them all.
import { describe, expect, it, vi } from 'vitest';

vi.mock('vscode', () => {
  class Emitter {
    event = () => ({ dispose() {} });
    fire() {}
    dispose() {}
  }
  return {
    EventEmitter: Emitter,
    ThemeColor: class {
      constructor(readonly id: string) {}
    },
    FileDecoration: class {
      constructor(
        readonly badge: string,
        readonly tooltip: string,
        readonly color: unknown,
      ) {}
    },
    Uri: {
      from: (c: { scheme: string; path: string }) => ({ scheme: c.scheme, path: c.path }),
    },
  };
});

const { CompareBadgeDecorations, compareBadgeUri } = await import('../../src/extension/compare/badges');

type Uri = Parameters<InstanceType<typeof CompareBadgeDecorations>['provideFileDecoration']>[0];
const at = (d: InstanceType<typeof CompareBadgeDecorations>, format: string, ...path: string[]) => {
  const f = d.provideFileDecoration(compareBadgeUri(format, path) as Uri);
  return f ? { badge: f.badge, tooltip: f.tooltip } : undefined;
};

describe('compare mode badges', () => {
  const pair = { a: 'base', b: 'try' };
  const items = new Map([
    ['32k/p1/q1', 'right in base, try picked (c)'],
    ['32k/p1/q4', 'right in base, try picked no single option'],
    ['32k/p2/q9', 'right in base, try picked (a)'],
  ]);

  it('badges each item, counts the rows above it, and names the pair', () => {
    const d = new CompareBadgeDecorations();
    d.set('personamem', { pair, items, unit: 'question', explain: '' });
    expect(d.count).toBe(3);
    expect(at(d, 'personamem', '32k', 'p1', 'q1')).toEqual({
      badge: '↓',
      tooltip: 'base vs try: right in base, try picked (c)',
    });
    expect(at(d, 'personamem', '32k', 'p1')).toEqual({ badge: '2', tooltip: 'base vs try: 2 question(s) regressed' });
    expect(at(d, 'personamem', '32k', 'p2')?.badge).toBe('1');
    expect(at(d, 'personamem', '32k')?.badge).toBe('3');
    // a question not lost, another format's row with the same path, and a uri of another scheme: no badge
    expect(at(d, 'personamem', '32k', 'p1', 'q2')).toBeUndefined();
    expect(at(d, 'tinybench', '32k', 'p1', 'q1')).toBeUndefined();
    expect(d.provideFileDecoration({ scheme: 'file', path: '/personamem/32k/p1' } as Uri)).toBeUndefined();
  });

  it('clears every badge when set without badges, and shows at most 99 on a row', () => {
    const d = new CompareBadgeDecorations();
    const many = new Map(Array.from({ length: 120 }, (_, i) => [`weibo/u1/${i}`, `Recall −${i}.0 pp`]));
    d.set('streamprofilebench', { pair, items: many, unit: 'step', explain: '' });
    expect(at(d, 'streamprofilebench', 'weibo', 'u1')).toEqual({
      badge: '99',
      tooltip: 'base vs try: 120 step(s) regressed',
    });
    d.set('streamprofilebench', undefined);
    expect(d.count).toBe(0);
    expect(at(d, 'streamprofilebench', 'weibo', 'u1')).toBeUndefined();
    expect(at(d, 'streamprofilebench', 'weibo', 'u1', '7')).toBeUndefined();
  });
});
