// The PersonaMem question view's model (core, pure) and its protocol's guards: the verdict of each question in a
// run, the options with the pick and the answer, the history rows with their sessions, and the messages each side
// accepts from the other.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readContext } from '../../src/core/personamem/contexts';
import { personaMem } from '../../src/core/personamem/format';
import { scorePersonaMemRun } from '../../src/core/personamem/score';
import type { PersonaMemBench } from '../../src/core/personamem/types';
import {
  buildQuestionModel,
  historyRows,
  personaIds,
  personaQuestions,
  questionVerdict,
  sessionOf,
  verdictCounts,
} from '../../src/core/personamem/view';
import { ROWS_WINDOW, isExtensionToWebview, isWebviewToExtension } from '../../src/shared/personamem/questionProtocol';
import { PMEM_SAMPLE } from '../support/committedSample';
import { handFolder, resultRows } from './personamem-folder';

const load = async (dir: string) => (await personaMem.load(dir)).bench as PersonaMemBench;

describe('the question model', () => {
  it('reads right, wrong, invalid and unanswered from the run, and marks the pick and the answer', async () => {
    const dir = handFolder(
      [{ id: 'q1' }, { id: 'q2', gold: '(b)' }, { id: 'q3', end: 5 }, { id: 'q4', persona: 1, context: 'ctx2' }],
      {
        m: resultRows([
          ['q1', '<final_answer>(a)', '(a)'],
          ['q2', '<final_answer>(c)', '(b)'],
          ['q3', 'I cannot tell.', '(a)'],
        ]),
      },
    );
    const bench = await load(dir);
    const run = bench.runs.get('32k_m')!;
    const score = scorePersonaMemRun(bench, run);
    const verdicts = ['q1', 'q2', 'q3', 'q4'].map((id) => questionVerdict(score, run, id));
    expect(verdicts).toEqual(['right', 'wrong', 'invalid', 'unanswered']);
    expect(verdictCounts(verdicts)).toEqual({ right: 1, answered: 3, invalid: 1, total: 4 });

    const q2 = bench.splits.get('32k')!.questions[1];
    const m = buildQuestionModel(bench, q2, run, score);
    expect(m.options.map((o) => [o.letter, o.text, o.correct, o.picked])).toEqual([
      ['a', 'tea', false, false],
      ['b', "it's coffee", true, false],
      ['c', 'water', false, true],
      ['d', 'juice', false, false],
    ]);
    expect([m.correctLetter, m.pick, m.verdict, m.run, m.response]).toEqual([
      'b',
      'c',
      'wrong',
      '32k_m',
      '<final_answer>(c)',
    ]);
    // end index 3 of ctx1 (sessions open at 0 and 3): the model saw messages 0..2, one session
    expect([m.seen, m.total, m.sessions, m.position, m.count, m.historyProblem]).toEqual([3, 6, 1, 2, 3, '']);

    const q3 = buildQuestionModel(bench, bench.splits.get('32k')!.questions[2], run, score);
    expect([q3.seen, q3.sessions, q3.pick]).toEqual([5, 2, null]);
    // without a run of the split nothing is claimed about the answer
    const none = buildQuestionModel(bench, q2, undefined, undefined);
    expect([none.verdict, none.run, none.pick, none.response]).toEqual(['unanswered', null, null, null]);
  });

  it('a row scored only by its stored score is wrong, never invalid', async () => {
    const dir = handFolder([{ id: 'q1' }], {
      s: [
        ['score', 'question_id', 'correct_answer'],
        ['False', 'q1', '(a)'],
      ],
    });
    const bench = await load(dir);
    const run = bench.runs.get('32k_s')!;
    expect(questionVerdict(scorePersonaMemRun(bench, run), run, 'q1')).toBe('wrong');
  });

  it('says why a history cannot be shown: a context missing, an end index past its end', async () => {
    const bench = await load(
      handFolder([
        { id: 'q1', context: 'nope' },
        { id: 'q2', end: 99 },
      ]),
    );
    const [a, b] = bench.splits.get('32k')!.questions.map((q) => buildQuestionModel(bench, q, undefined, undefined));
    expect(a.historyProblem).toContain('nope is not in the 32k split');
    expect(a.seen).toBe(0);
    expect(b.historyProblem).toContain('past the context');
    expect(b.seen).toBe(6);
  });

  it('history rows: sessions from the index, openings marked, long messages cut on one line', async () => {
    const bench = await load(handFolder([{ id: 'q1', end: 6 }]));
    const ctx = bench.splits.get('32k')!.contexts.get('ctx1')!;
    const messages = readContext(ctx, 6);
    const rows = historyRows(messages.slice(2, 5), 2, ctx.sessionStarts);
    expect(rows.map((r) => [r.index, r.role, r.session, r.opens])).toEqual([
      [2, 'assistant', 1, false],
      [3, 'system', 2, true],
      [4, 'user', 2, false],
    ]);
    const long = historyRows([{ role: 'user', content: `a\n\n${'x'.repeat(500)}` }], 0, [0]);
    expect(long[0].summary).toMatch(/^a x{238}…$/);
    expect([sessionOf([0, 3, 9], 0), sessionOf([0, 3, 9], 8), sessionOf([0, 3, 9], 9), sessionOf([], 4)]).toEqual([
      1, 2, 3, 1,
    ]);
  });

  it('on the committed sample: personas in numeric order, every question answered by demo-strong', async () => {
    const bench = await load(PMEM_SAMPLE);
    expect(personaIds(bench, '32k')).toEqual(['0', '1', '2']);
    const run = bench.runs.get('32k_demo-strong')!;
    const score = scorePersonaMemRun(bench, run);
    for (const p of personaIds(bench, '32k')) {
      const qs = personaQuestions(bench, '32k', p);
      expect(qs).toHaveLength(6);
      for (const q of qs) {
        const m = buildQuestionModel(bench, q, run, score);
        expect(m.verdict).not.toBe('unanswered');
        expect(m.options.filter((o) => o.correct)).toHaveLength(1);
        expect(m.seen).toBe(q.endIndex);
        expect(m.historyProblem).toBe('');
      }
    }
  });
});

describe('the committed sample', () => {
  it('is what gen-personamem.mjs writes (--check), and --check fails on an edited file', () => {
    const check = (out: string) =>
      spawnSync(process.execPath, [resolve(__dirname, '../../scripts/gen-personamem.mjs'), '--check', '--out', out], {
        encoding: 'utf8',
      });
    const ok = check(PMEM_SAMPLE);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('check: OK (18 questions, 2 runs)');
    const copy = join(mkdtempSync(join(tmpdir(), 'pl-pmem-check-')), 'personamem');
    cpSync(PMEM_SAMPLE, copy, { recursive: true });
    appendFileSync(join(copy, 'questions_32k.csv'), '\r\n');
    const bad = check(copy);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('not what --seed 2026 generates: questions_32k.csv');
  });
});

describe('the question view protocol', () => {
  const model = async () => {
    const bench = await load(PMEM_SAMPLE);
    const run = bench.runs.get('32k_demo-weak')!;
    const q = bench.splits.get('32k')!.questions[0];
    return buildQuestionModel(bench, q, run, scorePersonaMemRun(bench, run));
  };

  it('the page accepts a model the core builds, and refuses one with a field of the wrong kind', async () => {
    const m = await model();
    expect(isExtensionToWebview({ type: 'show', generation: 1, model: m })).toBe(true);
    expect(isExtensionToWebview({ type: 'show', generation: 1, model: { ...m, verdict: 'maybe' } })).toBe(false);
    expect(isExtensionToWebview({ type: 'show', generation: -1, model: m })).toBe(false);
    expect(isExtensionToWebview({ type: 'show', generation: 1, model: { ...m, options: [{ letter: 'a' }] } })).toBe(
      false,
    );
    const row = { index: 0, role: 'system', session: 1, opens: true, summary: 'x' };
    expect(isExtensionToWebview({ type: 'rows', generation: 1, from: 0, rows: [row] })).toBe(true);
    expect(isExtensionToWebview({ type: 'rows', generation: 1, from: 0, rows: [{ ...row, opens: 'yes' }] })).toBe(
      false,
    );
    expect(isExtensionToWebview({ type: 'message', generation: 1, index: 3, role: 'user', text: 'hi' })).toBe(true);
    expect(isExtensionToWebview({ type: 'nope' })).toBe(false);
  });

  it('the extension accepts row windows up to ROWS_WINDOW, in order, and [ ] as ±1 only', () => {
    expect(isWebviewToExtension({ type: 'ready' })).toBe(true);
    expect(isWebviewToExtension({ type: 'rows', generation: 2, from: 0, to: ROWS_WINDOW })).toBe(true);
    expect(isWebviewToExtension({ type: 'rows', generation: 2, from: 0, to: ROWS_WINDOW + 1 })).toBe(false);
    expect(isWebviewToExtension({ type: 'rows', generation: 2, from: 5, to: 4 })).toBe(false);
    expect(isWebviewToExtension({ type: 'message', generation: 2, index: 7 })).toBe(true);
    expect(isWebviewToExtension({ type: 'message', generation: 2, index: 1.5 })).toBe(false);
    expect(isWebviewToExtension({ type: 'navigate', delta: 1 })).toBe(true);
    expect(isWebviewToExtension({ type: 'navigate', delta: 2 })).toBe(false);
  });
});
