// Compare Runs on PersonaMem, on hand-made runs whose interval is known without a computer: when every persona
// moves by the same share the interval is that one point; with two personas of one question each (a tie and a gain)
// the resamples can only give 0, ½ or 1, so the 95 % interval is [0, 1] around ½. The pairing is by question and
// the resampled unit the persona (a persona's questions share one history).
import { describe, expect, it } from 'vitest';
import { comparePersonaMemRuns, pmCompareProblem, pmCompareTexts } from '../../src/core/personamem/compare';
import { personaMem } from '../../src/core/personamem/format';
import { scorePersonaMemRun } from '../../src/core/personamem/score';
import type { PersonaMemBench } from '../../src/core/personamem/types';
import { COMPARE_RESAMPLES, COMPARE_SEED } from '../../src/core/stats/bootstrap';
import { pairedShareDifference } from '../../src/core/stats/pairedUnits';
import { handFolder, resultRows, type HandQuestion } from './personamem-folder';

async function load(questions: HandQuestion[], runs: Record<string, [string, string, string][]>) {
  const rows = Object.fromEntries(Object.entries(runs).map(([name, answers]) => [name, resultRows(answers)]));
  const bench = (await personaMem.load(handFolder(questions, rows))).bench as PersonaMemBench;
  const score = (model: string) => scorePersonaMemRun(bench, bench.runs.get(`32k_${model}`)!);
  return { bench, score };
}

const answer = (id: string, letter: string): [string, string, string] => [id, `<final_answer>(${letter})`, '(a)'];

describe('every persona gains the same share: the interval is that point', () => {
  // three personas of two questions each (a recall, then an idea question); gold is (a) throughout
  const questions: HandQuestion[] = [0, 1, 2].flatMap((p) => [
    { id: `r${p}`, persona: p, type: 'recall_user_shared_facts' },
    { id: `n${p}`, persona: p, type: 'suggest_new_ideas' },
  ]);
  const ids = questions.map((q) => q.id);

  it('gives B − A = +50 pp in [50, 50] overall, +100 pp on recall and 0 on new ideas', async () => {
    const { bench, score } = await load(questions, {
      weak: ids.map((id) => answer(id, 'b')),
      strong: ids.map((id) => answer(id, id.startsWith('r') ? 'a' : 'c')),
    });
    const cmp = comparePersonaMemRuns(bench, score('weak'), score('strong'));
    expect(cmp.overall).toMatchObject({ units: 3, items: 6, shareA: 0, shareB: 0.5, diff: 0.5, low: 0.5, high: 0.5 });
    expect(cmp.overall).toMatchObject({ win: 3, tie: 0, loss: 0 });
    expect(pmCompareTexts(cmp.overall)).toEqual({
      a: '0.00',
      b: '50.00',
      diff: '+50.00',
      interval: '[+50.00, +50.00]',
      clear: true,
    });
    expect(cmp.byType.map((r) => [r.slice, r.diff, r.low, r.high])).toEqual([
      ['recall_user_shared_facts', 1, 1, 1],
      ['suggest_new_ideas', 0, 0, 0],
    ]);
    // the same bootstrap as every other interval of Compare Runs
    expect(cmp.overall).toMatchObject({ resamples: COMPARE_RESAMPLES, seed: COMPARE_SEED });
    // gained on the recall questions; changed (b → c, both wrong) on the others
    expect(cmp.differing.map((d) => [d.questionId, d.change, d.pickA, d.pickB])).toEqual([
      ['r0', 'gained', 'b', 'a'],
      ['r1', 'gained', 'b', 'a'],
      ['r2', 'gained', 'b', 'a'],
      ['n0', 'changed', 'b', 'c'],
      ['n1', 'changed', 'b', 'c'],
      ['n2', 'changed', 'b', 'c'],
    ]);
  });

  it("each side's accuracy is the run's own score when both answer every question", async () => {
    const { bench, score } = await load(questions, {
      weak: ids.map((id, i) => answer(id, i % 3 ? 'b' : 'a')),
      strong: ids.map((id, i) => answer(id, i % 2 ? 'a' : 'd')),
    });
    const [a, b] = [score('weak'), score('strong')];
    const cmp = comparePersonaMemRuns(bench, a, b);
    expect(cmp.overall.shareA).toBe(a.overall.accuracy);
    expect(cmp.overall.shareB).toBe(b.overall.accuracy);
    expect(cmp.overall.diff).toBeCloseTo(b.overall.accuracy! - a.overall.accuracy!, 12);
  });
});

describe('two personas, a tie and a gain', () => {
  it('gives +50 pp in [0, 100]: resamples are 0, ½ or 1 and each end has a quarter of them', async () => {
    const { bench, score } = await load(
      [
        { id: 'q0', persona: 0 },
        { id: 'q1', persona: 1 },
      ],
      { a: [answer('q0', 'a'), answer('q1', 'c')], b: [answer('q0', 'a'), answer('q1', 'a')] },
    );
    const cmp = comparePersonaMemRuns(bench, score('a'), score('b'));
    expect(cmp.overall).toMatchObject({ diff: 0.5, low: 0, high: 1, win: 1, tie: 1, loss: 0 });
    // 0 is inside: not marked
    expect(pmCompareTexts(cmp.overall)).toMatchObject({ interval: '[0.00, +100.00]', clear: false });
    expect(cmp.differing.map((d) => d.questionId)).toEqual(['q1']);
  });
});

describe('pairing', () => {
  const questions: HandQuestion[] = [
    { id: 'q0', persona: 0 },
    { id: 'q1', persona: 0 },
    { id: 'q2', persona: 1 },
    { id: 'q3', persona: 1 },
  ];

  it('compares only the questions both runs answered, says how many each answered alone, lists losses first', async () => {
    const { bench, score } = await load(questions, {
      a: [answer('q0', 'a'), answer('q1', 'b'), answer('q2', 'a')],
      b: [answer('q1', 'a'), answer('q2', 'b'), answer('q3', 'a')],
    });
    const cmp = comparePersonaMemRuns(bench, score('a'), score('b'));
    expect(cmp).toMatchObject({ onlyA: 1, onlyB: 1, split: '32k', runA: '32k_a', runB: '32k_b' });
    expect(cmp.overall).toMatchObject({ units: 2, items: 2, shareA: 0.5, shareB: 0.5, diff: 0 });
    expect(cmp.differing.map((d) => [d.questionId, d.change, d.personaId])).toEqual([
      ['q2', 'lost', '1'],
      ['q1', 'gained', '0'],
    ]);
  });

  it('refuses runs of two splits and a run against itself, saying why', async () => {
    const { score } = await load(questions, { a: [answer('q0', 'a')] });
    const a = score('a');
    expect(pmCompareProblem(a, a)).toContain('compared with itself');
    expect(pmCompareProblem(a, { ...a, name: '128k_a', split: '128k' })).toBe(
      '32k_a answers the 32k split and 128k_a the 128k split: they share no question',
    );
  });
});

describe('one persona', () => {
  it('gives no interval: every resample is that persona, so its width would say nothing', async () => {
    const { bench, score } = await load([{ id: 'q0' }, { id: 'q1' }], {
      a: [answer('q0', 'b'), answer('q1', 'b')],
      b: [answer('q0', 'a'), answer('q1', 'b')],
    });
    const row = comparePersonaMemRuns(bench, score('a'), score('b')).overall;
    expect(row).toMatchObject({ units: 1, diff: 0.5, low: 0.5, high: 0.5 });
    expect(pmCompareTexts(row)).toMatchObject({ diff: '+50.00', interval: '— (1 persona)', clear: false });
  });
});

describe('the paired share difference with nothing paired', () => {
  it('gives no figure rather than 0', () => {
    expect(pairedShareDifference([])).toMatchObject({ units: 0, items: 0, diff: null, low: null, high: null });
  });
});
