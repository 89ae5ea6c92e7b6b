// PersonaMem re-runs in the real workbench, against a scripted server on 127.0.0.1: in the question view of the
// sample's PersonaMem folder R asks the question again as Persona Lab's template renders it (named as such), E opens
// its request as a draft, a line typed there and Ctrl+Enter send exactly that after the history, and the attempt is
// listed with what was sent and came back, the letter read from the reply and right or wrong against the answer. The
// edit stays in the draft: R afterwards sends the template's request again. In a workspace that is a checkout of the
// PersonaMem repository (the stand-in, test/fixtures/personamem-checkout), R sends the request its code builds.
import { copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { personaMemDemoAnswer } from '../../src/core/personamem/demo';
import { readAnswer } from '../../src/core/personamem/answer';
import { readContext } from '../../src/core/personamem/contexts';
import { personaMem } from '../../src/core/personamem/format';
import { PM_REFERENCE_NAME, pmReferenceSource } from '../../src/core/personamem/reference/source';
import { pmDraftPath } from '../../src/core/personamem/run/draft';
import { chatMessage, PM_TEMPLATE_NAME, templateQuestion } from '../../src/core/personamem/run/source';
import { SKILL_HEADS, type PersonaMemBench, type PmQuestion } from '../../src/core/personamem/types';
import { letterOf, personaIds, personaQuestions } from '../../src/core/personamem/view';
import { reply, startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { pressIn, repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { treePage } from './treePage';

/** The run selected when the folder opens (the first by name): its drafts live under its name. */
const RUN = '32k_demo-strong';
const TYPED = 'Remember: this user changed their mind last week.';

interface Sent {
  role: string;
  content: string;
}

describe('PersonaMem re-runs and edited prompts in the workbench', () => {
  let wb: Workbench;
  let server: ScriptedServer;
  let tmp: string;
  let root: string;
  let bench: PersonaMemBench;
  let q: PmQuestion;
  let history: Sent[];
  let frame: Frame;
  const { expand, rowLocator } = treePage(() => wb);
  const sentMessages = (i: number) => (server.requests[i].body as { messages: Sent[] }).messages;
  const correct = () => letterOf(q.correctAnswer)!;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-pmem-rerun-'));
    root = join(tmp, 'personamem');
    cpSync(join(repoRoot, 'sample', 'personamem'), root, { recursive: true });
    bench = (await personaMem.load(root)).bench as PersonaMemBench;
    q = personaQuestions(bench, '32k', personaIds(bench, '32k')[0])[0];
    const ctx = bench.splits.get('32k')!.contexts.get(q.contextId)!;
    history = readContext(ctx, q.endIndex).map(chatMessage);
    // The demo model's rule, except for a request carrying the typed line: that one names the right option.
    server = await startScriptedServer((req) => {
      const messages = (req.body as { messages: Sent[] }).messages;
      if (messages.at(-1)!.content.includes(TYPED)) return reply.text(`Noted. <final_answer>(${correct()})`);
      return reply.text(personaMemDemoAnswer(messages)?.content ?? 'no answer');
    });
    wb = await startWorkbench({
      folder: root,
      theme: 'dark',
      viewport: { width: 1600, height: 1000 },
      settings: { 'personaLab.endpoint.baseURL': server.baseURL, 'personaLab.endpoint.model': 'scripted-model' },
    });
    await wb.openView('Persona Lab');
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`pmem-rerun-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    await server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const focusPage = () => frame.locator('.question-text').click();

  it('R asks the question again as Persona Lab’s template renders it, listed as an attempt and judged', async () => {
    const persona = `persona ${q.personaId}`;
    await expand(
      'personamem',
      1,
      personaIds(bench, '32k').map((p) => `persona ${p}`),
    );
    const label = (x: PmQuestion, i: number) => `Q${i + 1} ${SKILL_HEADS[x.skill] ?? x.skill}`;
    await expand(persona, 2, personaQuestions(bench, '32k', q.personaId).map(label));
    await rowLocator(label(q, 0), 3).first().click();
    frame = await wb.findWebviewFrame(`#question-root[data-question="${q.questionId}"]`, { timeout: 60_000 });
    await frame.locator('.attempt-source', { hasText: `request: ${PM_TEMPLATE_NAME}` }).waitFor({ timeout: 30_000 });
    await focusPage();
    await pressIn(frame.locator('body'), 'r');
    const first = frame.locator('.attempt[data-attempt="1"]');
    await first.waitFor({ timeout: 60_000 });
    expect(server.requests).toHaveLength(1);
    const expected = [...history, { role: 'user', content: templateQuestion(q) }];
    expect(sentMessages(0)).toEqual(expected);
    const said = personaMemDemoAnswer(expected)!.content;
    const read = readAnswer(said, q.correctAnswer);
    expect(await first.locator('.attempt-reply').innerText()).toBe(said);
    expect(await first.locator('.attempt-sent').allInnerTexts()).toEqual([templateQuestion(q)]);
    const verdict = first.locator('.attempt-verdict');
    expect(await verdict.getAttribute('data-verdict')).toBe(read.correct ? 'right' : 'wrong');
    expect(await verdict.getAttribute('data-pick')).toBe(read.pick);
    expect(await verdict.innerText()).toContain(`the answer is (${correct()})`);
    expect(await first.locator('.attempt-head').innerText()).toContain(PM_TEMPLATE_NAME);
  });

  it('E opens the request as a draft; a typed line and Ctrl+Enter send exactly that, judged right', async () => {
    await focusPage();
    await pressIn(frame.locator('body'), 'e');
    const file = join(root, ...pmDraftPath(RUN, '32k', q.questionId).split('/'));
    await waitFor(() => existsSync(file), { message: 'the draft file' });
    await wb.editor.tab('.pldraft', { active: true }).waitFor();
    const draftText = readFileSync(file, 'utf8');
    expect(draftText).toContain(`question: 32k/${q.questionId}\n`);
    expect(draftText).toContain(`history: ${history.length}\n`);
    expect(draftText).toContain(`rendered by ${PM_TEMPLATE_NAME}`);
    // The keys must reach the draft, which the view beside it can take the focus from late.
    await wb.focusEditorTab('.pldraft');
    const promptLine = draftText.split('\n').indexOf('=== user ===') + 2;
    await wb.statusBar.selection(`Ln ${promptLine}, Col 1`).waitFor({ timeout: 10_000 });
    await wb.editor.press('Control+End');
    await wb.typeInEditor(`\n${TYPED}`);
    await wb.editor.press('Control+Enter');
    const second = frame.locator('.attempt[data-attempt="2"]');
    await second.waitFor({ timeout: 60_000 });
    expect(server.requests).toHaveLength(2);
    const edited = `${templateQuestion(q)}\n${TYPED}`;
    expect(sentMessages(1)).toEqual([...history, { role: 'user', content: edited }]);
    expect(await second.locator('.attempt-head').innerText()).toContain('edited prompt');
    expect(await second.locator('.attempt-sent').allInnerTexts()).toEqual([edited]);
    expect(await second.locator('.attempt-reply').innerText()).toBe(`Noted. <final_answer>(${correct()})`);
    const verdict = second.locator('.attempt-verdict');
    expect(await verdict.getAttribute('data-verdict')).toBe('right');
    expect(await verdict.getAttribute('data-pick')).toBe(correct());
    await second.scrollIntoViewIfNeeded();
    await wb.screenshot('pmem-rerun-edited-attempt');
  });

  it('the edit stays in its draft: R sends the template’s request again, and no other question has a draft', async () => {
    await focusPage();
    await pressIn(frame.locator('body'), 'r');
    await frame.locator('.attempt[data-attempt="3"]').waitFor({ timeout: 60_000 });
    expect(server.requests).toHaveLength(3);
    expect(sentMessages(2)).toEqual([...history, { role: 'user', content: templateQuestion(q) }]);
    const other = personaQuestions(bench, '32k', q.personaId)[1];
    expect(existsSync(join(root, ...pmDraftPath(RUN, '32k', other.questionId).split('/')))).toBe(false);
  });
});

describe('PersonaMem re-runs from a checkout of the benchmark’s repository', () => {
  let wb: Workbench | undefined;
  let server: ScriptedServer;
  let tmp: string;
  let checkout: string;
  let bench: PersonaMemBench;
  let q: PmQuestion;

  beforeAll(async () => {
    server = await startScriptedServer(() => reply.text('Options read. <final_answer>(a)'));
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-pmem-checkout-'));
    checkout = join(tmp, 'PersonaMem');
    const root = join(checkout, 'personamem');
    cpSync(join(repoRoot, 'sample', 'personamem'), root, { recursive: true });
    const stand = join(repoRoot, 'test', 'fixtures', 'personamem-checkout', 'inference.py');
    copyFileSync(stand, join(checkout, 'inference.py'));
    bench = (await personaMem.load(root)).bench as PersonaMemBench;
    q = personaQuestions(bench, '32k', personaIds(bench, '32k')[0])[0];
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await wb?.screenshot(`pmem-rerun-checkout-FAILED-${ctx.task.name}`).catch(() => {});
    await wb?.close();
    wb = undefined;
  });

  afterAll(async () => {
    await server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  /** The checkout folder in a workbench, its first question open, R pressed; the block of attempt `id`. */
  async function rerunFirstQuestion(w: Workbench, source: string, id: number) {
    await w.openView('Persona Lab');
    const { expand, rowLocator } = treePage(() => w);
    const label = (x: PmQuestion, i: number) => `Q${i + 1} ${SKILL_HEADS[x.skill] ?? x.skill}`;
    await expand(
      'personamem',
      1,
      personaIds(bench, '32k').map((p) => `persona ${p}`),
    );
    await expand(`persona ${q.personaId}`, 2, personaQuestions(bench, '32k', q.personaId).map(label));
    await rowLocator(label(q, 0), 3).first().click();
    const frame = await w.findWebviewFrame(`#question-root[data-question="${q.questionId}"]`, { timeout: 60_000 });
    await frame.locator('.attempt-source', { hasText: `request: ${source}` }).waitFor({ timeout: 60_000 });
    await frame.locator('.question-text').click();
    await pressIn(frame.locator('body'), 'r');
    const made = frame.locator(`.attempt[data-attempt="${id}"]`);
    await made.waitFor({ timeout: 60_000 });
    return made;
  }

  const settings = () => ({
    'personaLab.endpoint.baseURL': server.baseURL,
    'personaLab.endpoint.model': 'scripted-model',
  });
  const history = () => readContext(bench.splits.get('32k')!.contexts.get(q.contextId)!, q.endIndex);
  const lastSent = () => (server.requests.at(-1)!.body as { messages: Sent[] }).messages;

  it('R in a trusted workspace sends the request the checkout’s inference.py builds, named so', async () => {
    const reference = await pmReferenceSource(checkout);
    const expected = await reference.request(q, history(), 'scripted-model').finally(() => reference.close());
    wb = await startWorkbench({
      folder: checkout,
      theme: 'dark',
      viewport: { width: 1600, height: 1000 },
      settings: settings(),
    });
    const first = await rerunFirstQuestion(wb, PM_REFERENCE_NAME, 1);
    expect(server.requests).toHaveLength(1);
    expect(lastSent()).toEqual(expected.messages);
    expect(await first.locator('.attempt-head').innerText()).toContain(PM_REFERENCE_NAME);
    const verdict = first.locator('.attempt-verdict');
    expect(await verdict.getAttribute('data-pick')).toBe('a');
    expect(await verdict.getAttribute('data-verdict')).toBe(letterOf(q.correctAnswer) === 'a' ? 'right' : 'wrong');
  });

  it('R in an untrusted workspace runs none of the checkout’s code: our template, and the reason said', async () => {
    const before = server.requests.length;
    // Its own code-server (not the shared one): workspace trust on.
    wb = await startWorkbench({
      folder: checkout,
      workspaceTrust: true,
      settings: {
        'security.workspace.trust.startupPrompt': 'never',
        'security.workspace.trust.banner': 'always',
        ...settings(),
      },
    });
    await wb.root().locator('text=Restricted Mode').first().waitFor({ timeout: 60_000 });
    // The folder keeps the attempt the trusted window made: this one is the second.
    const first = await rerunFirstQuestion(wb, PM_TEMPLATE_NAME, 2);
    await wb
      .toasts(/runs the checkout's code, so it needs a trusted workspace/)
      .first()
      .waitFor({ timeout: 30_000 });
    expect(server.requests).toHaveLength(before + 1);
    expect(lastSent()).toEqual([...history().map(chatMessage), { role: 'user', content: templateQuestion(q) }]);
    expect(await first.locator('.attempt-head').innerText()).toContain(PM_TEMPLATE_NAME);
  });
});
