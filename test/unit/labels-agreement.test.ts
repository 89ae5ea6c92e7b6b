import { describe, expect, it } from 'vitest';
import { agreement, cohensKappa, formatSummary, summarize } from '../../src/core/labels/agreement';
import type { LabelRow, LabelTarget } from '../../src/core/labels/model';
import { parseReply } from '../../src/core/spb/prompt/response';
import { suggestLabels } from '../../src/core/spb/labels/suggest';
import { DEFAULT_LABELS } from '../../src/core/spb/labels/labelSet';
import type { PoolSplit } from '../../src/core/spb/types';

const row = (
  author: string,
  stepId: number,
  label: string,
  target: LabelTarget = { kind: 'step' },
  platform = 'weibo',
): LabelRow => ({
  benchmark: 'spb',
  platform,
  userId: 'we_0000000001',
  stepId,
  run: 'gpt',
  author,
  target,
  label,
  note: '',
  createdAt: '2025-01-01T00:00:00Z',
  contentHash: '',
});
const many = (author: string, steps: number[], label: string) => steps.map((s) => row(author, s, label));

describe("Cohen's kappa", () => {
  it('matches the textbook 2x2 example (po 0.7, pe 0.5, kappa 0.4)', () => {
    const k = cohensKappa({ both: 20, onlyA: 5, onlyB: 10, neither: 15 });
    expect(k.n).toBe(50);
    expect(k.po).toBeCloseTo(0.7, 12);
    expect(k.pe).toBeCloseTo(0.5, 12);
    expect(k.kappa).toBeCloseTo(0.4, 12);
  });

  it('is undefined (NaN) when chance agreement is 1, and -1 for total disagreement', () => {
    expect(cohensKappa({ both: 4, onlyA: 0, onlyB: 0, neither: 0 }).kappa).toBeNaN();
    expect(cohensKappa({ both: 0, onlyA: 3, onlyB: 3, neither: 0 }).kappa).toBeCloseTo(-1, 12);
  });

  // Ten steps both labelled (1..10), step 11 only by alice, step 12 only by bob, and carol elsewhere.
  const rows: LabelRow[] = [
    ...many('alice', [1, 2, 3, 4, 5], 'decay-error'),
    ...many('bob', [1, 2, 3, 6, 7], 'decay-error'),
    ...many('alice', [6, 7, 8, 9, 10, 11], 'format-error'),
    ...many('bob', [4, 5, 8, 9, 10, 12], 'format-error'),
    row('bob', 1, 'persona-drift', { kind: 'span', field: 'persona_summary', start: 0, end: 4 }),
    row('bob', 1, 'decay-error', { kind: 'tag', tag: '#d#' }), // same label on a tag: still one "present"
    row('carol', 1, 'random-pick'),
  ];

  it('per label and overall, on the steps both labelled (hand-computed)', () => {
    const ag = agreement(rows, 'alice', 'bob');
    expect(ag.units).toBe(10);
    const by = Object.fromEntries(ag.perLabel.map((p) => [p.label, p.kappa]));
    expect(Object.keys(by)).toEqual(['decay-error', 'format-error', 'persona-drift']);
    // decay: both {1,2,3}, only alice {4,5}, only bob {6,7}, neither {8,9,10}: po .6, pe .5, kappa .2
    expect(by['decay-error']).toMatchObject({ both: 3, onlyA: 2, onlyB: 2, neither: 3 });
    expect(by['decay-error'].kappa).toBeCloseTo(0.2, 12);
    expect(by['format-error'].kappa).toBeCloseTo(0.2, 12);
    // persona drift: only bob on 1 of 10: po .9, pe = 0 * .1 + 1 * .9 = .9, kappa 0
    expect(by['persona-drift'].kappa).toBeCloseTo(0, 12);
    // pooled over the 30 (step, label) decisions: both 6, only A 4, only B 5, neither 15;
    // po = 21/30, pe = (10/30)(11/30) + (20/30)(19/30) = 49/90, kappa = (63/90 - 49/90) / (41/90) = 14/41
    expect(ag.overall).toMatchObject({ both: 6, onlyA: 4, onlyB: 5, neither: 15, n: 30 });
    expect(ag.overall.kappa).toBeCloseTo(14 / 41, 12);
  });

  it('summary counts rows per label per platform and pairs only authors that share steps', () => {
    const s = summarize([...rows, row('alice', 20, 'decay-error', { kind: 'step' }, 'zhihu')]);
    expect(s.counts.get('decay-error')).toEqual(
      new Map([
        ['weibo', 11],
        ['zhihu', 1],
      ]),
    );
    expect(s.authors).toEqual(['alice', 'bob', 'carol']);
    expect(s.agreements.map((a) => `${a.authorA}/${a.authorB}:${a.units}`)).toEqual([
      'alice/bob:10',
      'alice/carol:1',
      'bob/carol:1',
    ]);
    const text = formatSummary(s, new Map([['decay-error', 'D_decay pick']]));
    expect(text).toMatch(/D_decay pick\s+11\s+1\s+12/);
    expect(text).toContain('overall kappa 0.341');
  });
});

describe('suggestLabels', () => {
  const split: PoolSplit = {
    tKeep: ['#k1#', '#k2#'],
    tNew: ['#n#'],
    dDecay: ['#d#'],
    dPeer: ['#p#'],
    dViral: ['#v#'],
    dRandom: ['#r1#', '#r2#', '#r3#'],
  };
  const pool = ['#k1#', '#k2#', '#n#', '#d#', '#p#', '#v#', '#r1#', '#r2#', '#r3#', '#r4#']; // k = round(2.5) = 2
  const ids = (prediction: unknown[], extra = {}) =>
    suggestLabels({ split, pool, prediction, ...extra }).map((s) => s.labelId);

  it('suggests a label per distractor class picked, and Missed T_new / T_keep when none was picked', () => {
    const s = suggestLabels({ split, pool, prediction: ['#d#', '#p#'] });
    expect(s.map((x) => x.labelId)).toEqual(['decay-error', 'peer-confusion', 'missed-novelty', 'missed-stability']);
    expect(s[0]).toMatchObject({ tags: ['#d#'], reason: 'picked D_decay tag(s): #d#' });
    expect(s[1].reason).toBe('picked D_peer tag(s): #p#');
    expect(s[3].tags).toEqual(['#k1#', '#k2#']);
    expect(ids(['#r2#', '#n#'])).toEqual(['random-pick', 'missed-stability']);
  });

  it('only flags partial misses when asked to', () => {
    expect(ids(['#k1#', '#n#'])).toEqual([]);
    const partial = suggestLabels({ split, pool, prediction: ['#k1#', '#n#'] }, { missed: 'any-missed' });
    expect(partial).toEqual([{ labelId: 'missed-stability', reason: 'T_keep not picked: #k2#', tags: ['#k2#'] }]);
  });

  it('suggests a format error for wrong count, duplicates, out-of-pool picks and failed replies', () => {
    const s = suggestLabels({ split, pool, prediction: ['#v#', '#v#', '#zzz#'] });
    expect(s.map((x) => x.labelId)).toEqual(['popularity-bias', 'missed-novelty', 'missed-stability', 'format-error']);
    expect(s[3].reason).toBe('3 tag(s) predicted, 2 asked for; duplicates: #v#; not in the pool: #zzz#');
    expect(s[3].tags).toEqual(['#v#', '#zzz#']);
    expect(ids([], { reasoning: 'Error: Request timed out' })).toContain('format-error');
    const flags = parseReply('{"predicted_tags": [', pool, 2).flags;
    const fromFlags = suggestLabels({ split, pool, prediction: [], replyFlags: flags }).find(
      (x) => x.labelId === 'format-error',
    );
    expect(fromFlags?.reason).toMatch(/^Not JSON/);
  });

  it('keeps to the label set in use and to what the metrics define', () => {
    const set = DEFAULT_LABELS.filter((l) => l.id !== 'decay-error');
    expect(suggestLabels({ split, pool, prediction: ['#d#', '#k1#'] }, { labels: set }).map((s) => s.labelId)).toEqual([
      'missed-novelty',
    ]);
    const unscored: PoolSplit = { ...split, tKeep: [], tNew: [] };
    expect(suggestLabels({ split: unscored, pool, prediction: ['#d#', '#p#'] }).map((s) => s.labelId)).toEqual([
      'decay-error',
      'peer-confusion',
    ]);
  });
});
