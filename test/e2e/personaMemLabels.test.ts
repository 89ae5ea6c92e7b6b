// Labels on PersonaMem questions in the real workbench, on a fresh copy of sample/personamem: a question opened from
// the tree, a label put on it with its key in the question view (and another put on and undone), the store read
// back through the CLI, the badge on the question's row in the tree, and all of it again after Reload Window; then
// another annotator's label on it (imported through the CLI) makes a disagreement whose row in the Label Summary
// opens the question in the question view, and the adjudication pass settles it there with a number key.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parseLabelFile } from '../../src/core/labels/exportImport';
import { personaMem } from '../../src/core/personamem/format';
import { DEFAULT_QUESTION_LABELS, questionUnit } from '../../src/core/personamem/labels';
import { SKILL_HEADS, type PersonaMemBench, type PmQuestion } from '../../src/core/personamem/types';
import { personaIds, personaQuestions } from '../../src/core/personamem/view';
import { pressIn, repoRoot, waitFor, type Workbench } from './harness';
import { cli, labelsPage } from './labelsPage';
import { expandRow, rowDescription } from './support/sideBar';
import { sampleCopyWorkbench } from './support/omniCopy';

const AUTHOR = 'e2e-question-annotator';

describe('labels on PersonaMem questions in the real workbench', () => {
  let wb: Workbench;
  let root: string;
  let bench: PersonaMemBench;
  let question: PmQuestion;
  let position: number;
  let runName: string;
  let frame: Frame;
  const [, outdated, evidence] = DEFAULT_QUESTION_LABELS;
  const { palette, pick } = labelsPage(() => wb);

  /** Every label in the store, read through the CLI with the benchmark folder (an independent reader). */
  function storeRows(): string[] {
    const text = execFileSync(process.execPath, [join(repoRoot, 'dist/cli.js'), 'labels', 'export', root], {
      encoding: 'utf8',
    });
    return parseLabelFile(text, 'db', 'jsonl')
      .rows.map(({ row }) => `${row.platform}/${row.userId}/${row.stepId}/${row.run}/${row.author}:${row.label}`)
      .sort();
  }
  /** The row the store keeps for `label` on the question: its split, persona and place, in the selected run. */
  const rowKey = (label: string) => {
    const unit = questionUnit(bench, question.split, question.questionId)!;
    return `${unit.split}/${unit.personaId}/${unit.index}/${runName}/${AUTHOR}:${label}`;
  };

  const questionLabel = () => `Q${position} ${SKILL_HEADS[question.skill] ?? question.skill}`;
  const treeRow = (label: string, level: number) => wb.sideBar.benchmarks.row(label, level).first();
  async function expand(label: string, level: number): Promise<void> {
    const r = treeRow(label, level);
    await r.waitFor({ state: 'visible', timeout: 60_000 });
    await expandRow(r);
    await waitFor(async () => (await r.getAttribute('aria-expanded')) === 'true', { message: `${label} to expand` });
  }
  const chip = (id: string) => frame.locator(`.labels-bar .label-chip[data-label-id="${id}"]`);
  const pressed = (id: string, on: boolean) =>
    waitFor(async () => (await chip(id).getAttribute('aria-pressed')) === String(on), {
      message: `${id} to be ${on ? 'on' : 'off'}`,
    });
  const badge = () =>
    waitFor(
      async () => (await rowDescription(treeRow(questionLabel(), 3)).innerText()).includes(`⚑ ${outdated.name}`),
      {
        message: 'the question row to carry the label badge',
      },
    );
  const openFrame = () =>
    wb.findWebviewFrame(`#question-root[data-question="${question.questionId}"] .labels-bar`, { timeout: 90_000 });

  sampleCopyWorkbench('personaMemLabels', 'personamem', AUTHOR, {
    prepare: async (copy) => {
      root = copy;
      bench = (await personaMem.load(root)).bench as PersonaMemBench;
      // The run the tree selects first (the first by name); the second question of the first persona, so that its
      // place among the persona's questions is not 0.
      runName = [...bench.runs.keys()].sort()[0];
      const persona = personaIds(bench, '32k')[0];
      question = personaQuestions(bench, '32k', persona)[1];
      position = 2;
    },
    started: (started) => {
      wb = started;
    },
  });

  it('labels the question with its key in the question view, with undo, and the store keeps it', async () => {
    await wb.openView('Persona Lab');
    await expand(`persona ${question.personaId}`, 2);
    const row = treeRow(questionLabel(), 3);
    await row.scrollIntoViewIfNeeded();
    await row.click();
    frame = await openFrame();
    expect(await frame.locator('.labels-bar .label-chip').count()).toBe(DEFAULT_QUESTION_LABELS.length);
    expect(await frame.locator('.labels-bar').getAttribute('data-run')).toBe(runName);

    // The key on the page (the keyboard stays in the webview).
    await frame.locator('.question-text').click();
    await pressIn(frame.locator('body'), outdated.key!);
    await pressed(outdated.id, true);
    expect(storeRows()).toEqual([rowKey(outdated.id)]);

    // Another label, then u undoes it.
    await pressIn(frame.locator('body'), evidence.key!);
    await pressed(evidence.id, true);
    expect(storeRows()).toEqual([rowKey(outdated.id), rowKey(evidence.id)].sort());
    await pressIn(frame.locator('body'), 'u');
    await pressed(evidence.id, false);
    expect(await frame.locator('.labels-flash').textContent()).toBe(`Undid: added ${evidence.name} on the question`);
    expect(storeRows()).toEqual([rowKey(outdated.id)]);
    await wb.screenshot('personaMemLabels-view');
  });

  it("shows the label as a badge on the question's row in the tree", async () => {
    await badge();
    await wb.screenshot('personaMemLabels-tree');
  });

  it('keeps the label after Reload Window: in the restored question view, the tree and the store', async () => {
    const reloaded = wb.page.waitForEvent('load', { timeout: 60_000 });
    await wb.runCommand('Developer: Reload Window').catch(() => {});
    await reloaded;
    await wb.waitForWorkbench();
    frame = await openFrame();
    await pressed(outdated.id, true);
    expect(await chip(evidence.id).getAttribute('aria-pressed')).toBe('false');
    await wb.openView('Persona Lab');
    await expand(`persona ${question.personaId}`, 2);
    await badge();
    expect(storeRows()).toEqual([rowKey(outdated.id)]);
  });

  it('opens the question from its disagreement row in the Label Summary', async () => {
    const unit = questionUnit(bench, question.split, question.questionId)!;
    const other = {
      benchmark: 'personamem',
      platform: unit.split,
      user_id: unit.personaId,
      step_id: unit.index,
      run: runName,
      author: 'e2e-other-annotator',
      label: evidence.id,
      target_kind: 'step',
      note: '',
      created_at: '2025-01-01T00:00:00Z',
      content_hash: '',
    };
    const file = join(root, '..', 'other.jsonl');
    writeFileSync(file, JSON.stringify(other) + '\n');
    cli(['labels', 'import', root, file]);
    // The view moves on to the persona's next question, so that the row has to bring this one back.
    await frame.locator('.question-text').click();
    await pressIn(frame.locator('body'), ']');
    await frame.locator(`#question-root:not([data-question="${question.questionId}"])`).waitFor({ timeout: 30_000 });
    await palette('Persona Lab: Label Summary');
    const table = await wb.findWebviewFrame(
      '#agreement-root section.benchmark[data-benchmark="personamem"] table.unit-disagreements',
      { timeout: 60_000 },
    );
    const rows = table.locator(
      'section.benchmark[data-benchmark="personamem"] table.unit-disagreements tr.disagreement',
    );
    await waitFor(async () => (await rows.count()) === 1, { message: 'one disagreement on the question' });
    // The benchmark's units are called what PersonaMem calls them.
    const heading = table.locator('section.benchmark[data-benchmark="personamem"] h2');
    expect(await heading.innerText()).toBe(`personamem: ${personaMem.label} questions`);
    expect(await rows.first().locator('th.where').innerText()).toContain(` · question ${unit.index} · `);
    await rows.first().click();
    frame = await openFrame();
    expect(await frame.locator('.question-text').innerText()).toBe(question.question);
    await wb.screenshot('personaMemLabels-agreement');
  });

  it('settles that disagreement in the adjudication pass: both annotators shown, 1 takes the first one’s labels', async () => {
    const unit = questionUnit(bench, question.split, question.questionId)!;
    await palette('Persona Lab: Adjudicate Labels…');
    await pick('Disagreements', 'Disagreements');
    frame = await wb.findWebviewFrame(
      `#question-root[data-question="${question.questionId}"] section.adjudication[data-state="open"]`,
      { timeout: 60_000 },
    );
    const section = frame.locator('section.adjudication');
    const columns = await section
      .locator('.annotator')
      .evaluateAll((els) =>
        els.map((e) => [
          (e as HTMLElement).dataset.author,
          [...e.querySelectorAll('ul.labels li')].map((li) => li.textContent),
        ]),
      );
    expect(columns).toEqual([
      ['e2e-other-annotator', [evidence.name]],
      [AUTHOR, [outdated.name]],
    ]);
    await section.locator('.adjudication-head').click();
    await pressIn(frame.locator('body'), '1');
    type Unit = { userId: string; stepId: number; status: string; gold: string[] | null; adjudicator?: string };
    const settled = () => {
      const j = JSON.parse(cli(['labels', 'gold', root, '--json'])) as {
        benchmarks: { benchmark: string; units: Unit[] }[];
      };
      return j.benchmarks
        .find((b) => b.benchmark === 'personamem')
        ?.units.find((u) => u.userId === unit.personaId && u.stepId === unit.index);
    };
    await waitFor(() => settled()?.status === 'adjudicated', { message: 'the question to be settled in the store' });
    expect(settled()).toMatchObject({ gold: [evidence.id], adjudicator: AUTHOR });
    await wb.screenshot('personaMemLabels-adjudicated');
  });
});
