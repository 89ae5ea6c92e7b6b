// Persona memory in the workbench, on the hand-made chain of test/fixtures/memoryChain.ts: the
// step view's missed T_keep and D_decay chips say their kind in words, a forgotten tag says the step that dropped it
// and a click opens that step; the run dashboard shows the shares beside Table 5 with their counts, equal to what
// `score --json --memory` prints.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardMemory } from '../../src/shared/spb/dashboardProtocol';
import { writeMemoryChain } from '../fixtures/memoryChain';
import { pressIn, repoRoot, startWorkbench, waitFor, type Workbench } from './harness';

type Total = DashboardMemory;

describe('persona memory in the step view and the dashboard', () => {
  let wb: Workbench;
  let tmp: string;
  let root: string;
  let frame: Frame;

  const showing = (stepId: number) =>
    waitFor(async () => (await frame.locator('#step-root').getAttribute('data-step')) === `weibo/we_a/${stepId}`, {
      timeout: 30_000,
      message: `the step view to show step ${stepId}`,
    });
  /** [tag, mark, memory text] of each chip of a pool group. */
  const chips = (group: string) =>
    frame
      .locator(`[data-group="${group}"] .tag`)
      .evaluateAll((els) =>
        els.map((e) => [
          e.querySelector('.tag-text')?.textContent ?? '',
          e.getAttribute('data-mark') ?? '',
          e.querySelector('.memory')?.textContent ?? '',
        ]),
      );

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-memory-'));
    root = join(tmp, 'chain');
    writeMemoryChain(root);
    wb = await startWorkbench({ folder: root, theme: 'light' });
    await wb.openView('Persona Lab');
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await wb?.screenshot(`personaMemory-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('marks each missed T_keep and D_decay chip with its kind, in words', async () => {
    await wb.runWithPicks('Persona Lab: Open Step', ['we_a', 'step 5/6']);
    frame = await wb.findWebviewFrame('#step-root[data-step="weibo/we_a/5"]', { timeout: 60_000 });
    expect(await chips('tKeep')).toEqual([
      ['#徒步#', 'missed', 'forgotten at step 3'],
      ['#咖啡#', 'missed', 'ignored'],
      ['#ＤＯＧ#', 'missed', 'never captured'],
    ]);
    expect(await chips('dDecay')).toEqual([['#新欢#', 'wrongPick', 're-inferred']]);
    const title = await frame.locator('[data-group="tKeep"] .memory').first().getAttribute('title');
    expect(title).toContain("not the paper's");
    await wb.screenshot('persona-memory-step');
  });

  it('a forgotten tag opens the step that dropped it', async () => {
    await frame.locator('[data-group="tKeep"] a.memory', { hasText: 'forgotten at step 3' }).click();
    await showing(3);
    expect(await chips('tKeep')).toEqual([['#摄影#', 'missed', 'forgotten at step 2']]);
    expect(await chips('dDecay')).toEqual([
      ['#旧爱#', 'wrongPick', 're-inferred'],
      ['#新欢#', 'avoided', ''],
    ]);
    await frame.locator('a.memory', { hasText: 'forgotten at step 2' }).click();
    await showing(2);
    for (let i = 0; i < 4; i++) await pressIn(frame.locator('body'), ']');
    await showing(6);
    expect(await chips('tKeep')).toEqual([['#Cat#', 'missed', 'ignored']]);
    expect(await chips('dDecay')).toEqual([['#coffee#', 'wrongPick', 'carried over']]);
  });

  it('the dashboard shows the shares beside Table 5 with their counts, as score --json --memory', async () => {
    const cli = JSON.parse(
      execFileSync(process.execPath, [join(repoRoot, 'dist/cli.js'), 'score', root, '--json', '--memory'], {
        encoding: 'utf8',
      }),
    ) as { runs: { name: string; memory: { total: Total } }[] };
    const t = cli.runs[0].memory.total;
    await wb.runCommand('Persona Lab: Open Run Dashboard');
    const dash = await wb.findWebviewFrame('#dash-root[data-page="dashboard"][data-state="shown"]', {
      timeout: 60_000,
    });
    const order = await dash.locator('[data-table]').evaluateAll((els) => els.map((e) => e.getAttribute('data-table')));
    expect(order.indexOf('memory')).toBe(order.indexOf('t5') + 1);
    const row = dash.locator('[data-table="memory"] tr[data-run="m"]');
    const cells = await row
      .locator('td')
      .evaluateAll((els) => Object.fromEntries(els.map((e) => [e.getAttribute('data-col'), e.textContent ?? ''])));
    const share = (n: number, whole: number) => `${((100 * n) / whole).toFixed(1)} % (${n})`;
    expect(cells).toEqual({
      missedTKeep: String(t.missedTKeep),
      forgotten: share(t.forgotten, t.missedTKeep),
      ignored: share(t.ignored, t.missedTKeep),
      neverCaptured: share(t.neverCaptured, t.missedTKeep),
      dDecayPicks: String(t.dDecayPicks),
      carriedOver: share(t.carriedOver, t.dDecayPicks),
      reInferred: share(t.reInferred, t.dDecayPicks),
      steps: String(t.steps),
    });
    expect(cells.forgotten).toBe('40.0 % (2)');
    expect(await dash.locator('[data-table="memory"] h3').textContent()).toContain("not the paper's figure");
    await dash.locator('[data-table="memory"]').scrollIntoViewIfNeeded();
    await wb.screenshot('persona-memory-dashboard');
  });
});
