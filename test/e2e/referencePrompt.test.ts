// The benchmark's own prompt in the real workbench: with personaLab.reference.path set to a checkout (our stand-in
// module of the reference's shape), `e` opens a draft rendered by the checkout's bench_task.py with its system
// message and temperature, Ctrl+Enter sends exactly what that builder renders, and Re-run Step offers it first.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { draftPath } from '../../src/core/spb/rerun/draft';
import { readPostsText } from '../../src/core/spb/format/load';
import { REFERENCE_PROMPT_NAME } from '../../src/core/spb/reference/source';
import type { ScriptedServer } from '../support/scriptedServer';
import { pressIn, waitFor, type Workbench } from './harness';
import { rowName } from './support/sideBar';
import { findTarget, type Target } from './rerunExpect';
import { KEY, setKey, startSession, ui, type Session, type Ui } from './rerunSession';

const STAND_IN = resolve('test/fixtures/reference-checkout');
const STAND_IN_SYSTEM = 'STAND-IN system message: answer with JSON only.';

describe("the benchmark's prompt from a checkout", () => {
  let session: Session;
  let wb: Workbench;
  let server: ScriptedServer;
  let target: Target;
  let u: Ui;

  /** What the stand-in renders for the target step receiving `persona`, asked of Python directly. */
  const expected = (persona: string | null): string => {
    const { user, step } = target;
    const args = {
      platform: user.platform,
      username: user.username,
      bio: user.bio,
      batch_n_posts: readPostsText(user, step),
      candidate_pool: step.pool,
      step_id: step.stepId,
      total_steps: step.totalSteps,
      prev_persona: persona,
    };
    const script = `
import json, sys
sys.path.insert(0, sys.argv[1])
from bench_task import BenchTaskBuilder
a = json.loads(sys.stdin.read())
p = BenchTaskBuilder(a.pop("platform")).format_prompt(**a)
sys.__stdout__.write("@@" + json.dumps(p))
`;
    const out = execFileSync('python3', ['-c', script, STAND_IN], { input: JSON.stringify(args), encoding: 'utf8' });
    return JSON.parse(out.slice(out.indexOf('@@') + 2)) as string;
  };
  const sent = (i: number) => {
    const body = server.requests[i].body as { temperature: number; messages: { role: string; content: string }[] };
    const text = (role: string) => body.messages.find((m) => m.role === role)!.content;
    return { system: text('system'), prompt: text('user'), temperature: body.temperature };
  };

  beforeAll(async () => {
    session = await startSession('persona-lab-reference-', { 'personaLab.reference.path': STAND_IN });
    ({ wb, server } = session);
    target = findTarget(session.bench, session.run);
    u = ui(wb);
    await setKey(wb, u, KEY);
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`reference-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await session?.close();
  });

  it("e opens the step's request as the checkout renders it, and Ctrl+Enter sends exactly that", async () => {
    const { user, step } = target;
    const file = join(session.ws, ...draftPath(session.run.name, { ...user, stepId: step.stepId }).split('/'));
    const frame = await u.openStep(user, step);
    await frame.locator('.step-header').click({ position: { x: 2, y: 2 } });
    await pressIn(frame.locator('body'), 'e');
    await waitFor(() => existsSync(file), { message: 'the draft file' });
    const draft = readFileSync(file, 'utf8');
    expect(draft).toContain(REFERENCE_PROMPT_NAME);
    expect(draft).toContain(STAND_IN_SYSTEM);
    expect(draft).toContain(expected(target.carried));
    await wb.editor.tab('.pldraft').click();
    await wb.runCommand('View: Focus Active Editor Group');
    await wb.editor.focusedActive().waitFor();
    await wb.editor.press('Control+Enter');
    await u.compared(1);
    expect(sent(0)).toEqual({ system: STAND_IN_SYSTEM, prompt: expected(target.carried), temperature: 0 });
    await wb.screenshot('reference-prompt-draft');
  });

  it('Save Draft as Template refuses a draft of the benchmark’s prompt, saying why', async () => {
    await wb.editor.tab('.pldraft').click();
    await wb.runCommand('View: Focus Active Editor Group');
    await u.palette('Persona Lab: Save Draft as Template…');
    await waitFor(
      async () => (await wb.notifications()).some((n) => n.includes("starts from the benchmark's prompt")),
      {
        message: 'the refusal',
      },
    );
    expect(existsSync(join(session.ws, '.personalab', 'templates'))).toBe(false);
  });

  it('Re-run Step offers the benchmark’s prompt first and sends what it renders', async () => {
    const { user, step } = target;
    await u.palette('Persona Lab: Re-run Step…');
    await u.title('(1/2): template');
    const first = wb.quick.rows().first();
    expect(await rowName(first).first().textContent()).toContain(REFERENCE_PROMPT_NAME);
    await u.row(new RegExp(REFERENCE_PROMPT_NAME.replace(/[()]/g, '\\$&'))).click();
    await u.title('(2/2): persona');
    await u.row(/No persona \(cold start\)/).click();
    await u.compared(2);
    expect(sent(1)).toEqual({ system: STAND_IN_SYSTEM, prompt: expected(null), temperature: 0 });
    expect(sent(1).prompt).toContain(`STEP=${step.stepId}`);
    expect(sent(1).prompt).toContain(`USER=${user.username}`);
  });
});
