// A run written for part of the OmniBehavior benchmark (Run Test Actions… on one user, before Judge Run…): its loading
// reports only what is wrong in its file, and its figures say what they cover and why the overall is missing.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/core/io/diagnostics';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import {
  componentNote,
  componentReason,
  overallReason,
  overallText,
  shortCoverage,
} from '../../src/core/omni/overallReason';
import { scoreOmniRun } from '../../src/core/omni/score';
import type { OmniBenchmark } from '../../src/core/omni/types';
import { buildTraceModel } from '../../src/extension/benchmarks/omni/model';
import { omniRowDescription } from '../../src/extension/benchmarks/omni/rowText';
import { COMPONENT_LABELS } from '../../src/core/omni/fields';
import { fakeBench } from './omni-fixture';
import { OMNI_SAMPLE } from '../support/committedSample';

describe('a run of one OmniBehavior user', () => {
  let tmp: string;
  let bench: OmniBenchmark;
  let lines: Record<string, unknown>[];

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'pl-omni-partial-'));
    cpSync(OMNI_SAMPLE, tmp, { recursive: true });
    const all = readFileSync(join(tmp, 'results', 'demo-sim', 'predictions.jsonl'), 'utf8')
      .trim()
      .split('\n');
    // As the UI writes it before Judge Run…: one user's answers, no judge score on them.
    lines = all
      .map((l) => JSON.parse(l) as Record<string, unknown> & { questions: Record<string, unknown>[] })
      .filter((l) => l.user_id === 'u_1001')
      .map((l) => ({ ...l, questions: l.questions.map(({ judge_score: _, ...q }) => q) }));
    const write = (run: string, rows: unknown[]) => {
      mkdirSync(join(tmp, 'results', run), { recursive: true });
      writeFileSync(join(tmp, 'results', run, 'predictions.jsonl'), rows.map((r) => JSON.stringify(r) + '\n').join(''));
    };
    write('one-user', lines);
    write('one-user-bad', [...lines, { ...lines[0], index: 999_999 }]);
    bench = await loadOmniBenchmark(tmp);
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('is no loading problem; a prediction for an unknown test action still is one, at its line', () => {
    const problems = bench.diagnostics.map(formatDiagnostic);
    expect(problems.filter((p) => p.includes('results/one-user/'))).toEqual([]);
    expect(problems.filter((p) => p.includes('results/one-user-bad/'))).toEqual([
      expect.stringMatching(new RegExp(`predictions\\.jsonl:${lines.length + 1}.*no test action u_1001#999999`)),
    ]);
  });

  it('says the overall waits for the judge, and what the run covers', () => {
    const score = scoreOmniRun(bench, bench.runs.get('one-user')!);
    const users = [...bench.users.values()].filter((u) => u.testActions.length).length;
    const actions = [...bench.users.values()].reduce((s, u) => s + u.testActions.length, 0);
    const mine = bench.users.get('u_1001')!.testActions.length;
    expect(score.overall).toBeUndefined();
    expect(componentReason(score, 'shopText')).toBe(
      `not judged yet: Judge Run… scores the next_user_message answers, which give ${COMPONENT_LABELS.shopText}`,
    );
    expect(componentReason(score, 'videoBinary')).toBeUndefined();
    const covers = `1 of ${users} users, ${mine} of ${actions} test actions`;
    expect(overallReason(score)).toBe(
      `not judged yet: Judge Run… scores the next_user_message answers, which give ${COMPONENT_LABELS.shopText}; the run covers ${covers}`,
    );
    expect(overallText(score)).toBe(`overall — (${overallReason(score)})`);
    expect(shortCoverage(score)).toBe(`over 1 of ${users} users`);
    expect(omniRowDescription('one-user', score.overall, undefined, shortCoverage(score))).toBe(
      `overall — over 1 of ${users} users · run: one-user · OmniBehavior`,
    );
  });

  it('the trace view names the run it shows, how it was made here, and its headline with the reason', () => {
    const run = bench.runs.get('one-user')!;
    const score = scoreOmniRun(bench, run);
    const user = bench.users.get('u_1001')!;
    const counts = { scenes: [], behaviours: [] };
    const m = buildTraceModel({
      user,
      action: user.testActions[0],
      run,
      record: undefined,
      counts,
      score,
      made: 'made here by Run Test Actions…',
    });
    expect(m).toMatchObject({ run: 'one-user', runMade: 'made here by Run Test Actions…' });
    expect(m.runFigures).toBe(`overall — (${overallReason(score)})`);
    const none = buildTraceModel({ user, action: user.testActions[0], run: undefined, record: undefined, counts });
    expect(none).toMatchObject({ run: null, runFigures: null, runMade: null });
  });

  it('a judged partial run has its overall, with its coverage', () => {
    const whole = scoreOmniRun(bench, bench.runs.get('demo-sim')!);
    expect(shortCoverage(whole)).toBeUndefined();
    expect(overallText(whole)).toMatch(/^overall \d+\.\d$/);
    const judged = { ...whole, coverage: { ...whole.coverage, users: { covered: 2, total: 6 } } };
    expect(overallText(judged)).toMatch(/^overall \d+\.\d over 2 of 6 users, all 495 test actions$/);
  });
});

describe('why a component is missing', () => {
  it('names the scene a run has no test action of, and the video duration NMAE needs', () => {
    const { bench, run } = fakeBench([
      {
        user: 'a',
        index: 1,
        scene: 'Video Browsing',
        questions: [
          ['video_liked', 'Yes', 'Yes'],
          ['video_watch_seconds', 10, 12],
        ],
      },
      { user: 'b', index: 2, scene: 'Live Streaming', questions: [['live_liked', 'No', 'No']] },
    ]);
    bench.users.get('b')!.testActions.push({ ...bench.users.get('b')!.testActions[0], index: 3 });
    const score = scoreOmniRun(bench, run);
    expect(componentReason(score, 'adsBinary')).toBe('no Advertisement test action in this run');
    expect(componentReason(score, 'videoContinuous')).toBe(
      'no video_watch_seconds answer with a usable prediction and a video duration',
    );
    expect(componentReason(score, 'shopText')).toBe('no next_user_message answer in this run');
    // F1 over answers with no positive at all is the reference's 0, not a missing component: it is said why.
    expect(score.components.liveBinary).toBe(0);
    expect(componentNote(score, 'liveBinary')).toBe(
      'no true positive in 1 answer (0 real Yes, 0 predicted Yes): F1 is 0 then, as in the reference',
    );
    expect(componentNote(score, 'videoBinary')).toBeUndefined();
    expect(componentNote(score, 'adsBinary')).toBe(componentReason(score, 'adsBinary'));
    expect(overallReason(score)).toBe(
      [
        'Shop text (judge × 10): no next_user_message answer in this run',
        'Ads (binary, mean F1): no Advertisement test action in this run',
        'Shop (binary, mean F1): no E-commerce test action in this run',
        'Video (100 − NMAE): no video_watch_seconds answer with a usable prediction and a video duration',
        'the run covers all 2 users, 2 of 3 test actions',
      ].join('; '),
    );
  });
});
