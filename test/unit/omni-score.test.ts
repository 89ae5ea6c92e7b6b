import { describe, expect, it } from 'vitest';
import { questionVerdict, scoreOmniRun } from '../../src/core/omni/score';
import { fakeBench, question } from './omni-fixture';

const V = 'Video Browsing' as const;
const { bench, run } = fakeBench([
  { user: 'a', index: 1, scene: V, normaliser: 100, questions: [['video_liked', 'Yes', 'Yes'], ['video_completed', 'No', 'No'], ['video_watch_seconds', 30, 40]] },
  { user: 'a', index: 2, scene: V, normaliser: 50, questions: [['video_liked', 'Yes', 'No'], ['video_completed', 'No', 'No'], ['video_watch_seconds', 10, 200]] },
  { user: 'a', index: 3, scene: V, normaliser: 40, questions: [['video_liked', 'No', 'Yes'], ['video_completed', 'No', 'No'], ['video_watch_seconds', 20, null]] },
  { user: 'b', index: 4, scene: V, questions: [['video_liked', 'No', 'No'], ['video_watch_seconds', 5, 5]] },
  { user: 'b', index: 5, scene: V, normaliser: 0, questions: [['video_liked', 'Yes', null], ['video_watch_seconds', 5, 6]] },
  { user: 'b', index: 6, scene: 'Live Streaming', questions: [['live_sent_gift', 'Yes', 'Yes']] },
  { user: 'b', index: 7, scene: 'Live Streaming', questions: [['live_sent_gift', 'No', 'Yes']] },
  { user: 'b', index: 8, scene: 'Advertisement', questions: [['ad_activated', 'Yes', 'Yes']] },
  { user: 'b', index: 9, scene: 'E-commerce', questions: [['shop_order_success', 'No', 'Yes']] },
  { user: 'b', index: 10, scene: 'E-commerce', questions: [['shop_order_success', 'Yes', 'No']] },
  { user: 'b', index: 11, scene: 'Customer Service', questions: [['next_user_message', 'Where is it?', 'Any news?', 8]] },
  { user: 'b', index: 12, scene: 'Customer Service', questions: [['next_user_message', 'Refund?', 'Refund please', 6]] },
  { user: 'b', index: 13, scene: 'Customer Service', questions: [['next_user_message', 'Size M?', null]] },
  { user: 'b', index: 14, scene: 'Customer Service', questions: [['next_user_message', 'Hi', 'Hello']] },
  { user: 'b', index: 15, scene: 'Search Behavior', questions: [['search_keyword', 'cat videos', ' Cat Videos ']] },
  { user: 'b', index: 16, scene: 'Search Behavior', questions: [['search_keyword', 'cats', 'dogs']] },
]);
const score = scoreOmniRun(bench, run);
const field = (name: string) => score.fields.find((f) => f.field === name);

describe('scoreOmniRun', () => {
  it('binary fields: counts, F1, accuracy, precision, recall', () => {
    // video_liked: Y/Y tp, Y/N fn, N/Y fp, N/N tn, Y/unparseable fn → tp 1, fp 1, fn 2, tn 1.
    // precision 1/(1+1) = 0.5; recall 1/(1+2) = 1/3; F1 = 2·1/(2·1+1+2) = 0.4; accuracy (1+1)/5 = 0.4.
    expect(field('video_liked')).toEqual({
      field: 'video_liked', kind: 'binary', scene: V, n: 5, tp: 1, fp: 1, fn: 2, tn: 1, f1: 0.4, accuracy: 0.4, precision: 0.5, recall: 1 / 3,
    });
    // video_completed: three N/N → no positives at all: F1 = precision = recall = 0 (zero_division=0), accuracy 1.
    expect(field('video_completed')).toMatchObject({ n: 3, tp: 0, fp: 0, fn: 0, tn: 3, f1: 0, precision: 0, recall: 0, accuracy: 1 });
    // live_sent_gift: tp 1, fp 1 → F1 = 2/(2+1) = 2/3.
    expect(field('live_sent_gift')?.f1).toBeCloseTo(2 / 3, 12);
    expect(field('shop_order_success')).toMatchObject({ tp: 0, fp: 1, fn: 1, tn: 0, f1: 0 });
  });

  it('continuous fields: NMAE with the normaliser, skipping a missing or zero one', () => {
    // |30−40| = 10 of 100 → 10; min(190, 50)/50 → 100; unparseable → 100; normaliser missing and 0 → skipped.
    // NMAE = (10 + 100 + 100) / 3 = 70.
    expect(field('video_watch_seconds')).toEqual({ field: 'video_watch_seconds', kind: 'continuous', scene: V, n: 3, nmae: 70, skipped: 2 });
  });

  it('text fields: judge mean (unparseable = 1, unjudged left out) and keyword exact match', () => {
    // (8 + 6 + 1) / 3 = 5; the answer without a judge score is not counted.
    expect(field('next_user_message')).toMatchObject({ n: 3, judgeMean: 5 });
    expect(field('search_keyword')).toMatchObject({ n: 2, accuracy: 0.5 });
  });

  it('components and overall', () => {
    // video: mean(0.4, 0) × 100 = 20; live: 2/3 × 100; ads: 1 × 100; shop: 0; continuous: 100 − 70 = 30;
    // text: 5 × 10 = 50. Overall = (20 + 66.667 + 100 + 0 + 30 + 50) / 6 = 44.444.
    expect(score.components.videoBinary).toBeCloseTo(20, 12);
    expect(score.components.liveBinary).toBeCloseTo(200 / 3, 12);
    expect(score.components.adsBinary).toBe(100);
    expect(score.components.shopBinary).toBe(0);
    expect(score.components.videoContinuous).toBe(30);
    expect(score.components.shopText).toBe(50);
    expect(score.overall).toBeCloseTo((20 + 200 / 3 + 100 + 0 + 30 + 50) / 6, 12);
  });

  it('overall is undefined when a component is missing', () => {
    const { bench: b, run: r } = fakeBench([{ user: 'a', index: 1, scene: V, normaliser: 10, questions: [['video_liked', 'Yes', 'Yes'], ['video_watch_seconds', 4, 5]] }]);
    const s = scoreOmniRun(b, r);
    expect(s.components.videoBinary).toBe(100);
    expect(s.components.videoContinuous).toBe(90);
    expect(s.components.liveBinary).toBeUndefined();
    expect(s.overall).toBeUndefined();
  });

  it('per test action counts for the tree', () => {
    expect(score.perAction.get('a#1')).toEqual({ correct: 2, incorrect: 0, graded: 1 });
    expect(score.perAction.get('a#3')).toEqual({ correct: 1, incorrect: 2, graded: 0 });
    expect(score.perAction.get('b#4')).toEqual({ correct: 1, incorrect: 0, graded: 0 });
    expect(score.perAction.get('b#14')).toEqual({ correct: 0, incorrect: 0, graded: 0 });
  });
});

describe('questionVerdict', () => {
  it('grades each kind', () => {
    expect(questionVerdict(question(['video_liked', 'Yes', 'Yes']), undefined)).toEqual({ verdict: 'correct' });
    expect(questionVerdict(question(['video_liked', 'No', null]), undefined)).toEqual({ verdict: 'incorrect' });
    expect(questionVerdict(question(['video_liked', 'maybe', 'Yes']), undefined)).toEqual({ verdict: 'unscored' });
    // min(|12 − 30|, 60) / 60 × 100 = 30
    expect(questionVerdict(question(['video_watch_seconds', 12, 30]), 60)).toEqual({ verdict: 'graded', error: 30 });
    expect(questionVerdict(question(['video_watch_seconds', 12, 300]), 60)).toEqual({ verdict: 'graded', error: 100 });
    expect(questionVerdict(question(['video_watch_seconds', 12, null]), 60)).toEqual({ verdict: 'incorrect', error: 100 });
    expect(questionVerdict(question(['video_watch_seconds', 12, 30]), 0)).toEqual({ verdict: 'unscored' });
    expect(questionVerdict(question(['next_user_message', 'a', 'b', 7]), undefined)).toEqual({ verdict: 'graded' });
    expect(questionVerdict(question(['search_keyword', 'Cats', 'cats']), undefined)).toEqual({ verdict: 'correct' });
  });
});
