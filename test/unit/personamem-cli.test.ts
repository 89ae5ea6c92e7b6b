// persona-lab detect / validate / score on a generated PersonaMem folder, through the built CLI (dist/cli.js).
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generatePersonaMem } from '../../scripts/gen-personamem/generate.mjs';

const CLI = resolve(__dirname, '../../dist/cli.js');
const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pl-pmem-cli-'));
  generatePersonaMem(dir, {
    seed: 9,
    personas: 4,
    questions: 7,
    models: [
      { name: 'whole', skill: 0.7, answered: 1 },
      { name: 'part', skill: 0.5, answered: 0.6 },
    ],
  });
});

describe('persona-lab on a PersonaMem folder', () => {
  it('validate: the counts, no problem, exit 0', () => {
    const r = cli('validate', dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('1 splits (32k), 28 questions, 4 contexts, 2 runs; 0 error(s), 0 warning(s)');
    const j = JSON.parse(cli('validate', dir, '--json').stdout) as Record<string, unknown>;
    expect(j).toMatchObject({ format: 'personamem', splits: ['32k'], questions: 28, contexts: 4, runs: 2 });
  });

  it('score --json: every run with its split, figures per type and topic, and the partial run says so', () => {
    const r = cli('score', dir, '--json');
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout) as {
      runs: {
        name: string;
        answered: number;
        correct: number;
        accuracy: number;
        byType: Record<string, { answered: number }>;
        coverage: { whole: boolean; questions: { covered: number; total: number } };
      }[];
      byContextLength: { model: string; splits: Record<string, { accuracy: number }> }[];
    };
    expect(j.runs.map((x) => x.name)).toEqual(['32k_part', '32k_whole']);
    const [part, whole] = j.runs;
    expect(whole.coverage).toMatchObject({ whole: true, questions: { covered: 28, total: 28 } });
    expect(part.coverage.whole).toBe(false);
    expect(part.coverage.questions.covered).toBe(part.answered);
    expect(part.coverage.questions.covered).toBeLessThan(28);
    expect(whole.accuracy).toBe(whole.correct / 28);
    expect(Object.values(whole.byType).reduce((n, t) => n + t.answered, 0)).toBe(28);
    expect(j.byContextLength.map((m) => m.model)).toEqual(['part', 'whole']);
  });

  it('score as text and as tables: the partial run marked, the per-type columns', () => {
    const text = cli('score', dir).stdout;
    expect(text).toContain('PersonaMem accuracy per question type (%)');
    expect(text).toMatch(/32k_part ‡/);
    expect(text).toContain('By question type:');
    const md = cli('score', dir, '--format', 'markdown').stdout;
    expect(md).toMatch(/^\*\*PersonaMem accuracy per question type \(%\)\*\*/);
    expect(md).toContain('Question type Recall facts');
    const tex = cli('score', dir, '--format', 'latex').stdout;
    expect(tex).toContain('\\label{tab:personamem-types}');
    const csvOut = cli('score', dir, '--format', 'csv').stdout;
    expect(csvOut.split('\r\n')[0]).toMatch(/^Run,Overall,Question type Recall facts,.*,Coverage$/);
  });

  it('--run keeps one run; a broken row is located and the exit status is 1', () => {
    const one = JSON.parse(cli('score', dir, '--json', '--run', '32k_whole').stdout) as { runs: unknown[] };
    expect(one.runs).toHaveLength(1);
    const broken = mkdtempSync(join(tmpdir(), 'pl-pmem-cli-'));
    generatePersonaMem(broken, { seed: 2, personas: 1, questions: 2 });
    appendFileSync(
      join(broken, 'questions_32k.csv'),
      '0,zz,suggest_new_ideas,t,1,1,1,1,0,1%,q?,(a),"[\'(a) x\']",nowhere,0\r\n',
    );
    const r = cli('validate', broken);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      'questions_32k.csv:4: error: shared_context_id: nowhere is not in shared_contexts_32k.jsonl',
    );
  });

  it('commands the format does not offer refuse it by name: baseline; audit and run serve it', () => {
    const run = cli('run', dir, '--out', 'x', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--dry-run');
    expect(run.status).toBe(0);
    expect(run.stderr).toContain('x: estimate: 28 requests, ~');
    expect(cli('baseline', dir, '--method', 'random', '--out', 'x').stderr).toContain(
      'a PersonaMem folder; this command reads StreamProfileBench only',
    );
    // nothing planted in this folder: the audit reads it all and finds nothing
    const audit = cli('audit', dir);
    expect(audit.status, audit.stderr).toBe(0);
    expect(audit.stdout).toContain(`${basename(dir)}: 0 finding(s)`);
  });

  it('the generator script writes the same bytes for the same seed, and a folder that validates clean', () => {
    const [a, b] = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'pl-pmem-gen-')));
    for (const out of [a, b]) {
      const r = spawnSync(
        process.execPath,
        [resolve(__dirname, '../../scripts/gen-personamem.mjs'), '--out', out, '--seed', '5'],
        { encoding: 'utf8' },
      );
      expect(r.status, r.stderr).toBe(0);
    }
    for (const f of ['questions_32k.csv', 'shared_contexts_32k.jsonl', 'results/eval_results_32k_demo-weak.csv'])
      expect(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), f).toBe(true);
    expect(cli('validate', a).stdout).toContain(
      '1 splits (32k), 18 questions, 3 contexts, 2 runs; 0 error(s), 0 warning(s)',
    );
  });

  it('two splits of one model: the context-length table, models as rows and splits as columns', () => {
    const two = mkdtempSync(join(tmpdir(), 'pl-pmem-two-'));
    const models = [{ name: 'm', skill: 0.6, answered: 1 }];
    generatePersonaMem(two, { seed: 1, size: '32k', personas: 2, questions: 4, models });
    generatePersonaMem(two, {
      seed: 1,
      size: '128k',
      personas: 2,
      questions: 4,
      models: [{ ...models[0], answered: 0.5 }],
    });
    const j = JSON.parse(cli('score', two, '--json').stdout) as {
      runs: { name: string; accuracy: number }[];
      byContextLength: { model: string; splits: Record<string, { accuracy: number; whole: boolean }> }[];
    };
    expect(j.runs.map((r) => r.name)).toEqual(['128k_m', '32k_m']);
    expect(j.byContextLength).toHaveLength(1);
    expect(j.byContextLength[0].splits['32k'].accuracy).toBe(j.runs[1].accuracy);
    expect(j.byContextLength[0].splits['128k'].whole).toBe(false);
    const lines = cli('score', two, '--format', 'csv').stdout.split(/\r?\n/);
    const head = lines.indexOf('Run,Context length 32k,Context length 128k,Coverage');
    expect(head).toBeGreaterThan(0);
    expect(lines[head + 1]).toMatch(/^m,\d+\.\d\d,\d+\.\d\d,a split answered in part$/);
  });
});
