// Compare Runs on OmniBehavior, on hand-made runs whose figures and intervals are known without a computer: when
// every user moves by the same amount the interval is that one point; with two users (a tie and a gain) the
// resamples can only give 0, ½ or 1 of the gain, so the 95 % interval is [0, gain]; over one user there is no
// interval. Each side's figures are the run's own score (score.ts) when both runs answer the same questions.
import { describe, expect, it } from 'vitest';
import {
  compareOmniRuns,
  omniCompareProblem,
  omniCompareTexts,
  type OmniComparison,
} from '../../src/core/omni/compare';
import { scoreOmniRun } from '../../src/core/omni/score';
import type { OmniBenchmark, OmniRun, Scene } from '../../src/core/omni/types';
import { COMPARE_RESAMPLES, COMPARE_SEED } from '../../src/core/stats/bootstrap';
import { pairedFigureDifference } from '../../src/core/stats/pairedUnits';
import { fakeBench, type FakeAction, type Q } from './omni-fixture';

const V: Scene = 'Video Browsing';

/** The bench of A's actions, run A and run B (B's predictions for the same test actions, or fewer). */
function twoRuns(a: FakeAction[], b: FakeAction[]): { bench: OmniBenchmark; runA: OmniRun; runB: OmniRun } {
  const { bench, run } = fakeBench(a);
  const runA = { ...run, name: 'A' };
  const runB = { ...fakeBench(b).run, name: 'B' };
  bench.runs = new Map([
    ['A', runA],
    ['B', runB],
  ]);
  return { bench, runA, runB };
}

const row = (cmp: OmniComparison, slice: string) => {
  const r = cmp.rows.find((x) => x.slice === slice);
  if (!r) throw new Error(`no row ${slice}`);
  return r;
};

const texts = (cmp: OmniComparison, slice: string) => omniCompareTexts(row(cmp, slice));

describe('every user gains the same: the interval is that point', () => {
  // three users, each with a liked and a not-liked video; A says No to both, B gets both right
  const actions = (predict: (truth: string) => string): FakeAction[] =>
    ['u1', 'u2', 'u3'].flatMap((user, k) =>
      ['Yes', 'No'].map((truth, i) => ({
        user,
        index: 10 * k + i,
        scene: V,
        questions: [['video_liked', truth, predict(truth)] as Q],
      })),
    );

  it('gives video_liked F1 0 → 100, B − A = +100 in [+100, +100], three wins, and the three gains', () => {
    const { bench, runA, runB } = twoRuns(
      actions(() => 'No'),
      actions((t) => t),
    );
    const cmp = compareOmniRuns(bench, runA, runB);
    expect(row(cmp, 'video_liked')).toMatchObject({
      units: 3,
      answers: 6,
      figureA: 0,
      figureB: 100,
      diff: 100,
      low: 100,
      high: 100,
      win: 3,
      tie: 0,
      loss: 0,
      undecided: 0,
      defined: COMPARE_RESAMPLES,
      resamples: COMPARE_RESAMPLES,
      seed: COMPARE_SEED,
    });
    // the video component is the mean F1 of the video fields present: video_liked alone
    expect(row(cmp, 'videoBinary')).toMatchObject({ figureA: 0, figureB: 100, low: 100, high: 100 });
    expect(texts(cmp, 'video_liked')).toEqual({
      a: '0.00',
      b: '100.00',
      diff: '+100.00',
      interval: '[+100.00, +100.00]',
      clear: true,
    });
    // the overall needs all six components: none here
    expect(row(cmp, 'overall')).toMatchObject({ figureA: null, figureB: null, diff: null, low: null });
    expect(row(cmp, 'overall').measure).toContain('none: a component has no paired answer');
    expect(cmp.changed.map((c) => [c.userId, c.field, c.change, c.a, c.b])).toEqual([
      ['u1', 'video_liked', 'gained', 'No', 'Yes'],
      ['u2', 'video_liked', 'gained', 'No', 'Yes'],
      ['u3', 'video_liked', 'gained', 'No', 'Yes'],
    ]);
    expect(cmp.scope).toMatchObject({ actionsA: 6, actionsB: 6, paired: 6, users: 3, questions: 6, answers: 6 });
  });
});

describe('two users, a tie and a gain', () => {
  it('gives search_keyword 50 → 100, +50 in [0, +100]: resamples are 0, 50 or 100 and each end has a quarter', () => {
    const s = 'Search Behavior' as const;
    const { bench, runA, runB } = twoRuns(
      [
        { user: 'u1', index: 1, scene: s, questions: [['search_keyword', 'cat videos', 'cat videos']] },
        { user: 'u2', index: 2, scene: s, questions: [['search_keyword', 'dog toys', 'cat toys']] },
      ],
      [
        { user: 'u1', index: 1, scene: s, questions: [['search_keyword', 'cat videos', 'Cat Videos']] },
        { user: 'u2', index: 2, scene: s, questions: [['search_keyword', 'dog toys', 'dog toys']] },
      ],
    );
    const cmp = compareOmniRuns(bench, runA, runB);
    expect(row(cmp, 'search_keyword')).toMatchObject({
      figureA: 50,
      figureB: 100,
      diff: 50,
      low: 0,
      high: 100,
      win: 1,
      tie: 1,
      loss: 0,
    });
    // 0 is inside: not marked
    expect(texts(cmp, 'search_keyword')).toMatchObject({ interval: '[0.00, +100.00]', clear: false });
    expect(cmp.changed.map((c) => [c.userId, c.change])).toEqual([['u2', 'gained']]);
  });
});

describe('graded answers and one user', () => {
  const actions = (watch: number, judge: number): FakeAction[] => [
    { user: 'u1', index: 1, scene: V, normaliser: 100, questions: [['video_watch_seconds', 30, watch]] },
    {
      user: 'u1',
      index: 2,
      scene: 'Customer Service',
      questions: [['next_user_message', 'Where is it?', 'Any news?', judge]],
    },
  ];

  it('turns a smaller error into a lower NMAE (a win), a higher judge score into a gain, with no interval', () => {
    const { bench, runA, runB } = twoRuns(actions(40, 6), actions(35, 8));
    const cmp = compareOmniRuns(bench, runA, runB);
    // NMAE: |30 − 40| / 100 = 10 %, |30 − 35| / 100 = 5 %; lower is better, so B's −5 is a win
    const nmae = row(cmp, 'video_watch_seconds');
    expect(nmae).toMatchObject({ lowerIsBetter: true, units: 1, win: 1, loss: 0 });
    expect(nmae.figureA).toBeCloseTo(10, 12);
    expect(nmae.figureB).toBeCloseTo(5, 12);
    expect(row(cmp, 'videoContinuous').diff).toBeCloseTo(5, 12);
    expect(row(cmp, 'next_user_message')).toMatchObject({ figureA: 6, figureB: 8, diff: 2, win: 1 });
    expect(row(cmp, 'shopText')).toMatchObject({ figureA: 60, figureB: 80, diff: 20 });
    // one user: every resample is that user, so no interval is written
    expect(texts(cmp, 'shopText')).toMatchObject({ diff: '+20.00', interval: '— (1 user)', clear: false });
    expect(cmp.changed.map((c) => [c.field, c.change, c.gradeA, c.gradeB])).toEqual([
      ['video_watch_seconds', 'better', 10, 5],
      ['next_user_message', 'better', 6, 8],
    ]);
  });
});

describe('pairing and what is left out', () => {
  const full: FakeAction[] = [
    {
      user: 'u1',
      index: 1,
      scene: V,
      questions: [
        ['video_liked', 'Yes', 'Yes'],
        ['video_completed', 'No', 'No'],
        ['video_shared', 'No', null],
      ],
    },
    { user: 'u1', index: 2, scene: 'Live Streaming', questions: [['live_watch_seconds', 30, 20]] },
    { user: 'u2', index: 3, scene: V, questions: [['video_liked', 'Yes', 'Yes']] },
    { user: 'u3', index: 4, scene: V, questions: [['video_liked', 'No', 'No']] },
  ];

  it('compares the answers both runs can score, counts the rest, and lists a dropped answer', () => {
    const b: FakeAction[] = [
      {
        ...full[0],
        questions: [
          ['video_liked', 'Yes', null],
          ['video_completed', 'No', 'Yes'],
          ['video_shared', 'No', null],
        ],
      },
      full[1],
      full[2],
    ];
    const { bench, runA, runB } = twoRuns(full, b);
    const cmp = compareOmniRuns(bench, runA, runB);
    expect(cmp.scope).toEqual({
      actionsA: 4,
      actionsB: 3,
      paired: 3,
      users: 2,
      usersOnlyA: 1,
      usersOnlyB: 0,
      questions: 5,
      answers: 2,
      noneA: 0,
      noneB: 1,
      noneBoth: 1,
      // live watch time: no normaliser, so no metric
      unscored: 1,
    });
    // losses first, then what B left out
    expect(cmp.changed.map((c) => [c.field, c.change, c.b])).toEqual([
      ['video_completed', 'lost', 'Yes'],
      ['video_liked', 'outB', ''],
    ]);
    expect(cmp.rows.map((r) => r.slice)).toEqual(['overall', 'videoBinary', 'video_completed', 'video_liked']);
    // video_liked is paired for u2 only: one user
    expect(row(cmp, 'video_liked')).toMatchObject({ units: 1, answers: 1 });
  });

  it('refuses a run against itself and runs that share no test action, saying why', () => {
    const { runA } = twoRuns(full, []);
    const other = { ...twoRuns([full[3]], [full[3]]).runA, name: 'C' };
    expect(omniCompareProblem(runA, runA)).toBe('A is compared with itself');
    const onlyFirst = { ...runA, predictions: new Map([...runA.predictions].slice(0, 1)) };
    expect(omniCompareProblem(onlyFirst, other)).toBe('A and C share no test action: they predict 1 and 1 other ones');
    expect(omniCompareProblem(runA, other)).toBeUndefined();
  });
});

describe("each side's figures are the run's own score", () => {
  const q = (liked: string, watch: number, judge: number): FakeAction[] => [
    {
      user: 'u1',
      index: 1,
      scene: V,
      normaliser: 60,
      questions: [
        ['video_liked', 'Yes', liked],
        ['video_watch_seconds', 30, watch],
      ],
    },
    { user: 'u1', index: 2, scene: 'Live Streaming', questions: [['live_sent_gift', 'No', 'Yes']] },
    { user: 'u2', index: 3, scene: 'Advertisement', questions: [['ad_activated', 'Yes', 'Yes']] },
    { user: 'u2', index: 4, scene: 'E-commerce', questions: [['shop_order_success', 'No', 'No']] },
    {
      user: 'u2',
      index: 5,
      scene: V,
      normaliser: 100,
      questions: [
        ['video_liked', 'No', liked],
        ['video_watch_seconds', 50, 70],
      ],
    },
    { user: 'u3', index: 6, scene: 'Customer Service', questions: [['next_user_message', 'Hi', 'Hello', judge]] },
  ];

  it('gives the overall and the components of score.ts when both runs answer every question', () => {
    const { bench, runA, runB } = twoRuns(q('No', 45, 4), q('Yes', 20, 9));
    const cmp = compareOmniRuns(bench, runA, runB);
    const [sa, sb] = [scoreOmniRun(bench, runA), scoreOmniRun(bench, runB)];
    expect(sa.overall).toBeDefined();
    expect(row(cmp, 'overall').figureA).toBe(sa.overall);
    expect(row(cmp, 'overall').figureB).toBe(sb.overall);
    for (const c of ['videoBinary', 'liveBinary', 'adsBinary', 'shopBinary', 'videoContinuous', 'shopText'] as const) {
      expect(row(cmp, c).figureA).toBe(sa.components[c]);
      expect(row(cmp, c).figureB).toBe(sb.components[c]);
    }
    // the overall's unit is every user with a paired answer; a resample that draws no user with some component has
    // no overall, so its interval is over the others only, and says how many
    const overall = row(cmp, 'overall');
    expect(overall).toMatchObject({ units: 3, undecided: 3 });
    expect(overall.defined).toBeGreaterThan(0);
    expect(overall.defined).toBeLessThan(overall.resamples);
  });
});

describe('the paired figure difference with nothing paired', () => {
  it('gives no figure rather than 0', () => {
    const none = pairedFigureDifference<number>([], { figure: () => NaN });
    expect(none).toMatchObject({ units: 0, diff: null, low: null, high: null });
  });
});
