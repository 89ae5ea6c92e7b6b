// The step view in the real workbench on sample/: opens a step from the palette, reads the six pool groups, the
// hit/miss marks, the persona diff and the metrics inside the webview, navigates with the keyboard (in-webview keys
// and the workbench keybindings), and saves screenshots in dark, light and high-contrast themes.
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { scoreStep } from '../../src/core/spb/score/step';
import { hoverText } from '../../src/core/glossary';
import {
  POOL_CLASSES,
  type Benchmark,
  type Run,
  type Step,
  type StepResult,
  type User,
} from '../../src/core/spb/types';
import { pressIn, repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { labelled } from './support/sideBar';

const sample = join(repoRoot, 'sample');
const LABELS = {
  tKeep: 'T_keep',
  tNew: 'T_new',
  dDecay: 'D_decay',
  dPeer: 'D_peer',
  dViral: 'D_viral',
  dRandom: 'D_random',
} as const;

interface Target {
  user: User;
  step: Step;
  next: Step;
  nextUser: User;
  result: StepResult;
  received: string;
}

/** Independently of the view model: a weibo step with a hit, a miss, a wrong pick and a persona that changed. */
function findTarget(bench: Benchmark, run: Run): Target {
  const users = [...bench.users.get('weibo')!.values()].filter((u) => u.steps.length > 0);
  for (const [ui, user] of users.entries()) {
    const results = run.results.get('weibo')?.get(user.userId);
    let received = '';
    for (const [i, step] of user.steps.entries()) {
      const result = results?.steps.get(step.stepId);
      const picks = new Set(result?.prediction.filter((p): p is string => typeof p === 'string'));
      const pos = [...step.split.tKeep, ...step.split.tNew];
      const neg = [...step.split.dDecay, ...step.split.dPeer, ...step.split.dViral, ...step.split.dRandom];
      const written = result?.personaSummary ?? '';
      const next = user.steps[i + 1];
      if (
        result &&
        next &&
        users[ui + 1] &&
        received &&
        written &&
        written !== received &&
        pos.some((t) => picks.has(t)) &&
        pos.some((t) => !picks.has(t)) &&
        neg.some((t) => picks.has(t))
      ) {
        return { user, step, next, nextUser: users[ui + 1], result, received };
      }
      if (written) received = written;
    }
  }
  throw new Error('sample/ has no weibo step with a hit, a miss, a wrong pick and a changed persona');
}

/** Palette -> Persona Lab: Open Step -> user -> step. (The harness's runCommand waits for the palette to close.) */
function openStepFromPalette(wb: Workbench, userId: string, stepLabel: string): Promise<void> {
  return wb.runWithPicks('Persona Lab: Open Step', [userId, stepLabel]);
}

const stepKey = (user: User, step: Step) => `weibo/${user.userId}/${step.stepId}`;

/** Whether the page's first step came from its HTML (the step view's first-show mark says). */
const firstShowFromHtml = (frame: Frame) =>
  frame.evaluate(() => {
    const [mark] = performance.getEntriesByName('persona-lab:first-show') as PerformanceMark[];
    return (mark?.detail as { fromHtml?: unknown } | undefined)?.fromHtml;
  });

describe('step view in the real workbench', () => {
  let wb: Workbench;
  let bench: Benchmark;
  let run: Run;
  let target: Target;
  let frame: Frame;

  const showing = (key: string) =>
    waitFor(async () => (await frame.locator('#step-root').getAttribute('data-step')) === key, {
      message: `the step view to show ${key}`,
    });

  /** Preferences: Color Theme from the palette (the workbench does not pick up a settings.json edit here). */
  async function setTheme(theme: string, bodyClass: string): Promise<void> {
    // Rows are labelled without "Default " (e.g. "Light Modern"); the full id is the row's description.
    const widget = wb.quickInput;
    const input = wb.quick.input();
    await wb.startCommand('Preferences: Color Theme');
    await wb.quick.rows('Dark Modern').first().waitFor();
    await input.fill(theme);
    await wb.quick
      .rows()
      .filter({ has: labelled(wb.page, new RegExp(`^\\s*${theme}\\s*$`)) })
      .first()
      .click();
    await widget.waitFor({ state: 'hidden' });
    await waitFor(() => frame.evaluate((c) => document.body.classList.contains(c), bodyClass), {
      timeout: 30_000,
      message: `the ${theme} theme in the webview`,
    });
  }

  beforeAll(async () => {
    bench = await loadBenchmark(sample);
    run = bench.runs.get([...bench.runs.keys()][0])!; // the run the extension selects on a fresh workspace
    target = findTarget(bench, run);
    wb = await startWorkbench({ folder: sample, theme: 'dark' });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`stepView-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
  });

  it('opens a step from the palette in the step view', async () => {
    await wb.openView('Persona Lab');
    await waitFor(() => wb.sideBar.rows().count(), {
      timeout: 60_000,
      message: 'the benchmark tree',
    });
    await openStepFromPalette(wb, target.user.userId, `step ${target.step.stepId}/${target.step.totalSteps}`);
    frame = await wb.findWebviewFrame(`#step-root[data-step="${stepKey(target.user, target.step)}"]`, {
      timeout: 60_000,
    });
    const { user, step } = target;
    expect(await frame.locator('.user-id').textContent()).toBe(user.userId);
    expect(await frame.locator('.username').textContent()).toBe(user.username);
    expect(await frame.locator('.step-of').textContent()).toBe(`step ${step.stepId} / ${step.totalSteps}`);
    expect(await frame.locator('.meta-row').textContent()).toContain(step.dateInput);
    expect(await frame.locator('.meta-row').textContent()).toContain(step.dateTarget);
    expect(await frame.locator('.meta-row').textContent()).toContain(run.name);
    await wb.editor.tab(`${user.userId} · step ${step.stepId}/${step.totalSteps}`).waitFor();
    // A new panel's page has its step in its HTML: it renders it as it starts, not after a round trip.
    expect(await firstShowFromHtml(frame)).toBe(true);
  });

  it("shows the six pool groups with the task file's tags and the run's hit / miss marks", async () => {
    const { step, result } = target;
    const picks = new Set(result.prediction.filter((p): p is string => typeof p === 'string'));
    for (const cls of POOL_CLASSES) {
      const group = frame.locator(`[data-group="${cls}"]`);
      expect(await group.locator('.group-label').textContent()).toBe(LABELS[cls]);
      const positive = cls === 'tKeep' || cls === 'tNew';
      const expected = [...new Set(step.split[cls])].map((t) => [
        t,
        picks.has(t) ? (positive ? 'hit' : 'wrongPick') : positive ? 'missed' : 'avoided',
      ]);
      const shown = await group
        .locator('.tag')
        .evaluateAll((els) => els.map((e) => [e.querySelector('.tag-text')?.textContent, e.getAttribute('data-mark')]));
      expect(shown, cls).toEqual(expected);
      // Not colour-only: each mark has its word.
      const words = await group.locator('.tag .mark-text').allTextContents();
      expect(words).toEqual(
        expected.map(
          ([, m]) => ({ hit: 'hit', missed: 'missed', wrongPick: 'wrong pick', avoided: 'not picked' })[m as string],
        ),
      );
    }
    // D_peer by the paper's name; the task file's key (D_cluster) only in the tooltip and data-meta-key.
    const peer = frame.locator('[data-group="dPeer"]');
    expect(await peer.locator('.group-label').textContent()).toBe('D_peer');
    expect(await peer.locator('.group-title').innerText()).not.toContain('D_cluster');
    expect(await peer.locator('.group-title').getAttribute('title')).toContain('stored as D_cluster');
    expect(await peer.getAttribute('data-meta-key')).toBe('D_cluster');
    const inPool = new Set([...step.pool, ...POOL_CLASSES.flatMap((c) => step.split[c])]);
    const outside = [...picks].filter((t) => !inPool.has(t));
    expect(await frame.locator('[data-extra="outOfPool"] li').allTextContents()).toEqual(outside);
  });

  it('shows the persona received and written with a word diff between them', async () => {
    const { result, received } = target;
    expect(await frame.locator('.persona-box.received .prose').textContent()).toBe(received);
    expect(await frame.locator('.persona-box.written .prose').textContent()).toBe(result.personaSummary);
    const diff = frame.locator('.persona-diff .diff');
    const [before, after, changes] = await diff.evaluate((el) => {
      const text = (skip: string) =>
        [...el.childNodes]
          .filter((n) => n.nodeName !== skip)
          .map((n) => n.textContent)
          .join('');
      return [text('INS'), text('DEL'), el.querySelectorAll('ins, del').length];
    });
    expect(before).toBe(received);
    expect(after).toBe(result.personaSummary);
    expect(changes).toBeGreaterThan(0);
    expect(await frame.locator('.reasoning').textContent()).toBe(result.reasoning || 'No reasoning.');
  });

  it('shows the metrics with a defining tooltip each', async () => {
    const m = scoreStep(target.step.split, target.result.prediction)!;
    const value = (key: string) => frame.locator(`[data-metric="${key}"] .metric-value`).textContent();
    expect(await value('Recall')).toBe(`${(m.Recall * 100).toFixed(1)} %`);
    expect(await value('K')).toBe(String(new Set([...target.step.split.tKeep, ...target.step.split.tNew]).size));
    const cells = await frame
      .locator('[data-metric]')
      .evaluateAll((els) =>
        els.map((e): [string, string] => [e.getAttribute('data-metric') ?? '', e.getAttribute('title') ?? '']),
      );
    expect(cells.map(([k]) => k)).toEqual([
      'Recall',
      'Recall_Stability',
      'Recall_Novelty',
      'Error_Decay',
      'Error_Peer',
      'Error_Viral',
      'Error_Random',
      'K',
      'delta',
      'budget',
      'alpha',
      'ratio',
    ]);
    for (const [k, title] of cells) expect(title.length, `tooltip of ${k}`).toBeGreaterThan(20);
    // Each tile's hover opens with the glossary's sentence for its name.
    const titles = new Map(cells);
    expect(titles.get('Recall_Stability')?.startsWith(hoverText('R_stab'))).toBe(true);
    expect(titles.get('alpha')?.startsWith(hoverText('α'))).toBe(true);
    await wb.screenshot('step-view-dark');
    await frame.locator('[data-section="persona"]').evaluate((e) => e.scrollIntoView());
    await wb.screenshot('step-view-dark-persona');
  });

  it('puts the content first: posts, pool and persona start on the first screen of a 1440x900 window', async () => {
    expect(wb.page.viewportSize()).toEqual({ width: 1440, height: 900 });
    await frame.evaluate(() => window.scrollTo(0, 0));
    const tops = await frame.evaluate(() =>
      Object.fromEntries(
        ['batch', 'pool', 'persona'].map((id) => [
          id,
          document.querySelector(`[data-section="${id}"]`)!.getBoundingClientRect().top,
        ]),
      ),
    );
    const height = await frame.evaluate(() => window.innerHeight);
    for (const [id, top] of Object.entries(tops))
      expect(top, `${id} starts at ${top}px of ${height}`).toBeLessThan(height - 60);
    // The labels bar is one line: the chips that do not fit hide behind "+N", which shows them all (wrapped) and
    // back; its keys are in one help icon's tooltip.
    const row = frame.locator('.labels-bar .labels-row');
    await row.waitFor();
    const chipHeight = await row
      .locator('.label-chip')
      .first()
      .evaluate((e) => e.getBoundingClientRect().height);
    const rowHeight = () => row.evaluate((e) => e.getBoundingClientRect().height);
    expect(await rowHeight()).toBeLessThan(chipHeight * 2);
    expect(await row.locator('.label-chip').count()).toBe(10);
    const more = row.locator('.label-more');
    await waitFor(async () => (await row.locator('.label-chip.overflowed').count()) > 0, {
      message: 'the chips beyond the width to hide behind +N (ten do not fit at 1440 px)',
    });
    const hidden = await row.locator('.label-chip.overflowed').count();
    expect(await more.textContent()).toBe(`+${hidden}`);
    expect(await row.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
    await more.click();
    await waitFor(async () => (await row.locator('.label-chip.overflowed').count()) === 0, {
      message: 'every chip to show',
    });
    expect(await rowHeight()).toBeGreaterThan(chipHeight * 1.5);
    expect(await more.textContent()).toBe('less');
    await more.click();
    await waitFor(async () => (await row.locator('.label-chip.overflowed').count()) === hidden, {
      message: 'one line again',
    });
    expect(await row.locator('.labels-keys').getAttribute('title')).toContain('.: next unlabelled step');
    expect(await frame.locator('.labels-bar .suggestions, .labels-bar .labels-help').count()).toBe(0);
    // The three recall figures first; the error rates and diagnostics under Details, closed.
    expect(
      await frame
        .locator('.metric-headline [data-metric]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-metric'))),
    ).toEqual(['Recall', 'Recall_Stability', 'Recall_Novelty']);
    expect(await frame.locator('[data-metric="Error_Decay"]').isVisible()).toBe(false);
    await frame.locator('details.metric-details > summary').click();
    expect(await frame.locator('[data-metric="Error_Decay"]').isVisible()).toBe(true);
    await frame.locator('details.metric-details > summary').click();
  });

  it('keeps Re-run collapsed without an endpoint, and Configure Endpoint… sets one', async () => {
    const rerun = frame.locator('vscode-collapsible[data-section="rerun"]');
    const prop = (name: 'open' | 'description') =>
      rerun.evaluate((e, n) => (e as HTMLElement & Record<string, unknown>)[n], name);
    expect(await prop('open')).toBe(false);
    expect(await prop('description')).toBe('no re-runs yet · no endpoint set');
    await rerun.click({ position: { x: 40, y: 10 } });
    await waitFor(async () => (await prop('open')) === true, { message: 'the Re-run section to open' });
    const configure = frame.locator('.rerun-toolbar vscode-button[data-command="configureEndpoint"]');
    await configure.click();
    await wb.quick.title('Configure Endpoint (1/3)').waitFor();
    await wb.pickQuickPickRow('vLLM on this machine', 'vLLM on this machine');
    await wb.quick.title('(2/3): base URL').waitFor();
    expect(await wb.quick.input().inputValue()).toBe('http://127.0.0.1:8000/v1');
    await wb.quick.input().press('Enter');
    await wb.quick.title('(3/3): model').waitFor();
    await wb.quick.input().fill('my-served-model');
    await wb.quick.input().press('Enter');
    await waitFor(
      async () =>
        (await frame.locator('.rerun-toolbar .endpoint').textContent()) ===
        'Endpoint: my-served-model at 127.0.0.1:8000',
      { message: 'the step view to show the new endpoint' },
    );
    expect(await configure.count()).toBe(0);
  });

  it('navigates with the keyboard inside the webview ([ ] { }) and with the workbench keybindings (Alt+[ Alt+])', async () => {
    const { user, step, next, nextUser } = target;
    await frame.locator('.user-id').click(); // focus inside the webview
    await pressIn(frame.locator('body'), ']');
    await showing(stepKey(user, next));
    await pressIn(frame.locator('body'), '[');
    await showing(stepKey(user, step));
    await pressIn(frame.locator('body'), '}');
    await showing(stepKey(nextUser, nextUser.steps[0]));
    await pressIn(frame.locator('body'), '{');
    await showing(stepKey(user, user.steps[0]));
    // Workbench keybindings (when activeWebviewPanelId == 'personaLab.step'), with the key event forwarded by the webview.
    await pressIn(frame.locator('body'), 'Alt+BracketRight');
    await showing(stepKey(user, user.steps[1]));
    await pressIn(frame.locator('body'), 'Alt+BracketLeft');
    await showing(stepKey(user, user.steps[0]));
    await pressIn(frame.locator('body'), 'Shift+Alt+BracketRight');
    await showing(stepKey(nextUser, nextUser.steps[0]));
    // One panel, reused and retitled.
    await wb.editor.tab(`${nextUser.userId} · step ${nextUser.steps[0].stepId}/`).waitFor();
    expect(await wb.editor.tab('· step ').count()).toBe(1);
    // The buttons post the same messages.
    await frame.locator('vscode-button[data-nav="previousUser"]').click();
    await showing(stepKey(user, user.steps[0]));
  });

  it('follows the theme: light and high contrast screenshots', async () => {
    await openStepFromPalette(wb, target.user.userId, `step ${target.step.stepId}/${target.step.totalSteps}`);
    await showing(stepKey(target.user, target.step));
    await setTheme('Light Modern', 'vscode-light');
    await wb.screenshot('step-view-light');
    await frame.locator('[data-section="persona"]').evaluate((e) => e.scrollIntoView());
    await wb.screenshot('step-view-light-persona');
    await setTheme('Dark High Contrast', 'vscode-high-contrast');
    await frame.evaluate(() => window.scrollTo(0, 0));
    await wb.screenshot('step-view-hc');
  });

  it('comes back after being hidden (the reloaded webview posts ready again) and opens the source lines', async () => {
    // Moved on from the step the panel's HTML holds: the page loaded again from that HTML shows the step now shown.
    await frame.locator('.user-id').click(); // focus inside the webview
    await pressIn(frame.locator('body'), ']');
    const key = stepKey(target.user, target.next);
    await showing(key);
    await wb.runCommand('File: New Untitled Text File'); // same editor group: the step view is hidden and torn down
    await waitFor(
      async () =>
        frame.isDetached() ||
        !(await frame
          .locator('#step-root')
          .isVisible()
          .catch(() => false)),
      { message: 'the step view to be hidden' },
    );
    await wb.editor.tab(`${target.user.userId} · step `).click();
    frame = await wb.findWebviewFrame(`#step-root[data-step="${key}"]`);
    expect(await frame.locator('.user-id').textContent()).toBe(target.user.userId);
    expect(await firstShowFromHtml(frame), 'the old step in the HTML was not shown again').toBe(false);
    await frame.locator('vscode-button[data-source="tasks"]').click();
    await wb.editor.tab('weibo_inference_tasks.jsonl').waitFor();
    await frame.locator('vscode-button[data-source="result"]').click();
    await wb.editor.tab('inference_results_weibo.jsonl').waitFor();
    // The line is shown pretty-printed (one long JSONL line becomes many), in the one group beside the view.
    const groups = wb.editor.groups();
    expect(await groups.count()).toBe(2);
    const source = wb.editor.linesIn(groups.nth(1));
    await waitFor(async () => (await wb.editor.lineRows(source).count()) > 5, {
      message: 'the result line pretty-printed',
    });
    expect((await source.innerText()).replace(/\u00a0/g, ' ')).toContain(`"user_id": "${target.user.userId}"`);
    await wb.screenshot('step-view-source');
  });
  it('comes back after Reload Window, showing the same step', async () => {
    const key = stepKey(target.user, target.next); // where the test before left it
    await wb.editor.tab(`${target.user.userId} · step `).click();
    const reloaded = wb.page.waitForEvent('load', { timeout: 60_000 });
    await wb.runCommand('Developer: Reload Window').catch(() => {});
    await reloaded;
    await wb.waitForWorkbench();
    // The restored panel shows the step again (its page saved it; the serializer reopens it once the benchmark loads).
    frame = await wb.findWebviewFrame(`#step-root[data-step="${key}"]`, { timeout: 90_000 });
    expect(await frame.locator('.user-id').textContent()).toBe(target.user.userId);
    expect(await frame.locator('.groups section.group').count()).toBe(6);
    await wb.waitForExtensionHostLine(`step view: restored ${key.split('/')[0]}/${target.user.userId} step `);
  });
});
