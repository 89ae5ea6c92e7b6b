import { describe, expect, it } from 'vitest';
import { durationSeconds, predictedBinaryLabel } from '../../src/core/omni/fields';
import { questionVerdict, scoreOmniRun } from '../../src/core/omni/score';
import { pyFloat } from '../../src/core/io/pyNumber';
import { fakeBench, question } from './omni-fixture';

const V = 'Video Browsing' as const;
const { bench, run } = fakeBench([
  {
    user: 'a',
    index: 1,
    scene: V,
    normaliser: 100,
    questions: [
      ['video_liked', 'Yes', 'Yes'],
      ['video_completed', 'No', 'No'],
      ['video_watch_seconds', 30, 40],
    ],
  },
  {
    user: 'a',
    index: 2,
    scene: V,
    normaliser: 50,
    questions: [
      ['video_liked', 'Yes', 'No'],
      ['video_completed', 'No', 'No'],
      ['video_watch_seconds', 10, 200],
    ],
  },
  {
    user: 'a',
    index: 3,
    scene: V,
    normaliser: 40,
    questions: [
      ['video_liked', 'No', 'Yes'],
      ['video_completed', 'No', 'No'],
      ['video_watch_seconds', 20, null],
    ],
  },
  {
    user: 'b',
    index: 4,
    scene: V,
    questions: [
      ['video_liked', 'No', 'No'],
      ['video_watch_seconds', 5, 5],
    ],
  },
  {
    user: 'b',
    index: 5,
    scene: V,
    normaliser: 0,
    questions: [
      ['video_liked', 'Yes', null],
      ['video_watch_seconds', 5, 6],
    ],
  },
  { user: 'b', index: 6, scene: 'Live Streaming', questions: [['live_sent_gift', 'Yes', 'Yes']] },
  { user: 'b', index: 7, scene: 'Live Streaming', questions: [['live_sent_gift', 'No', 'Yes']] },
  { user: 'b', index: 8, scene: 'Advertisement', questions: [['ad_activated', 'Yes', 'Yes']] },
  { user: 'b', index: 9, scene: 'E-commerce', questions: [['shop_order_success', 'No', 'Yes']] },
  { user: 'b', index: 10, scene: 'E-commerce', questions: [['shop_order_success', 'Yes', 'No']] },
  {
    user: 'b',
    index: 11,
    scene: 'Customer Service',
    questions: [['next_user_message', 'Where is it?', 'Any news?', 8]],
  },
  {
    user: 'b',
    index: 12,
    scene: 'Customer Service',
    questions: [['next_user_message', 'Refund?', 'Refund please', 6]],
  },
  { user: 'b', index: 13, scene: 'Customer Service', questions: [['next_user_message', 'Size M?', null]] },
  { user: 'b', index: 14, scene: 'Customer Service', questions: [['next_user_message', 'Hi', 'Hello']] },
  { user: 'b', index: 15, scene: 'Search Behavior', questions: [['search_keyword', 'cat videos', ' Cat Videos ']] },
  { user: 'b', index: 16, scene: 'Search Behavior', questions: [['search_keyword', 'cats', 'dogs']] },
]);
const score = scoreOmniRun(bench, run);
const field = (name: string) => score.fields.find((f) => f.field === name);

describe('scoreOmniRun, as the reference evaluator scores', () => {
  it('binary fields: counts, F1, accuracy, precision, recall over the answers that count', () => {
    // video_liked: Y/Y tp, Y/N fn, N/Y fp, N/N tn; Y/unparseable is left out (not a wrong answer).
    // precision 1/2, recall 1/2, F1 = 2PR/(P+R) = 0.5; accuracy 2/4.
    expect(field('video_liked')).toEqual({
      field: 'video_liked',
      kind: 'binary',
      scene: V,
      answered: 4,
      leftOut: 1,
      n: 4,
      tp: 1,
      fp: 1,
      fn: 1,
      tn: 1,
      f1: 0.5,
      accuracy: 0.5,
      precision: 0.5,
      recall: 0.5,
    });
    // video_completed: three N/N → no positives at all: F1 = precision = recall = 0 (metrics.py), accuracy 1.
    expect(field('video_completed')).toMatchObject({
      n: 3,
      tp: 0,
      fp: 0,
      fn: 0,
      tn: 3,
      f1: 0,
      precision: 0,
      recall: 0,
      accuracy: 1,
    });
    // live_sent_gift: tp 1, fp 1 → P 1/2, R 1 → F1 = 2/3.
    expect(field('live_sent_gift')?.f1).toBeCloseTo(2 / 3, 12);
    expect(field('shop_order_success')).toMatchObject({ tp: 0, fp: 1, fn: 1, tn: 0, f1: 0 });
  });

  it('continuous fields: NMAE over answers with a normaliser; an unparseable prediction is left out', () => {
    // |30−40| = 10 of 100 → 0.1; min(190, 50)/50 → 1; unparseable → left out; normaliser missing and 0 → skipped.
    // NMAE = mean(0.1, 1) × 100 = 55.
    expect(field('video_watch_seconds')).toMatchObject({
      field: 'video_watch_seconds',
      kind: 'continuous',
      scene: V,
      answered: 4,
      leftOut: 1,
      n: 2,
      skipped: 2,
    });
    expect(field('video_watch_seconds')?.nmae).toBeCloseTo(55, 12);
  });

  it('text fields: the judge mean over judged answers only, and keyword exact match', () => {
    // (8 + 6) / 2 = 7; the answer without a prediction is left out, the one without a judge score is not judged.
    expect(field('next_user_message')).toMatchObject({ answered: 3, leftOut: 1, n: 2, judgeMean: 7 });
    expect(field('search_keyword')).toMatchObject({ answered: 2, leftOut: 0, n: 2, accuracy: 0.5 });
  });

  it('components, overall and the run totals', () => {
    // video: mean(0.5, 0) × 100 = 25; live: 2/3 × 100; ads: 100; shop: 0; continuous: 100 − 55 = 45;
    // text: 7 × 10 = 70. Overall = (25 + 66.667 + 100 + 0 + 45 + 70) / 6.
    expect(score.components.videoBinary).toBeCloseTo(25, 12);
    expect(score.components.liveBinary).toBeCloseTo(200 / 3, 12);
    expect(score.components.adsBinary).toBe(100);
    expect(score.components.shopBinary).toBe(0);
    expect(score.components.videoContinuous).toBeCloseTo(45, 12);
    expect(score.components.shopText).toBe(70);
    expect(score.overall).toBeCloseTo((25 + 200 / 3 + 100 + 0 + 45 + 70) / 6, 12);
    // answered: liked 4, completed 3, watch 4, gift 2, ad 1, shop 2, message 3, keyword 2; left out: 3.
    expect(score.answered).toBe(21);
    expect(score.leftOut).toBe(3);
  });

  it('overall is undefined when a component is missing', () => {
    const { bench: b, run: r } = fakeBench([
      {
        user: 'a',
        index: 1,
        scene: V,
        normaliser: 10,
        questions: [
          ['video_liked', 'Yes', 'Yes'],
          ['video_watch_seconds', 4, 5],
        ],
      },
    ]);
    const s = scoreOmniRun(b, r);
    expect(s.components.videoBinary).toBe(100);
    expect(s.components.videoContinuous).toBe(90);
    expect(s.components.liveBinary).toBeUndefined();
    expect(s.overall).toBeUndefined();
  });

  it('gives ad and live watch times no NMAE, and rounds the judge mean to 5 decimals', () => {
    const { bench: b, run: r } = fakeBench([
      { user: 'a', index: 1, scene: 'Advertisement', normaliser: 30, questions: [['ad_watch_seconds', 4, 5]] },
      { user: 'a', index: 2, scene: 'Live Streaming', normaliser: 30, questions: [['live_watch_seconds', 4, 5]] },
      { user: 'a', index: 3, scene: 'Customer Service', questions: [['next_user_message', 'a', 'b', 8]] },
      { user: 'a', index: 4, scene: 'Customer Service', questions: [['next_user_message', 'a', 'b', 7]] },
      { user: 'a', index: 5, scene: 'Customer Service', questions: [['next_user_message', 'a', 'b', 7]] },
    ]);
    const s = scoreOmniRun(b, r);
    expect(s.fields.find((f) => f.field === 'ad_watch_seconds')).toMatchObject({
      answered: 1,
      n: 0,
      nmae: undefined,
      skipped: 1,
    });
    expect(s.fields.find((f) => f.field === 'live_watch_seconds')).toMatchObject({
      answered: 1,
      n: 0,
      nmae: undefined,
      skipped: 1,
    });
    expect(s.fields.find((f) => f.field === 'next_user_message')?.judgeMean).toBe(7.33333);
    expect(s.components.shopText).toBeCloseTo(73.3333, 10);
  });

  it('leaves a text answer with empty text out of the judge mean and counts it as left out, as the reference does', () => {
    // The authors' caller files an answer whose cleaned text is empty under failed_questions; the judge never sees it.
    const { bench: b, run: r } = fakeBench([
      { user: 'a', index: 1, scene: 'Customer Service', questions: [['next_user_message', 'a', 'b', 8]] },
      { user: 'a', index: 2, scene: 'Customer Service', questions: [['next_user_message', 'a', '', 2]] },
      { user: 'a', index: 3, scene: 'Customer Service', questions: [['next_user_message', 'a', ' \u3000\x1c ', 1]] },
      { user: 'a', index: 4, scene: 'Search Behavior', questions: [['search_keyword', 'cats', '  ']] },
    ]);
    const s = scoreOmniRun(b, r);
    expect(s.fields.find((f) => f.field === 'next_user_message')).toMatchObject({
      answered: 1,
      leftOut: 2,
      n: 1,
      judgeMean: 8,
    });
    expect(s.fields.find((f) => f.field === 'search_keyword')).toMatchObject({ answered: 0, leftOut: 1, n: 0 });
    expect(s.leftOut).toBe(3);
    expect(s.perAction.get('a#2')).toEqual({ correct: 0, incorrect: 0, graded: 0, leftOut: 1 });
    expect(questionVerdict(question(['next_user_message', 'a', '   ', 7]), undefined)).toEqual({ verdict: 'left-out' });
  });

  it('per test action counts for the tree', () => {
    expect(score.perAction.get('a#1')).toEqual({ correct: 2, incorrect: 0, graded: 1, leftOut: 0 });
    expect(score.perAction.get('a#3')).toEqual({ correct: 1, incorrect: 1, graded: 0, leftOut: 1 });
    expect(score.perAction.get('b#4')).toEqual({ correct: 1, incorrect: 0, graded: 0, leftOut: 0 });
    expect(score.perAction.get('b#5')).toEqual({ correct: 0, incorrect: 0, graded: 0, leftOut: 1 });
    expect(score.perAction.get('b#14')).toEqual({ correct: 0, incorrect: 0, graded: 0, leftOut: 0 });
  });
});

describe('questionVerdict', () => {
  it('grades each kind', () => {
    expect(questionVerdict(question(['video_liked', 'Yes', 'Yes']), undefined)).toEqual({ verdict: 'correct' });
    expect(questionVerdict(question(['video_liked', 'No', null]), undefined)).toEqual({ verdict: 'left-out' });
    expect(questionVerdict(question(['video_liked', 'No', 'perhaps']), undefined)).toEqual({ verdict: 'left-out' });
    expect(questionVerdict(question(['video_liked', 'maybe', 'Yes']), undefined)).toEqual({ verdict: 'unscored' });
    // min(|12 − 30|, 60) / 60 = 0.3
    expect(questionVerdict(question(['video_watch_seconds', 12, 30]), 60)).toEqual({ verdict: 'graded', error: 0.3 });
    expect(questionVerdict(question(['video_watch_seconds', 12, 300]), 60)).toEqual({ verdict: 'graded', error: 1 });
    expect(questionVerdict(question(['video_watch_seconds', 12, null]), 60)).toEqual({ verdict: 'left-out' });
    expect(questionVerdict(question(['video_watch_seconds', 12, '45秒']), 60)).toEqual({ verdict: 'left-out' });
    expect(questionVerdict(question(['video_watch_seconds', 12, ' 30 ']), 60)).toEqual({
      verdict: 'graded',
      error: 0.3,
    });
    expect(questionVerdict(question(['video_watch_seconds', 12, 30]), 0)).toEqual({ verdict: 'unscored' });
    expect(questionVerdict(question(['next_user_message', 'a', 'b', 7]), undefined)).toEqual({ verdict: 'graded' });
    expect(questionVerdict(question(['next_user_message', 'a', null, 7]), undefined)).toEqual({ verdict: 'left-out' });
    expect(questionVerdict(question(['search_keyword', 'Cats', 'cats']), undefined)).toEqual({ verdict: 'correct' });
  });

  it('reads a binary answer without a label as Yes at a probability of 0.5 or more', () => {
    for (const [value, label] of [
      [0.73, 1],
      [0.5, 1],
      [0.4999, 0],
      ['0.9', 1],
      [' 0.2 ', 0],
      ['Yes', 1],
      ['no', 0],
      [1, 1],
      [0, 0],
    ] as const) {
      const q = question(['video_liked', 'Yes', value]);
      expect(q.predictedLabel, String(value)).toBe(label);
      expect(questionVerdict(q, undefined).verdict).toBe(label === 1 ? 'correct' : 'incorrect');
    }
    // A label given wins over the value, as predicted_label does in the reference.
    expect(predictedBinaryLabel(0, 0.9)).toBe(0);
    expect(predictedBinaryLabel(null, 'unsure')).toBeNull();
  });
});

describe('the reference number rules', () => {
  it('reads durations as the reference does: 秒 stripped, not above 0 is none', () => {
    expect(durationSeconds(45)).toBe(45);
    expect(durationSeconds('45秒')).toBe(45);
    expect(durationSeconds(' 12.5 秒')).toBe(12.5);
    expect(durationSeconds('0秒')).toBeUndefined();
    expect(durationSeconds('')).toBeUndefined();
    expect(durationSeconds(-3)).toBeUndefined();
    expect(durationSeconds('一分钟')).toBeUndefined();
    expect(durationSeconds(null)).toBeUndefined();
  });

  it("reads numbers as Python's float() does", () => {
    expect(pyFloat(' 12 ')).toBe(12);
    expect(pyFloat('1_000')).toBe(1000);
    expect(pyFloat('1e3')).toBe(1000);
    expect(pyFloat('.5')).toBe(0.5);
    expect(pyFloat('5.')).toBe(5);
    expect(pyFloat('-inf')).toBe(-Infinity);
    expect(pyFloat('NaN')).toBeNaN();
    for (const bad of ['', ' ', '0x10', '1__0', '_1', '45秒', 'Infinityx', '1e', null])
      expect(pyFloat(bad), String(bad)).toBeUndefined();
  });
});
