// PersonaMem re-runs in the real workbench, against a scripted server on 127.0.0.1: in the question view of the
// sample's PersonaMem folder R asks the question again as Persona Lab's template renders it (named as such), E opens
// its request as a draft, a line typed there and Ctrl+Enter send exactly that after the history, and the attempt is
// listed with what was sent and came back, the letter read from the reply and right or wrong against the answer. The
// edit stays in the draft: R afterwards sends the template's request again.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { personaMemDemoAnswer } from '../../src/core/demo/personamem';
import { readAnswer } from '../../src/core/personamem/answer';
import { readContext } from '../../src/core/personamem/contexts';
import { personaMem } from '../../src/core/personamem/format';
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
