// PersonaMem batch runs from the editor, in the real workbench, against the demo model (its fixed rule for PersonaMem
// questions, served by a scripted server on 127.0.0.1): Batch Run… from the palette asks every question of the
// sample's split through the core runner into results/eval_results_32k_<name>.csv, the tree switches to the new run,
// and its accuracy is what `persona-lab score` reads from that file. The same run again from a persona's row resumes:
// nothing is sent, the run stays whole. An experiment: a new sample of seven questions stratified by question type
// (one of each), asked and compared with a base run, says the figures `persona-lab experiment` computes, and is
// listed in the Experiments view with the figures `persona-lab experiments --json` reads from the log; the row opens
// Compare Runs of its two runs.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { personaMemDemoAnswer } from '../../src/core/personamem/demo';
import { personaMem } from '../../src/core/personamem/format';
import { readResultRows } from '../../src/core/personamem/run/runner';
import { PM_TEMPLATE_NAME } from '../../src/core/personamem/run/source';
import { deltaLine, pmExperimentFigures } from '../../src/core/personamem/experiment/compare';
import { readPmSample } from '../../src/core/personamem/experiment/sample';
import type { PersonaMemBench } from '../../src/core/personamem/types';
import { personaIds } from '../../src/core/personamem/view';
import { reply, startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { ui } from './rerunSession';
import { treePage } from './treePage';
import { listRows, rowDescription, rowName } from './support/sideBar';
import type { PmExperimentRow } from '../../src/core/personamem/experiment/log';
import { pmExperimentSummary } from '../../src/core/personamem/experiment/text';

const NAME = 'e2e-batch';
const RUN = `32k_${NAME}`;
const BASE = '32k_demo-strong';

interface ScoredRun {
  name: string;
  answered: number;
  correct: number;
  accuracy: number;
}

describe('PersonaMem batch runs from the editor', () => {
  let wb: Workbench;
  let server: ScriptedServer;
  let tmp: string;
  let root: string;
  let bench: PersonaMemBench;
  const { expand, rowLocator } = treePage(() => wb);
  const toast = (text: RegExp) => wb.toasts(text).first();
  const dialog = () => wb.dialog.box();
  const cliScore = (): ScoredRun => {
    const out = execFileSync(process.execPath, [join(repoRoot, 'dist/cli.js'), 'score', root, '--run', RUN, '--json'], {
      encoding: 'utf8',
    });
    const run = (JSON.parse(out) as { runs: ScoredRun[] }).runs.find((r) => r.name === RUN);
    if (!run) throw new Error(`persona-lab score lists no run ${RUN}: ${out.slice(0, 300)}`);
    return run;
  };

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-pmem-batch-'));
    root = join(tmp, 'personamem');
    cpSync(join(repoRoot, 'sample', 'personamem'), root, { recursive: true });
    bench = (await personaMem.load(root)).bench as PersonaMemBench;
    server = await startScriptedServer((req) =>
      reply.text(
        personaMemDemoAnswer((req.body as { messages: { role: string; content: string }[] }).messages)?.content ??
          'no answer',
      ),
    );
    wb = await startWorkbench({
      folder: root,
      theme: 'dark',
      viewport: { width: 1600, height: 1000 },
      settings: { 'personaLab.endpoint.baseURL': server.baseURL, 'personaLab.endpoint.model': 'demo-model' },
    });
    await wb.openView('Persona Lab');
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`pmem-batch-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    await server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('Batch Run… asks every question into a new run the tree shows, scored as `persona-lab score` scores it', async () => {
    const questions = bench.splits.get('32k')!.questions.length;
    await wb.sideBar.benchmarks.row('personamem', 1).waitFor({ timeout: 60_000 });
    await wb.quick.startCommand('Persona Lab: Batch Run…');
    await wb.quick.title().filter({ hasText: 'Batch Run: questions' }).waitFor({ timeout: 30_000 });
    await wb.quick.pickRow('Split 32k', 'Split 32k');
    await wb.quick.title().filter({ hasText: 'Batch Run: split 32k' }).waitFor({ timeout: 30_000 });
    expect(await wb.quick.input().inputValue()).toBe('demo-model');
    await wb.quick.input().fill(NAME);
    await wb.quick.press('Enter');
    await dialog().waitFor({ state: 'visible', timeout: 60_000 });
    const asked = await dialog().innerText();
    expect(asked).toContain(`ask the ${questions} questions of split 32k into results/eval_results_${RUN}.csv`);
    expect(asked).toContain(PM_TEMPLATE_NAME);
    await wb.dialog.exactButton('Run').click();
    const finished = toast(new RegExp(`${NAME} finished: ${questions}/${questions} questions answered, 0 failed`));
    await finished.waitFor({ timeout: 180_000 });
    expect(server.requests).toHaveLength(questions);
    const written = readResultRows(join(root, 'results', `eval_results_${RUN}.csv`));
    expect('rows' in written && written.rows.size).toBe(questions);
    const cli = cliScore();
    expect(cli.answered).toBe(questions);
    const pct = `${(100 * cli.accuracy).toFixed(1)}%`;
    expect(await finished.innerText()).toContain(
      `The tree now shows ${RUN}: ${pct} right (${cli.correct} of ${cli.answered}).`,
    );
    const benchRow = wb.sideBar.benchmarks.row('personamem', 1);
    await waitFor(async () => (await rowDescription(benchRow).innerText()).includes(RUN), {
      timeout: 60_000,
      message: 'the tree to show the new run',
    });
    expect(await rowDescription(benchRow).innerText()).toBe(
      `${Math.round((100 * cli.correct) / cli.answered)}% right (${cli.correct} of ${cli.answered}) · run: ${RUN} · PersonaMem`,
    );
    await wb.screenshot('pmem-batch-finished');
  });

  it('the same run again from a persona’s row resumes: nothing is sent, the figures stay', async () => {
    const before = server.requests.length;
    const scored = cliScore();
    const persona = `persona ${personaIds(bench, '32k')[0]}`;
    await expand(
      'personamem',
      1,
      personaIds(bench, '32k').map((p) => `persona ${p}`),
    );
    await ui(wb).contextMenu(rowLocator(persona, 2).first(), 'Batch Run…', `Batch Run: ${persona} (32k)`);
    await wb.quick.input().fill(NAME);
    await wb.quick.press('Enter');
    await dialog().waitFor({ state: 'visible', timeout: 60_000 });
    await wb.dialog.exactButton('Run').click();
    await toast(new RegExp(`${NAME} finished \\(resumed\\): \\d+/\\d+ questions answered, 0 failed`)).waitFor({
      timeout: 60_000,
    });
    expect(server.requests.length).toBe(before);
    expect(cliScore()).toEqual(scored);
  });

  it('an experiment on a new sample by question type says its paired figures against the base run', async () => {
    const before = server.requests.length;
    await wb.quick.startCommand('Persona Lab: Batch Run…');
    await wb.quick.title().filter({ hasText: 'Batch Run: questions' }).waitFor({ timeout: 30_000 });
    await wb.quick.pickRow('New Sample', 'New Sample by Question Type…');
    const answer = async (title: string, value: string) => {
      await wb.quick.title().filter({ hasText: title }).waitFor({ timeout: 30_000 });
      await wb.quick.input().fill(value);
      await wb.quick.press('Enter');
    };
    await answer('(1/3): questions', '7');
    await answer('(2/3): seed', '1');
    await answer('(3/3): name', 'by-type');
    await wb.quick.title().filter({ hasText: 'base run to compare with' }).waitFor({ timeout: 30_000 });
    await wb.quick.pickRow(BASE, BASE);
    await wb.quick.title().filter({ hasText: 'Batch Run: sample by-type (32k)' }).waitFor({ timeout: 30_000 });
    const name = await wb.quick.input().inputValue();
    expect(name).toMatch(/^exp-by-type-[0-9a-f]{6}$/);
    await wb.quick.press('Enter');
    await dialog().waitFor({ state: 'visible', timeout: 60_000 });
    expect(await dialog().innerText()).toContain(`ask the 7 questions of sample by-type (32k)`);
    await wb.dialog.exactButton('Run').click();
    const said = toast(/experiment on sample by-type \(32k\): accuracy/);
    await said.waitFor({ timeout: 180_000 });
    expect(server.requests.length - before).toBe(7);
    const sample = readPmSample(root, 'by-type');
    // seven questions over the seven types: one of each
    expect(sample.strata).toHaveLength(7);
    expect(sample.strata.map((s) => s.drawn)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    const loaded = (await personaMem.load(root)).bench as PersonaMemBench;
    const figures = pmExperimentFigures(
      loaded,
      loaded.runs.get(BASE)!,
      loaded.runs.get(`32k_${name}`)!,
      sample.questions,
      sample.strata.map((s) => s.key),
    );
    // the base run answered every question of the split: all seven pair
    expect(figures.paired).toBe(7);
    expect(await said.innerText()).toContain(`experiment on sample by-type (32k): ${deltaLine(figures)}.`);
    // the tree shows the experiment's run: its seven questions answered, the others not
    const correct = Math.round(figures.rows[0].run * 7);
    const head = `${Math.round((100 * correct) / 7)}% right (${correct} of 7)`;
    const tail = ` · 11 unanswered · run: 32k_${name} · PersonaMem`;
    const benchRow = wb.sideBar.benchmarks.row('personamem', 1);
    await waitFor(
      async () => {
        const text = await rowDescription(benchRow).innerText();
        return text.startsWith(head) && text.endsWith(tail);
      },
      { timeout: 60_000, message: `the tree to show ${head} …${tail}` },
    );
    await wb.screenshot('pmem-batch-experiment');

    // The experiment log holds it, with the same figures; the Experiments view lists it with them.
    const out = execFileSync(process.execPath, [join(repoRoot, 'dist/cli.js'), 'experiments', root, '--json'], {
      encoding: 'utf8',
    });
    const logged = JSON.parse(out) as PmExperimentRow[];
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      run: `32k_${name}`,
      baseRun: BASE,
      sample: { name: 'by-type', split: '32k', questions: 7, strata: sample.strata },
      request: { name: PM_TEMPLATE_NAME },
    });
    expect(logged[0].figures).toEqual(JSON.parse(JSON.stringify(figures)));
    const pane = await wb.expandView('Experiments');
    const row = listRows(pane, { hasText: `32k_${name}` });
    await row.waitFor({ timeout: 30_000 });
    expect(await rowName(row).innerText()).toBe(`32k_${name}`);
    // the core's figures (the JSON above holds an interval it could not give as null)
    const shown = pmExperimentSummary({ ...logged[0], figures });
    expect(await rowDescription(row).innerText()).toBe(shown);
    expect(shown).toMatch(/^Δacc [+−]\d+\.\d .* pp · by-type \(32k\)$/);
    await wb.screenshot('pmem-experiments-view');
    // a click opens Compare Runs of its base run and its run
    await row.click();
    await wb.findWebviewFrame(`#pmcompare-root[data-state="shown"][data-runs="${BASE} 32k_${name}"]`, {
      timeout: 60_000,
    });
    // the README's picture: the row, whole, beside the comparison it opened, with no toast over it
    await wb.sideBar.widen(560);
    await wb.reset();
    await wb.screenshot('pmem-experiment-compare');
  });
});
