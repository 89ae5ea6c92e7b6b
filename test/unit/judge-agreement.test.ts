// People's judge scores in the label database (schema v4) and the judge's agreement with them per dimension.
import Database from 'better-sqlite3';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { labelKey, labelsCli, labelStores } from './labelStore-fixture';
import { benchmarkId } from '../../src/core/labels/model';
import { omniBehavior } from '../../src/core/omni/format';
import { migrate, SCHEMA_VERSION } from '../../src/core/labels/migrations';
import { isNoOp } from '../../src/core/labels/model';
import { utteranceHash, type ScoreKey } from '../../src/core/labels/scores';
import { LabelStoreError } from '../../src/core/labels/store';
import {
  judgeAgreement,
  quadraticKappa,
  ranks,
  spearman,
  utteranceAt,
  utteranceText,
} from '../../src/core/omni/judgeAgreement';
import { JUDGE_DIMENSIONS, type OmniRun, type Question } from '../../src/core/omni/types';
import { OMNI_SAMPLE, SAMPLE } from '../support/committedSample';

const stores = labelStores();
const key = (over: Partial<ScoreKey> = {}): ScoreKey => ({
  benchmark: 'omni',
  userId: 'u_1',
  index: 40,
  run: 'demo',
  author: 'alice',
  dimension: 'intent_fidelity',
  ...over,
});

// Expected values from scipy.stats.spearmanr and a direct numpy reading of sklearn's cohen_kappa_score with
// weights="quadratic" and labels 1..10 (computed once, here as fixtures).
const FIXTURES = [
  {
    a: [7, 8, 6, 9, 5, 7, 3, 8, 10, 6],
    b: [6, 8, 7, 9, 4, 7, 2, 9, 9, 5],
    rho: 0.9379062905624118,
    kappa: 0.9206349206349207,
  },
  { a: [5, 5, 6, 6, 7, 7, 8, 8], b: [3, 9, 4, 8, 7, 2, 10, 6], rho: 0.14638501094227999, kappa: 0.12857142857142856 },
  { a: [1, 10, 1, 10, 5, 5], b: [10, 1, 10, 1, 5, 5], rho: -1, kappa: -0.9918032786885249 },
];

describe('Spearman and quadratic-weighted kappa', () => {
  it('match scipy and sklearn on fixed lists', () => {
    for (const f of FIXTURES) {
      expect(spearman(f.a, f.b)).toBeCloseTo(f.rho, 12);
      expect(quadraticKappa(f.a, f.b)).toBeCloseTo(f.kappa, 12);
    }
  });

  it('give ties their mean rank; perfect agreement is 1; undefined cases are null, not 0', () => {
    expect(ranks([3, 1, 3, 2])).toEqual([3.5, 1, 3.5, 2]);
    expect(spearman([1, 2, 3], [4, 5, 9])).toBeCloseTo(1, 12);
    expect(quadraticKappa([2, 5, 9], [2, 5, 9])).toBe(1);
    expect(spearman([5], [5])).toBeNull();
    expect(spearman([5, 5, 5], [1, 2, 3])).toBeNull();
    expect(quadraticKappa([7, 7], [7, 7])).toBeNull();
    expect(quadraticKappa([], [])).toBeNull();
  });
});

describe('judge scores in the label store', () => {
  it('set, replace, remove: one row per author, answer and dimension, each with its inverse', () => {
    const s = stores.fresh('pl-scores-');
    const first = s.setScore(key(), 7, 'h1');
    expect(first.changed).toBe(true);
    const second = s.setScore(key(), 4, 'h1');
    expect(s.scores()).toMatchObject([{ score: 4, dimension: 'intent_fidelity', contentHash: 'h1' }]);
    s.apply(second.inverse);
    expect(s.scores().map((r) => r.score)).toEqual([7]);
    s.setScore(key({ author: 'bob' }), 9);
    s.setScore(key({ dimension: 'persona_mimicry' }), 2);
    expect(s.scores({ author: 'alice' })).toHaveLength(2);
    const removed = s.setScore(key(), null);
    expect(s.scores({ author: 'alice' }).map((r) => r.dimension)).toEqual(['persona_mimicry']);
    s.apply(removed.inverse);
    expect(
      s
        .scores({ author: 'alice' })
        .map((r) => r.score)
        .sort(),
    ).toEqual([2, 7]);
    expect(isNoOp(s.setScore(key({ userId: 'nobody' }), null).inverse)).toBe(true);
    s.apply(first.inverse);
    expect(s.scores({ author: 'alice' }).map((r) => r.dimension)).toEqual(['persona_mimicry']);
  });

  it('refuses scores outside 1–10, unknown dimensions and a missing run, changing nothing', () => {
    const s = stores.fresh('pl-scores-');
    expect(() => s.setScore(key(), 11)).toThrow(LabelStoreError);
    expect(() => s.setScore(key(), 0)).toThrow(/whole number from 1 to 10/);
    expect(() => s.setScore(key(), 6.5)).toThrow(LabelStoreError);
    expect(() => s.setScore(key({ dimension: 'tone' as never }), 5)).toThrow(/dimension must be one of/);
    expect(() => s.setScore(key({ run: '' }), 5)).toThrow(/run must be a non-empty string/);
    expect(s.scores()).toEqual([]);
  });

  it('a v3 database with labels migrates to v4 keeping them, and then takes scores', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'pl-scores-')), 'labels.db');
    const raw = new Database(path);
    migrate(raw, 3);
    raw.close();
    const v3 = stores.open(path);
    expect(v3.schemaVersion()).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBe(6);
    v3.add(labelKey());
    v3.setScore(key(), 8);
    v3.close();
    const again = stores.open(path);
    expect(again.count()).toBe(1);
    expect(again.scores()).toMatchObject([{ score: 8, run: 'demo', index: 40 }]);
  });
});

function question(text: string, scores?: number[]): Question {
  return {
    field: 'next_user_message',
    type: 'text',
    trueValue: 'the true message',
    predictedValue: text,
    predictedLabel: null,
    rawOutput: text,
    ...(scores
      ? { judgeScores: Object.fromEntries(JUDGE_DIMENSIONS.map((d, i) => [d, scores[i]])) as Question['judgeScores'] }
      : {}),
  };
}

function run(answers: { user: string; index: number; q: Question }[]): OmniRun {
  const predictions = new Map(
    answers.map((a) => [
      `${a.user}#${a.index}`,
      { userId: a.user, index: a.index, questions: [a.q], file: 'p.jsonl', line: 1 },
    ]),
  );
  return { name: 'demo', dir: '/x', file: 'p.jsonl', predictions };
}

describe('judgeAgreement', () => {
  const answers = [
    { user: 'u_1', index: 40, q: question('hello, is it in stock?', [7, 8, 6, 9]) },
    { user: 'u_1', index: 55, q: question('ok thanks', [3, 2, 5, 4]) },
    { user: 'u_2', index: 12, q: question('how long is delivery', [9, 9, 8, 10]) },
    { user: 'u_3', index: 8, q: question('not judged yet') },
  ];
  const r = run(answers);
  const row = (user: string, index: number, author: string, scores: number[], text?: string) =>
    JUDGE_DIMENSIONS.map((dimension, i) => ({
      ...key({ userId: user, index, author, dimension }),
      score: scores[i],
      createdAt: '2026-01-01T00:00:00Z',
      contentHash: text === undefined ? '' : utteranceHash(text),
    }));

  it('pairs each person with the judge per dimension; stale, missing and unjudged answers are counted apart', () => {
    const rows = [
      ...row('u_1', 40, 'alice', [6, 8, 5, 9], 'hello, is it in stock?'),
      ...row('u_1', 55, 'alice', [2, 3, 5, 3], 'ok thanks'),
      ...row('u_2', 12, 'alice', [10, 8, 8, 9], 'how long is delivery'),
      ...row('u_1', 40, 'bob', [8, 7, 7, 9]),
      ...row('u_1', 55, 'bob', [1, 1, 4, 4], 'an older answer'),
      ...row('u_9', 1, 'bob', [5, 5, 5, 5]),
      ...row('u_3', 8, 'bob', [5, 5, 5, 5], 'not judged yet'),
    ];
    const ag = judgeAgreement(r, rows);
    expect([ag.scoredByPeople, ag.judgedToo, ag.stale, ag.missing]).toEqual([4, 3, 4, 4]);
    const intent = ag.dimensions.find((d) => d.dimension === 'intent_fidelity')!;
    expect([intent.n, intent.answers, intent.people]).toEqual([4, 3, 2]);
    const judge = [7, 3, 9, 7];
    const people = [6, 2, 10, 8];
    expect(intent.spearman).toBeCloseTo(spearman(judge, people)!, 12);
    expect(intent.kappa).toBeCloseTo(quadraticKappa(judge, people)!, 12);
    expect(intent.meanJudge).toBe(6.5);
    expect(intent.meanPeople).toBe(6.5);
    expect(ag.dimensions.map((d) => d.dimension)).toEqual([...JUDGE_DIMENSIONS]);
  });

  it('no scores: n 0 and every figure undefined', () => {
    const ag = judgeAgreement(r, []);
    expect(ag.dimensions.every((d) => d.n === 0 && d.spearman === null && d.kappa === null)).toBe(true);
    expect(ag.dimensions[0].meanJudge).toBeNull();
  });
});

describe('persona-lab labels judge', () => {
  it('reads the folder’s scores of one run and prints the figures the core computes, as text and JSON', async () => {
    const root = join(mkdtempSync(join(tmpdir(), 'pl-judge-cli-')), 'omnibehavior');
    cpSync(OMNI_SAMPLE, root, { recursive: true });
    const { bench } = await omniBehavior.load(root, { runs: ['demo-sim'] });
    const run = bench.runs.get('demo-sim')!;
    const judged = [...run.predictions.values()].filter((p) => utteranceAt(run, p.userId, p.index)?.judgeScores);
    expect(judged.length).toBeGreaterThanOrEqual(6);
    const s = stores.open(join(root, '.personalab', 'labels.db'));
    const benchmark = benchmarkId(root);
    judged.slice(0, 6).forEach((p, i) => {
      const text = utteranceText(utteranceAt(run, p.userId, p.index));
      for (const [d, dimension] of JUDGE_DIMENSIONS.entries()) {
        const at = { benchmark, userId: p.userId, index: p.index, run: 'demo-sim', dimension };
        s.setScore({ ...at, author: 'alice' }, 1 + ((i * 3 + d) % 10), utteranceHash(text));
        if (i < 3) s.setScore({ ...at, author: 'bob' }, 10 - i, utteranceHash(text));
      }
    });
    // Another run's and another benchmark's scores stay out.
    s.setScore(key({ benchmark, run: 'other' }), 5);
    s.setScore(key({ benchmark: 'elsewhere', run: 'demo-sim' }), 5);
    s.close();

    const json = await labelsCli(['judge', root], { run: ['demo-sim'], json: true });
    expect(json.err).toBe('');
    expect(json.code).toBe(0);
    const printed = JSON.parse(json.out) as ReturnType<typeof judgeAgreement>;
    const rows = stores.open(join(root, '.personalab', 'labels.db')).scores({ benchmark, run: 'demo-sim' });
    expect(printed).toEqual(judgeAgreement(run, rows));
    expect(printed.dimensions.map((d) => [d.n, d.answers, d.people])).toEqual(JUDGE_DIMENSIONS.map(() => [9, 6, 2]));
    expect([printed.scoredByPeople, printed.judgedToo, printed.stale, printed.missing]).toEqual([6, 6, 0, 0]);

    const text = await labelsCli(['judge', root], { run: ['demo-sim'] });
    expect(text.code).toBe(0);
    const intent = printed.dimensions[0];
    expect(text.out).toContain('Spearman ρ');
    // 9 pairs per dimension: the figures come with their caveat.
    expect(text.out).toContain('With fewer than 10 pairs (here: every dimension)');
    expect(text.out).toMatch(
      new RegExp(`Intent fidelity\\s+9\\s+6\\s+2\\s+${intent.spearman!.toFixed(3).replace('.', '\\.')}`),
    );
  });

  it('says what is missing: no --run, a StreamProfileBench folder, an unknown run', async () => {
    const omni = OMNI_SAMPLE;
    expect((await labelsCli(['judge', omni])).err).toMatch(/needs one --run NAME/);
    expect((await labelsCli(['judge', SAMPLE], { run: ['x'] })).code).toBe(2);
    const unknown = await labelsCli(['judge', omni], { run: ['nope'] });
    expect([unknown.code, unknown.err]).toEqual([2, expect.stringMatching(/--run nope: no run under/)]);
  });
});
