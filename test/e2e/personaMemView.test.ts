// PersonaMem in the real workbench on sample/ (which holds all three benchmarks): its root in the Benchmarks tree
// with the selected run's figures, a persona expanded to its questions (type and verdict icon), another run chosen
// from the benchmark row, a question opened in the question view (the question, the options with the model's pick
// and the answer, the history the model saw with its sessions), and ] moving to the persona's next question.
// Expected figures come from the core.
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { personaMem } from '../../src/core/personamem/format';
import { scorePersonaMemRun } from '../../src/core/personamem/score';
import { SKILL_HEADS, type PersonaMemBench, type PmQuestion } from '../../src/core/personamem/types';
import {
  buildQuestionModel,
  personaIds,
  personaQuestions,
  questionVerdict,
  verdictCounts,
  type PmQuestionModel,
} from '../../src/core/personamem/view';
import { pressIn, repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { treePage } from './treePage';
import { rowName } from './support/sideBar';

const sample = join(repoRoot, 'sample');
/** The run selected first (the first by name), and the one chosen from the benchmark row. */
const FIRST = '32k_demo-strong';
const OTHER = '32k_demo-weak';
const ICONS = { right: 'pass', wrong: 'error', invalid: 'warning', unanswered: 'circle-outline' };

describe('PersonaMem question view in the real workbench', () => {
  let wb: Workbench;
  let bench: PersonaMemBench;
  let target: PmQuestion;
  let model: PmQuestionModel;
  let frame: Frame;
  const { expand, waitRow, rowLocator, quickPickRow } = treePage(() => wb);
  const label = (q: PmQuestion, i: number) => `Q${i + 1} ${SKILL_HEADS[q.skill] ?? q.skill}`;
  const counts = (runName: string, questions: readonly PmQuestion[]) => {
    const run = bench.runs.get(runName)!;
    const score = scorePersonaMemRun(bench, run);
    return verdictCounts(questions.map((q) => questionVerdict(score, run, q.questionId)));
  };

  beforeAll(async () => {
    bench = (await personaMem.load(join(sample, 'personamem'))).bench as PersonaMemBench;
    const run = bench.runs.get(OTHER)!;
    const score = scorePersonaMemRun(bench, run);
    // A question OTHER got wrong with a letter picked, that is not its persona's last (so ] has somewhere to go).
    const all = personaIds(bench, '32k').flatMap((p) => personaQuestions(bench, '32k', p).slice(0, -1));
    target =
      all.find((q) => {
        const m = buildQuestionModel(bench, q, run, score);
        return m.verdict === 'wrong' && m.pick !== null;
      }) ?? all[0];
    model = buildQuestionModel(bench, target, run, score);
    wb = await startWorkbench({ folder: sample, theme: 'dark', viewport: { width: 1600, height: 1000 } });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`pmem-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
  });

  it('lists the PersonaMem benchmark with its run, its personas and their questions with verdicts', async () => {
    await wb.openView('Persona Lab');
    const c = counts(FIRST, bench.splits.get('32k')!.questions);
    const root = await waitRow('personamem', 1, (r) => r.description.includes(`run: ${FIRST}`), 'the PersonaMem root');
    expect(root.description).toContain(`right (${c.right} of ${c.answered})`);
    await expand(
      'personamem',
      1,
      personaIds(bench, '32k').map((p) => `persona ${p}`),
    );
    const persona = `persona ${target.personaId}`;
    const questions = personaQuestions(bench, '32k', target.personaId);
    const pc = counts(FIRST, questions);
    await waitRow(persona, 2, (r) => r.description.includes(`right (${pc.right} of ${pc.answered})`), persona);
    const rows = await expand(persona, 2, questions.map(label));
    const run = bench.runs.get(FIRST)!;
    const score = scorePersonaMemRun(bench, run);
    questions.forEach((q, i) => {
      const row = rows.find((r) => r.label === label(q, i))!;
      expect(row.description).toContain(q.topic);
      expect(row.icon).toBe(ICONS[questionVerdict(score, run, q.questionId)]);
    });
    await wb.screenshot('pmem-tree');
  });

  it('a click on the benchmark row chooses another run, and the figures follow it', async () => {
    await rowName(rowLocator('personamem', 1).first()).click();
    const pick = quickPickRow(OTHER);
    await pick.waitFor({ state: 'visible', timeout: 30_000 });
    await pick.click();
    const c = counts(OTHER, bench.splits.get('32k')!.questions);
    const root = await waitRow('personamem', 1, (r) => r.description.includes(`run: ${OTHER}`), `the run ${OTHER}`);
    expect(root.description).toContain(`right (${c.right} of ${c.answered})`);
    const row = await waitRow(
      label(target, model.position - 1),
      3,
      (r) => r.icon === ICONS[model.verdict],
      'the question row with its verdict in the other run',
    );
    expect(row.description).toContain(target.topic);
  });

  it('opens the question: the question, the options with the pick and the answer, the verdict', async () => {
    await rowLocator(label(target, model.position - 1), 3)
      .first()
      .click();
    frame = await wb.findWebviewFrame(`#question-root[data-question="${target.questionId}"]`, { timeout: 60_000 });
    expect(await frame.locator('.question-text').innerText()).toBe(target.question);
    const letters = await frame
      .locator('.options li')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-letter')));
    expect(letters).toEqual(['a', 'b', 'c', 'd']);
    expect(await frame.locator('.options li.correct').getAttribute('data-letter')).toBe(model.correctLetter);
    expect(await frame.locator('.options li.correct .mark-answer').innerText()).toContain('answer');
    expect(model.pick).not.toBeNull();
    expect(await frame.locator('.options li.picked').getAttribute('data-letter')).toBe(model.pick);
    expect(await frame.locator('.options li.picked .mark-pick').innerText()).toContain("model's pick");
    expect(await frame.locator('.verdict').getAttribute('data-verdict')).toBe(model.verdict);
    expect(await frame.locator('.skill').innerText()).toBe(model.skillHead);
    expect(await frame.locator('.topic').innerText()).toContain(target.topic);
    expect(await frame.locator('.run').innerText()).toBe(`run: ${OTHER}`);
  });

  it('lists the history the model saw, up to the end index, with its sessions marked', async () => {
    const history = frame.locator('.history');
    expect(await history.getAttribute('data-count')).toBe(String(target.endIndex));
    await waitFor(async () => (await history.locator('.vrow[data-index="0"] .idx').textContent()) === '#0', {
      message: 'the first history row',
    });
    expect(await history.locator('.vrow[data-index="0"]').getAttribute('class')).toContain('opens');
    const opened = await history.locator('.vrow.opens').count();
    expect(opened).toBeGreaterThan(0);
    expect(opened).toBeLessThanOrEqual(model.sessions);
    // The last message the model saw, opened in full below the list.
    await history.locator('.vrow[data-index="0"]').click();
    await pressIn(history.locator('.vlist'), 'End', 'Enter');
    const detail = history.locator('.message-detail');
    // The click opened #0 first; the last message replaces it once its text arrives.
    await waitFor(async () => (await detail.getAttribute('data-index')) === String(model.seen - 1), {
      message: `message #${model.seen - 1} opened below the list`,
    });
    expect(await detail.textContent()).toContain(`#${model.seen - 1}`);
    await wb.screenshot('pmem-question');
  });

  it('] moves to the persona’s next question', async () => {
    const next = personaQuestions(bench, '32k', target.personaId)[model.position];
    await frame.locator('.question-text').click();
    await pressIn(frame.locator('body'), ']');
    await frame.locator(`#question-root[data-question="${next.questionId}"]`).waitFor({ timeout: 30_000 });
    expect(await frame.locator('.question-text').innerText()).toBe(next.question);
    expect(await frame.locator('.question-title').innerText()).toContain(
      `question ${model.position + 1} of ${model.count}`,
    );
  });
});
