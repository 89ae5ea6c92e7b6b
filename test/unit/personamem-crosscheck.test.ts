// `persona-lab score --json` on PersonaMem folders against test/reference/personamem_reference.py, the authors'
// answer reading and accuracy written again in plain Python: overall, per skill, per topic and per distance, on a
// generated folder and on seeded folders whose answers are random strings of tags, letters, articles and
// non-ASCII word characters.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/stats/random';
import { generatePersonaMem } from '../../scripts/gen-personamem/generate.mjs';
import { csv, RESULT_HEADER } from './personamem-folder';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist/cli.js');
const REF = join(ROOT, 'test/reference/personamem_reference.py');

type Tally = { answered: number; correct: number; accuracy: number | null };
interface Ours extends Tally {
  name: string;
  byType: Record<string, Tally>;
  byTopic: Record<string, Tally>;
  byDistanceBlocks: Record<string, Tally> | null;
  coverage: { questions: { covered: number } };
}
interface Ref extends Tally {
  name: string;
  byType: Record<string, Tally>;
  byTopic: Record<string, Tally>;
  byDistanceBlocks: Record<string, Tally> | null;
  questionsCovered: number;
}

const strip = (groups: Record<string, Tally> | null) =>
  groups &&
  Object.fromEntries(
    Object.entries(groups).map(([k, t]) => [k, { answered: t.answered, correct: t.correct, accuracy: t.accuracy }]),
  );

function crossCheck(dir: string): number {
  const r = spawnSync(process.execPath, [CLI, 'score', dir, '--json'], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const ours = (JSON.parse(r.stdout) as { runs: Ours[] }).runs;
  const ref = (JSON.parse(execFileSync('python3', [REF, dir], { encoding: 'utf8' })) as { runs: Ref[] }).runs;
  expect(ours.map((x) => x.name)).toEqual(ref.map((x) => x.name));
  let rows = 0;
  for (const rr of ref) {
    const or = ours.find((x) => x.name === rr.name)!;
    expect({ answered: or.answered, correct: or.correct, accuracy: or.accuracy }).toEqual({
      answered: rr.answered,
      correct: rr.correct,
      accuracy: rr.accuracy,
    });
    expect(strip(or.byType)).toEqual(rr.byType);
    expect(strip(or.byTopic)).toEqual(rr.byTopic);
    expect(strip(or.byDistanceBlocks)).toEqual(rr.byDistanceBlocks);
    expect(or.coverage.questions.covered).toBe(rr.questionsCovered);
    rows += rr.answered;
  }
  return rows;
}

const PIECES = [
  '<final_answer>',
  '</final_answer>',
  '(a)',
  '(B)',
  '(c)',
  '(d)',
  '(e)',
  ' a ',
  ' b',
  'c ',
  'D',
  'é',
  'ñb',
  'b2',
  '_c',
  'a_',
  ' the ',
  '\n',
  '\x1c',
  '\x85',
  '\u3000',
  ' ',
  '.',
  '(',
  ')',
  'İa',
  'Ⅻd',
  'x(b)y',
  '"',
  ',',
];

/** A results file of random answers to every other question of the folder's split. */
function fuzzRun(dir: string, seed: number): void {
  const rnd = mulberry32(seed);
  const text = execFileSync(
    'python3',
    [
      '-c',
      'import csv,json,sys; print(json.dumps([[r["question_id"], r["correct_answer"]] for r in csv.DictReader(open(sys.argv[1], newline=""))]))',
      join(dir, 'questions_32k.csv'),
    ],
    { encoding: 'utf8' },
  );
  const questions = JSON.parse(text) as [string, string][];
  const rows = questions
    .filter(() => rnd() < 0.8)
    .map(([id, gold]) => [
      '',
      0,
      id,
      'q',
      'x',
      'y',
      Array.from({ length: Math.floor(rnd() * 9) }, () => PIECES[Math.floor(rnd() * PIECES.length)]).join(''),
      gold,
    ]);
  writeFileSync(join(dir, 'results', `eval_results_32k_fuzz${seed}.csv`), csv([RESULT_HEADER, ...rows]));
}

describe('score --json agrees with the Python reference', () => {
  it('passes its own self-test', () => {
    expect(execFileSync('python3', [REF, '--self-test'], { encoding: 'utf8' })).toContain('all checks passed');
  });

  it('on a generated folder with a whole and a partial run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-pmem-x-'));
    generatePersonaMem(dir, {
      seed: 4,
      personas: 5,
      questions: 9,
      models: [
        { name: 'a', skill: 0.6 },
        { name: 'b', skill: 0.3, answered: 0.7 },
      ],
    });
    expect(crossCheck(dir)).toBeGreaterThan(60);
  });

  it.each([1, 2, 3])('on seeded random answers (seed %i)', (seed) => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-pmem-x-'));
    generatePersonaMem(dir, { seed, personas: 8, questions: 25 });
    fuzzRun(dir, seed);
    expect(crossCheck(dir)).toBeGreaterThan(100);
  });
});
