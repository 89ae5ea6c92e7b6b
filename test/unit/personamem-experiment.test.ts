// PersonaMem samples and experiments: the draw stratified by question type (one of each type first, the rest in
// proportion; seeded; only questions a run can ask), the sample file (round trip, located errors, a changed questions
// file), the paired figures against a base run on the sample's questions, and `persona-lab sample` / `experiment` on a
// PersonaMem folder as processes against the demo endpoint. The CLI part needs dist/ built (`npm test` builds it).
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MODEL_ID } from '../../src/core/demo/model';
import { startDemoServer, type DemoServer } from '../../src/core/demo/server';
import { samplePath, writeSample } from '../../src/core/experiments/sampleFile';
import { readSample } from '../../src/core/spb/experiments/sampleFile';
import { pmExperimentFigures } from '../../src/core/personamem/experiment/compare';
import {
  checkPmSample,
  drawPmSample,
  newPmSample,
  readPmSample,
  type PmSample,
} from '../../src/core/personamem/experiment/sample';
import { loadPersonaMem } from '../../src/core/personamem/load';
import type { PersonaMemBench } from '../../src/core/personamem/types';
import { csv, handFolder, resultRows, runCli, type HandQuestion } from './personamem-folder';

const CLI = resolve('dist/cli.js');

/** 20 questions: 10 recall, 5 new ideas, 3 latest preference, 2 generalize, over four personas; one unaskable. */
function typedQuestions(): HandQuestion[] {
  const types = [
    ...Array<string>(10).fill('recall_user_shared_facts'),
    ...Array<string>(5).fill('suggest_new_ideas'),
    // an old spelling of the same skill: one stratum whatever the file calls it
    ...Array<string>(2).fill('acknowledge_latest_preferences'),
    'recalling_the_latest_user_preferences',
    ...Array<string>(2).fill('generalize_to_new_scenarios'),
  ];
  return [
    ...types.map((type, i) => ({ id: `q${i}`, type, persona: i % 4, gold: i % 3 ? '(a)' : '(b)' })),
    { id: 'lost', type: 'suggest_new_ideas', context: 'no-such-context' },
  ];
}

async function load(dir: string, runs?: string[]): Promise<PersonaMemBench> {
  return loadPersonaMem(dir, runs ? { runs } : {});
}

describe('a PersonaMem sample, stratified by question type', () => {
  let dir: string;
  let bench: PersonaMemBench;
  beforeAll(async () => {
    dir = handFolder(typedQuestions());
    bench = await load(dir);
  });

  it('gives each type one question first, the rest in proportion to its share, in the paper’s order', () => {
    const draw = drawPmSample(bench, { size: '32k', questions: 8, seed: 5 });
    // one each (4), then 4 over the remaining 9/4/2/1 by largest remainder: 2.25, 1, 0.5, 0.25 → 2, 1, 1, 0
    expect(draw.strata).toEqual([
      { key: 'recall_user_shared_facts', population: 10, drawn: 3 },
      { key: 'suggest_new_ideas', population: 5, drawn: 2 },
      { key: 'acknowledge_latest_preferences', population: 3, drawn: 2 },
      { key: 'generalize_to_new_scenarios', population: 2, drawn: 1 },
    ]);
    expect(draw.questions).toHaveLength(8);
    expect(draw.questions).not.toContain('lost');
    const split = bench.splits.get('32k')!;
    const skill = new Map(split.questions.map((q) => [q.questionId, q.skill]));
    for (const s of draw.strata) expect(draw.questions.filter((id) => skill.get(id) === s.key)).toHaveLength(s.drawn);
    const order = split.questions.map((q) => q.questionId);
    expect([...draw.questions].sort((a, b) => order.indexOf(a) - order.indexOf(b))).toEqual(draw.questions);
  });

  it('draws the same questions for the same seed, others for another, and all when asked for more', () => {
    const a = drawPmSample(bench, { size: '32k', questions: 8, seed: 5 });
    expect(drawPmSample(bench, { size: '32k', questions: 8, seed: 5 }).questions).toEqual(a.questions);
    const seeds = [6, 7, 8, 9].map((seed) => drawPmSample(bench, { size: '32k', questions: 8, seed }).questions);
    expect(seeds.some((q) => q.join() !== a.questions.join())).toBe(true);
    const all = drawPmSample(bench, { size: '32k', questions: 100, seed: 1 });
    expect(all.questions).toHaveLength(20);
    expect(all.strata.map((s) => s.drawn)).toEqual([10, 5, 3, 2]);
    // fewer than the types: in proportion only, the largest type first
    expect(drawPmSample(bench, { size: '32k', questions: 1, seed: 1 }).strata.map((s) => s.drawn)).toEqual([
      1, 0, 0, 0,
    ]);
  });

  it('refuses what it cannot draw, saying why', () => {
    expect(() => drawPmSample(bench, { size: '128k', questions: 3, seed: 1 })).toThrow(/no split 128k .*splits: 32k/);
    expect(() => drawPmSample(bench, { size: '32k', questions: 0, seed: 1 })).toThrow('questions: expected');
  });

  it('round-trips its file, and says where a broken one is wrong', () => {
    const sample = newPmSample(bench, 'rt', drawPmSample(bench, { size: '32k', questions: 6, seed: 2 }));
    const path = writeSample(dir, sample);
    expect(readPmSample(dir, 'rt')).toEqual(sample);
    expect(() => writeSample(dir, sample)).toThrow('exists');
    // StreamProfileBench's reader names the kind it found
    expect(() => readSample(dir, 'rt')).toThrow(
      `${path}: format: expected "persona-lab-sample", found "persona-lab-personamem-sample"`,
    );
    const broken = JSON.parse(readFileSync(path, 'utf8')) as Omit<PmSample, 'questions'> & { questions: unknown[] };
    broken.questions[1] = 7;
    writeFileSync(samplePath(dir, 'bad'), JSON.stringify({ ...broken, name: 'bad' }));
    expect(() => readPmSample(dir, 'bad')).toThrow(`${samplePath(dir, 'bad')}: questions[1]: expected a string`);
    writeFileSync(samplePath(dir, 'bad2'), JSON.stringify({ ...sample, strata: [{ key: 'x', population: -1 }] }));
    expect(() => readPmSample(dir, 'bad2')).toThrow(`${samplePath(dir, 'bad2')}: strata[0].population: expected`);
  });

  it('checks a sample against the loaded folder: missing questions are errors, a changed file a warning', async () => {
    const other = handFolder(typedQuestions());
    const b = await load(other);
    const sample = newPmSample(b, 's', drawPmSample(b, { size: '32k', questions: 5, seed: 1 }));
    const path = samplePath(other, 's');
    expect(checkPmSample(b, sample, path)).toEqual({ errors: [], warnings: [] });
    const gone = { ...sample, questions: [...sample.questions, 'q99'] };
    expect(checkPmSample(b, gone, path).errors).toEqual([
      `${path}: questions: 1 question(s) not in questions_32k.csv: q99`,
    ]);
    writeFileSync(join(other, 'questions_32k.csv'), readFileSync(join(other, 'questions_32k.csv'), 'utf8') + '\r\n');
    const changed = checkPmSample(await load(other), sample, path);
    expect(changed.errors).toEqual([]);
    expect(changed.warnings[0]).toMatch(/questionsFile: questions_32k.csv changed since the sample was drawn/);
  });
});

describe('a PersonaMem experiment’s figures', () => {
  it('pairs the runs on the sample’s questions, overall and per type, with gains and losses', async () => {
    const questions = typedQuestions().slice(0, 8);
    // base: right on q0..q3; run: right on q2..q5; q7 only in the base run, q6 in neither
    const answer = (id: string, right: boolean, gold: string): [string, string, string] => [
      id,
      `<final_answer>${right ? gold : gold === '(a)' ? '(c)' : '(a)'}`,
      gold,
    ];
    const gold = (i: number) => (i % 3 ? '(a)' : '(b)');
    const base = resultRows(
      [0, 1, 2, 3, 4, 5, 7].map((i) => answer(`q${i}`, i <= 3, gold(i))),
      () => 'False',
    );
    const run = resultRows([0, 1, 2, 3, 4, 5].map((i) => answer(`q${i}`, i >= 2, gold(i))));
    const dir = handFolder(questions, { base, exp: run });
    const bench = await load(dir);
    const ids = questions.map((q) => q.id);
    const f = pmExperimentFigures(bench, bench.runs.get('32k_base')!, bench.runs.get('32k_exp')!, ids, [
      'recall_user_shared_facts',
    ]);
    expect(f.paired).toBe(6);
    expect(f.onlyBase).toBe(1);
    expect(f.onlyRun).toBe(0);
    expect(f.personas).toBe(4);
    expect(f.gained).toBe(2);
    expect(f.lost).toBe(2);
    const overall = f.rows[0];
    expect(overall).toMatchObject({ key: 'overall', questions: 6, base: 4 / 6, run: 4 / 6, diff: 0 });
    expect(overall.low).toBeLessThanOrEqual(0);
    expect(overall.high).toBeGreaterThanOrEqual(0);
    expect(f.rows[1]).toMatchObject({ key: 'recall_user_shared_facts', questions: 6 });
  });

  it('gives no interval over a single persona', async () => {
    const questions = [0, 1, 2].map((i) => ({ id: `q${i}`, persona: 1 }));
    const rows = (right: number[]) =>
      resultRows(questions.map((q, i) => [q.id, `<final_answer>${right.includes(i) ? '(a)' : '(c)'}`, '(a)']));
    const dir = handFolder(questions, { a: rows([0]), b: rows([0, 1, 2]) });
    const bench = await load(dir);
    const f = pmExperimentFigures(bench, bench.runs.get('32k_a')!, bench.runs.get('32k_b')!, ['q0', 'q1', 'q2'], []);
    expect(f.rows[0].diff).toBeCloseTo(2 / 3);
    expect(f.rows[0].low).toBeNaN();
    expect(f.rows[0].high).toBeNaN();
  });
});

const cli = (...args: string[]) => runCli(CLI, args);

describe('persona-lab sample and experiment on a PersonaMem folder', () => {
  let demo: DemoServer;
  beforeAll(async () => {
    demo = await startDemoServer();
  });
  afterAll(async () => {
    await demo.close();
  });

  it('draws a sample by question type, asks it and compares it with a base run as score scores both', async () => {
    const dir = handFolder(typedQuestions());
    const s = await cli('sample', dir, '--questions', '8', '--seed', '5', '--out', 's8');
    expect(s.stderr).toBe('');
    expect(s.status).toBe(0);
    expect(s.stdout).toContain('8 questions of the 32k split (seed 5, by question type)');
    expect(s.stdout).toMatch(/recall_user_shared_facts\s+3 of 10/);
    const sample = readPmSample(dir, 's8');
    expect(sample.questions).toEqual(drawPmSample(await load(dir), { size: '32k', questions: 8, seed: 5 }).questions);
    const send = ['--base-url', demo.baseURL, '--model', DEMO_MODEL_ID, '--no-reference'];
    const base = await cli('run', dir, ...send, '--out', 'base');
    expect(base.status).toBe(0);
    const r = await cli('experiment', dir, '--sample', 's8', ...send, '--base-run', 'base', '--out', 'try1');
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('experiment try1: sample s8 (8 questions of 32k)');
    expect(r.stdout).toContain('run try1 (32k): finished');
    expect(r.stdout).toContain('8/8 questions answered');
    // the same model and request on the same questions: the experiment pairs with its base exactly
    expect(r.stdout).toMatch(/compared with 32k_base on 8 paired questions of \d personas\n/);
    expect(r.stdout).toMatch(/overall\s+(\S+)\s+\1\s+\+0\.0 \[\+0\.0, \+0\.0\]\s+8/);
    const bench = await load(dir, ['32k_try1']);
    expect([...bench.runs.get('32k_try1')!.rows.map((row) => row.questionId)].sort()).toEqual(
      [...sample.questions].sort(),
    );
    // run again: it resumes and asks nothing
    const again = await cli('experiment', dir, '--sample', 's8', ...send, '--base-run', '32k_base', '--out', 'try1');
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('finished (resumed)');
    expect(again.stdout).toContain('0 requests this session');
  });

  it('says what is wrong with the command', async () => {
    const dir = handFolder(typedQuestions());
    const users = await cli('sample', dir, '--users', '3', '--out', 'x');
    expect(users.status).toBe(2);
    expect(users.stderr).toContain('--users: a PersonaMem sample is of questions, stratified by question type');
    const none = await cli('experiment', dir, '--base-url', demo.baseURL, '--model', DEMO_MODEL_ID);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('experiment needs --sample NAME');
    await cli('sample', dir, '--questions', '4', '--out', 's4');
    const onSample = (baseRun: string) =>
      cli(
        'experiment',
        dir,
        '--sample',
        's4',
        '--base-url',
        demo.baseURL,
        '--model',
        DEMO_MODEL_ID,
        '--base-run',
        baseRun,
      );
    const base = await onSample('nope');
    expect(base.status).toBe(1);
    expect(base.stderr).toContain('--base-run nope: no such run (runs: none)');
    // A run of another split shares no question with the sample: refused, not compared over nothing.
    for (const f of ['questions', 'shared_contexts']) {
      const ext = f === 'questions' ? 'csv' : 'jsonl';
      copyFileSync(join(dir, `${f}_32k.${ext}`), join(dir, `${f}_128k.${ext}`));
    }
    writeFileSync(join(dir, 'results', 'eval_results_128k_other.csv'), csv(resultRows([['1', '(a)', '(a)']])));
    const other = await onSample('128k_other');
    expect(other.status).toBe(2);
    expect(other.stderr).toContain('--base-run 128k_other: a run of the 128k split; sample s4 is of 32k');
  });
});
