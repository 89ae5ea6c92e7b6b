// PersonaMem figures on hand-made runs where another reading would give another number: rows counted as the
// authors' mean counts them (a repeated row twice, a row of an unknown question too, a failed request not at all),
// spellings of one skill merged, the answer read again rather than the score cell trusted.
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/core/io/diagnostics';
import { personaMem } from '../../src/core/personamem/format';
import { scorePersonaMemRun } from '../../src/core/personamem/score';
import type { PersonaMemBench } from '../../src/core/personamem/types';
import { coverageJson, coverageNote } from '../../src/core/coverage';
import { csv, handFolder, resultRows } from './personamem-folder';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const QUESTIONS = [
  { id: 'q1', persona: 0, type: 'recall_user_shared_facts', topic: 'cooking', gold: '(a)', blocks: 1 },
  { id: 'q2', persona: 0, type: 'recalling_facts_mentioned_by_the_user', topic: 'cooking', gold: '(b)', blocks: 2 },
  { id: 'q3', persona: 0, type: 'suggest_new_ideas', topic: 'travel', gold: '(c)', blocks: 2 },
  { id: 'q4', persona: 1, type: 'suggest_new_ideas', topic: 'travel', gold: '(d)', blocks: 1, context: 'ctx2' },
];

async function bench(runs: Record<string, (string | number)[][]>) {
  const { bench: b } = await personaMem.load(handFolder(QUESTIONS, runs));
  return b as PersonaMemBench;
}

describe('a partial run with repeated and unknown rows', () => {
  const rows = resultRows(
    [
      ['q1', 'It fits. <final_answer>(a)', '(a)'],
      ['q2', 'It is a nice one: b', '(b)'], // {a, b}: wrong, though b is gold
      ['q3', 'Looking at (c). <final_answer>none', '(c)'], // rescued by the whole response
      ['q1', '<final_answer>(A)</final_answer>', '(a)'], // answered again: counts again
      ['qX', '(b)', '(b)'], // not a question of the split: counts, as in the authors' mean
    ],
    (i) => (i === 1 ? 'True' : ''),
  );

  it('scores every row by the answer reading: 4 of 5, not 2 of 3 after dropping repeats and unknowns', async () => {
    const b = await bench({ m: rows });
    const s = scorePersonaMemRun(b, b.runs.get('32k_m')!);
    expect(s.overall).toEqual({ answered: 5, correct: 4, accuracy: 0.8 });
    expect(s.unreadable).toBe(1);
    // both spellings of recall_user_shared_facts are one skill; qX's "x" is its own group, as written
    expect([...s.byType].map(([k, t]) => [k, t.answered, t.correct, t.spellings])).toEqual([
      ['recall_user_shared_facts', 3, 2, ['recall_user_shared_facts', 'recalling_facts_mentioned_by_the_user']],
      ['suggest_new_ideas', 1, 1, ['suggest_new_ideas']],
      ['x', 1, 1, ['x']],
    ]);
    expect(Object.fromEntries([...s.byTopic].map(([k, t]) => [k, t.accuracy]))).toEqual({
      cooking: 2 / 3,
      travel: 1,
      y: 1,
    });
    expect([...s.byDistanceBlocks!].map(([k, t]) => [k, t.answered, t.correct])).toEqual([
      [1, 2, 2],
      [2, 2, 1],
    ]);
    // q4 (persona 1) was never answered: 3 of 4 questions, 1 of 2 personas
    expect(coverageJson(s.coverage)).toEqual({
      users: { covered: 1, total: 2 },
      questions: { covered: 3, total: 4 },
      whole: false,
    });
    expect(coverageNote(s.coverage)).toBe('over 1 of 2 personas, 3 of 4 questions');
  });

  it('warns, at the row, of a score cell the reading contradicts, a repeat and an unknown question', async () => {
    const b = await bench({ m: rows });
    expect(b.diagnostics.map(formatDiagnostic)).toEqual([
      'results/eval_results_32k_m.csv:3: warning: score: says True, the answer reading gives False (the reading is used)',
      "results/eval_results_32k_m.csv:5: warning: question_id: answered again (first on line 2); both rows count, as in the authors' mean",
      'results/eval_results_32k_m.csv:6: warning: question_id: qX is not a question of the 32k split (scored from this row alone)',
    ]);
  });

  it('uses the score cell when the file has no model_response', async () => {
    const b = await bench({
      s: [
        ['score', 'question_id', 'correct_answer'],
        ['True', 'q1', '(a)'],
        ['False', 'q2', '(b)'],
        [' True', 'q4', '(d)'],
      ],
    });
    const s = scorePersonaMemRun(b, b.runs.get('32k_s')!);
    expect(s.overall).toEqual({ answered: 3, correct: 2, accuracy: 2 / 3 });
    expect(s.coverage.users).toEqual({ covered: 2, total: 2 });
  });

  it('has no distance breakdown when a question does not give its distance', async () => {
    const dir = handFolder([...QUESTIONS.slice(0, 3), { ...QUESTIONS[3], blocks: '' }], { m: rows });
    const { bench: b } = await personaMem.load(dir);
    const pb = b as PersonaMemBench;
    expect(scorePersonaMemRun(pb, pb.runs.get('32k_m')!).byDistanceBlocks).toBeNull();
  });

  it('reads a run whose name does not give its split when the folder has one split, and skips it with two', async () => {
    const dir = handFolder(QUESTIONS);
    writeFileSync(join(dir, 'results', 'eval_results.csv'), csv(resultRows([['q1', '(a)', '(a)']])));
    const one = (await personaMem.load(dir)).bench as PersonaMemBench;
    expect([...one.runs.keys()]).toEqual(['eval_results']);
    writeFileSync(join(dir, 'questions_128k.csv'), 'persona_id\n');
    const two = (await personaMem.load(dir)).bench as PersonaMemBench;
    expect([...two.runs.keys()]).toEqual([]);
    expect(two.diagnostics.map(formatDiagnostic)).toContain(
      'results/eval_results.csv: warning: the name does not say which split it answers (eval_results_<size>_<model>.csv); not read',
    );
  });
});
