// A re-run in the real workbench against an endpoint that sends its headers at once and then its body a byte at a
// time: with a 1 s timeoutSeconds setting each attempt ends at 1 s, headers and body (the `openai` client alone
// stopped timing once the headers came), and the step view's failure banner names the timeout.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reply, type ScriptedServer } from '../support/scriptedServer';
import type { Workbench } from './harness';
import { findTarget, type Target } from './rerunExpect';
import { startSession, ui, type Session, type Ui } from './rerunSession';

describe('a re-run against an endpoint that trickles its body', () => {
  let session: Session;
  let wb: Workbench;
  let server: ScriptedServer;
  let target: Target;
  let u: Ui;

  beforeAll(async () => {
    session = await startSession('persona-lab-rerun-hostile-', { 'personaLab.endpoint.timeoutSeconds': 1 });
    ({ wb, server } = session);
    target = findTarget(session.bench, session.run);
    u = ui(wb);
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await wb?.screenshot(`rerun-hostile-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await session?.close();
  });

  it('ends each attempt at the timeout and shows the error banner naming it', async () => {
    const { user, step } = target;
    server.setScript(() => reply.trickle(250, 1));
    const frame0 = await u.openStep(user, step);
    await frame0.locator('.nav-row vscode-button[data-command="rerunStep"]').click();
    await u.answerRerun("Persona Lab's template (not the benchmark's prompt)", /Carried from/);
    const frame = await u.compared(1);
    // Three attempts, each cut off while the body was still coming.
    expect(server.requests).toHaveLength(3);
    await Promise.all(server.requests.map((r) => server.waitForClose(r.index)));
    for (const r of server.requests) {
      expect(r.sent.bytes).toBeGreaterThan(0);
      expect(r.sent.complete).toBe(false);
    }
    const banner = frame.locator('.cmp-failed .failure-banner');
    expect(await banner.getAttribute('role')).toBe('alert');
    expect(await banner.locator('[data-fact="failure"]').textContent()).toBe(
      'Attempt 1 failed: no usable reply after 3 of 3 tries',
    );
    expect(await banner.locator('[data-fact="error"]').textContent()).toContain(
      'Request timed out: no complete reply within 1 s (the timeout covers the headers and the body).',
    );
    await banner.evaluate((e) => e.scrollIntoView());
    await wb.screenshot('rerun-hostile-timeout');
  });
});
