import { describe, expect, it } from 'vitest';
import type { OmniRun, OmniUser, Question, TestAction } from '../../src/core/omni/types';
import { buildTraceModel, contextEntries, questionRow } from '../../src/extension/benchmarks/omni/model';

const q = (over: Partial<Question>): Question => ({
  type: 'binary',
  field: 'video_liked',
  trueValue: 'No',
  predictedValue: 'Yes',
  predictedLabel: 1,
  rawOutput: 'Answer: Yes',
  ...over,
});

describe('trace model', () => {
  const none = { normaliser: undefined };

  it('marks binary answers right or wrong, an unparsed one left out with a note', () => {
    expect(questionRow(q({}), none)).toMatchObject({ verdict: 'incorrect', note: '', hasRaw: true, absError: null });
    expect(questionRow(q({ predictedValue: 'No', predictedLabel: 0 }), none).verdict).toBe('correct');
    const unparsed = questionRow(q({ predictedValue: null, predictedLabel: null, rawOutput: '' }), none);
    expect(unparsed).toMatchObject({ verdict: 'left-out', hasRaw: false });
    expect(unparsed.note).toMatch(/no usable predicted Yes \/ No or probability: left out of every metric/);
  });

  it('gives continuous fields their error against the normaliser, and says when there is none', () => {
    const watch = q({
      type: 'continuous',
      field: 'video_watch_seconds',
      trueValue: 41,
      predictedValue: 88,
      predictedLabel: null,
    });
    const row = questionRow(watch, { normaliser: 114 });
    expect(row.verdict).toBe('graded');
    expect(row.absError).toBe(47);
    expect(row.normalisedError).toBeCloseTo((47 / 114) * 100, 10);
    // The error is capped at the normaliser: min(|41 − 500|, 114) / 114 = 100 %.
    expect(questionRow({ ...watch, predictedValue: 500 }, { normaliser: 114 }).normalisedError).toBe(100);
    const skipped = questionRow(watch, none);
    expect(skipped).toMatchObject({ verdict: 'unscored', absError: 47, normalisedError: null });
    expect(skipped.note).toMatch(/no normaliser/);
    // Only video watch time has a normaliser: an ad watch time gets none, whatever the record says.
    const ad = questionRow({ ...watch, field: 'ad_watch_seconds' }, { normaliser: 114 });
    expect(ad).toMatchObject({ verdict: 'unscored', normalisedError: null });
    expect(ad.note).toMatch(/only video watch time has one/);
    // The question's own video_duration comes first, as the reference's runner writes it.
    expect(questionRow({ ...watch, videoDuration: '94秒' }, { normaliser: 114 }).verdict).toBe('unscored');
    expect(questionRow({ ...watch, videoDuration: 94 }, { normaliser: 114 }).normalisedError).toBeCloseTo(
      (47 / 94) * 100,
      10,
    );
  });

  it('keeps both utterances of next_user_message and its judge score', () => {
    const msg = q({
      type: 'text',
      field: 'next_user_message',
      trueValue: 'Where is it?',
      predictedValue: 'Any news?',
      predictedLabel: null,
      judgeScore: 6,
    });
    expect(questionRow(msg, none)).toMatchObject({
      verdict: 'graded',
      trueValue: 'Where is it?',
      predictedValue: 'Any news?',
      judgeScore: 6,
    });
  });

  it('builds the model: counts, context text, and a missing prediction', () => {
    const action: TestAction = {
      userId: 'u1',
      index: 7,
      scene: 'Video Browsing',
      timestamp: '2025-03-01 10:00:00',
      fields: ['video_liked', 'video_completed'],
      line: 3,
      normaliser: 60,
    };
    const user = {
      userId: 'u1',
      profile: 'Male, 30-35.',
      file: '/x/raw/u1.json',
      relFile: 'raw/u1.json',
      historyLength: 9,
      testActions: [action],
    } as unknown as OmniUser;
    const run: OmniRun = {
      name: 'r',
      dir: '/x/results/r',
      file: 'results/r/predictions.jsonl',
      predictions: new Map([
        [
          'u1#7',
          {
            userId: 'u1',
            index: 7,
            file: 'results/r/predictions.jsonl',
            line: 1,
            questions: [q({}), q({ field: 'video_completed', predictedValue: 'No', predictedLabel: 0 })],
          },
        ],
      ]),
    };
    const record = {
      index: 7,
      scene: 'Video Browsing' as const,
      sceneRaw: '视频浏览',
      timestamp: action.timestamp,
      time: 0,
      line: 9,
      context: { caption: 'cats', duration: 60, asr: null },
      actions: [],
    };
    const counts = { scenes: [], behaviours: [] };
    const m = buildTraceModel({ user, action, run, record, counts });
    expect(m.counts).toEqual({ correct: 1, incorrect: 1, graded: 0, 'left-out': 0, unscored: 0 });
    expect(m).toMatchObject({
      run: 'r',
      noPrediction: false,
      normaliser: 60,
      profile: 'Male, 30-35.',
      historyLength: 9,
      position: 1,
      actions: 1,
    });
    expect(m.context).toEqual([
      { key: 'caption', value: 'cats' },
      { key: 'duration', value: '60' },
      { key: 'asr', value: '—' },
    ]);
    const none = buildTraceModel({ user, action: { ...action, index: 8 }, run, record: undefined, counts });
    expect(none).toMatchObject({ noPrediction: true, questions: [], context: [], contextState: 'unreadable' });
    expect(m.contextState).toBe('read');
    // A record read with no context is not an unreadable one.
    expect(buildTraceModel({ user, action, run, record: { ...record, context: null }, counts })).toMatchObject({
      context: [],
      contextState: 'none',
    });
    expect(buildTraceModel({ user, action, run, record: { ...record, context: {} }, counts }).contextState).toBe(
      'none',
    );
    expect(buildTraceModel({ user, action, run: undefined, record, counts })).toMatchObject({
      run: null,
      noPrediction: false,
    });
    expect(contextEntries({ long: 'x'.repeat(3000) })[0].value).toHaveLength(2001);
  });
});
