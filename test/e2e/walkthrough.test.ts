// The Get Started walkthrough in the real workbench, against the real demo endpoint (dist/cli.js demo-endpoint on a
// free port, which the user settings point at as `npm start` does): the sample loads without a toast and the status
// bar counts its planted problems; the walkthrough opens with its steps and media; each step's button runs its
// command and ticks the step (open, problems, run, step, label by key, re-run against the demo model, PI audit,
// dashboard); the re-run shows the reply the demo model gives for that prompt. It is also a new user's walk (open the
// sample, find a failing step, label it, re-run it, compare two runs), checked to need no scrolling on 1440×900, and
// on 1280×800 with the secondary side bar open. The Benchmarks view names the selected run in its header.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MODEL_ID } from '../../src/core/demo/model';
import { demoAnswer, type DemoReply } from '../../src/core/spb/demo/profiler';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import { renderStepRequest } from '../../src/core/spb/run/step';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { DEFAULT_TEMPLATE } from '../../src/core/spb/prompt/prompt';
import { personaReceived, resultFor } from '../../src/core/spb/score/run';
import type { Benchmark, User } from '../../src/core/spb/types';
import { rowName } from '../../src/extension/benchmarks/viewText';
import { WALKTHROUGH } from '../../src/extension/walkthrough/ids';
import { benchmarkRow, firstScreen, openFirstPair, rowsOf, viewDescription } from './firstScreen';
import { freePort, pressIn, repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { button, paneCss } from './support/sideBar';
import { ui, type Ui } from './rerunSession';

interface Step {
  id: string;
  title: string;
}
const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  contributes: { walkthroughs: { id: string; title: string; steps: Step[] }[] };
};
const walkthrough = manifest.contributes.walkthroughs[0];
const RUN = 'random';

describe('the Get Started walkthrough against the demo endpoint', () => {
  let demo: ChildProcess;
  let baseURL: string;
  let wb: Workbench;
  let u: Ui;
  let ws: string;
  let bench: Benchmark;
  let omniProblems: number;
  let user: User;
  let frame: Frame;
  /** The step view's step after Next Unlabelled Step: platform/user/step. */
  let labelled: string;

  const stepButton = (id: string) => wb.walkthrough.step(`${WALKTHROUGH}#${id}`);

  /** Persona Lab: Get Started, then the walkthrough's page. */
  const openWalkthrough = async () => {
    await wb.runCommand('Persona Lab: Get Started');
    await stepButton(walkthrough.steps[0].id).waitFor({ timeout: 30_000 });
  };

  /** Selects the step and clicks the button of its description labelled `label`. */
  const clickButton = async (id: string, label: string) => {
    if (!(await stepButton(id).isVisible())) await openWalkthrough();
    const action = wb.walkthrough.button(`${WALKTHROUGH}#${id}`, label).first();
    await waitFor(
      async () => {
        if (await action.isVisible()) return true;
        await stepButton(id).click();
        return false;
      },
      { message: `the "${label}" button of step ${id}` },
    );
    await action.click();
  };

  /** Waits until the walkthrough (opened again when hidden) shows step `id` done. */
  const ticked = async (id: string) => {
    await openWalkthrough();
    await waitFor(async () => (await stepButton(id).getAttribute('aria-checked')) === 'true', {
      message: `walkthrough step ${id} to be ticked`,
    });
  };

  beforeAll(async () => {
    const sample = join(repoRoot, 'sample');
    bench = await loadBenchmark(sample);
    expect((await loadOmniBenchmark(join(sample, 'omnibehavior'))).diagnostics).toEqual([]);
    omniProblems = (await loadOmniBenchmark(join(sample, 'broken', 'omnibehavior'))).diagnostics.length;
    const run = bench.runs.get(RUN)!;
    user = [...bench.users.get('weibo')!.values()].find(
      (x) => x.steps.length >= 3 && x.steps.every((s) => resultFor(run, x, s.stepId) && s.pool.length > 0),
    )!;
    ws = mkdtempSync(join(tmpdir(), 'persona-lab-walkthrough-'));
    cpSync(sample, ws, { recursive: true });

    const port = await freePort();
    demo = spawn(process.execPath, [join(repoRoot, 'dist/cli.js'), 'demo-endpoint', '--port', String(port)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    demo.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    baseURL = await waitFor(() => /^(http:\/\/127\.0\.0\.1:\d+\/v1) /.exec(out)?.[1], {
      message: () => `the demo endpoint's base URL; it printed: ${out}`,
    });
    expect(baseURL).toBe(`http://127.0.0.1:${port}/v1`);

    wb = await startWorkbench({
      folder: ws,
      theme: 'dark',
      settings: {
        'personaLab.endpoint.baseURL': baseURL,
        'personaLab.endpoint.model': DEMO_MODEL_ID,
        'personaLab.endpoint.maxConcurrency': 8,
      },
    });
    u = ui(wb);
    await wb.openView('Persona Lab');
    await waitFor(() => wb.sideBar.benchmarks.rows().count(), {
      timeout: 60_000,
      message: 'the benchmark tree',
    });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`walkthrough-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    demo?.kill('SIGTERM');
    if (ws && process.env.PERSONA_LAB_E2E_KEEP !== '1') rmSync(ws, { recursive: true, force: true });
  });

  it('loads both samples without a toast and without a loading problem', async () => {
    // Both loads are done once the OmniBehavior root shows its run (the SPB tree showed before this test).
    await wb.sideBar.benchmarks
      .rows({ level: 1, hasText: 'run: demo-sim · OmniBehavior' })
      .waitFor({ timeout: 60_000 });
    await wb.waitForExtensionHostLine(/loaded .*: \d+ users/, { timeout: 60_000 });
    expect(await wb.statusBar.item('loading problem').count()).toBe(0);
    expect((await wb.notifications()).filter((n) => /loaded with|problem/i.test(n))).toEqual([]);
  });

  it("the Experiments view's empty state is a short paragraph with links, not a column of buttons", async () => {
    const pane = wb.sideBar.pane('Experiments');
    const header = pane.header();
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    const welcome = pane.welcome();
    await welcome.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await button(welcome).count()).toBe(0);
    expect(await welcome.locator('a').allTextContents()).toEqual([
      'New Sample…',
      'Run Template on Sample…',
      'Long-Context Baseline…',
    ]);
    // At most three rows of text at the default side-bar width.
    const rows = await welcome.evaluate((el) => {
      const p = el.querySelector('p');
      if (!p) return Infinity;
      const line = parseFloat(getComputedStyle(p).lineHeight) || 1;
      return Math.round(p.getBoundingClientRect().height / line);
    });
    expect(rows).toBeLessThanOrEqual(3);
    await header.click();
  });

  it('Persona Lab: Get Started opens the walkthrough with its steps and their media', async () => {
    await openWalkthrough();
    const ids = await wb.walkthrough.steps().evaluateAll((els) => els.map((e) => e.getAttribute('data-step-id')));
    expect(ids).toEqual(walkthrough.steps.map((s) => `${WALKTHROUGH}#${s.id}`));
    const titles = await wb.walkthrough.titles();
    expect(titles.map((t) => t.trim())).toEqual(walkthrough.steps.map((s) => s.title));
    await clickButton('open', 'Show the Benchmarks View');
    await ticked('open');
    // A step's media: its markdown, rendered beside the steps.
    await stepButton('problems').click();
    await waitFor(
      async () => {
        for (const f of wb.page.frames()) {
          const h1 = await f
            .locator('h1')
            .first()
            .textContent({ timeout: 500 })
            .catch(() => null);
          if (h1?.includes('Problems planted on purpose')) return true;
        }
        return false;
      },
      { message: "the problems step's markdown" },
    );
    await wb.screenshot('walkthrough-open');
  });

  it('Open the Broken Sample puts its planted problems in the status bar, without a toast', async () => {
    await clickButton('problems', 'Open the Broken Sample');
    await wb.waitForExtensionHostLine(
      /broken.omnibehavior: the OmniBehavior benchmark loaded with \d+ errors?, \d+ warnings?/,
      {
        timeout: 60_000,
      },
    );
    expect(omniProblems).toBeGreaterThan(0);
    const status = wb.statusBar.item(`${omniProblems} loading problems`);
    await status.waitFor({ timeout: 30_000 });
    expect((await wb.notifications()).filter((n) => /loaded with|problem/i.test(n))).toEqual([]);
  });

  it('Show Problems, Choose Run… and Open Step run from their buttons and tick their steps', async () => {
    await clickButton('problems', 'Show Problems');
    const panel = wb.panel.problemsView();
    await panel.waitFor({ state: 'visible', timeout: 30_000 });
    await expect.poll(() => panel.innerText(), { timeout: 30_000 }).toContain('test_actions.jsonl');
    await wb.screenshot('walkthrough-problems-status');
    await ticked('problems');

    await clickButton('run', 'Choose Run…');
    await wb.pickQuickPickRow(RUN, RUN);
    await ticked('run');
    // The view's header names the run its figures are for (then the OmniBehavior one's); the benchmark row's long
    // generated folder name is cut, and its Avg. R comes first, in sight.
    await expect.poll(() => viewDescription(wb), { timeout: 30_000 }).toMatch(new RegExp(`^runs: ${RUN} · \\S`));
    const row = await benchmarkRow(wb, 'Avg. R 00.0%'.length);
    expect(row.name).toBe(rowName(basename(ws)));
    expect(row.name.length).toBeLessThan(basename(ws).length);
    expect(row.description).toMatch(new RegExp(`^Avg\\. R \\d+\\.\\d% · run: ${RUN}`));
    expect(row.inSight).toBe(true);
    await wb.screenshot('walkthrough-run-chosen');

    const step = user.steps[1];
    await clickButton('step', 'Open Step');
    await wb.pickQuickPickRow(user.userId, user.userId);
    await wb.pickQuickPickRow(`step ${step.stepId}/`, `step ${step.stepId}/${step.totalSteps}`);
    frame = await wb.findWebviewFrame(`#step-root[data-step="weibo/${user.userId}/${step.stepId}"]`, {
      timeout: 60_000,
    });
    await expect.poll(() => frame.locator('[data-section="pool"] li.tag').count()).toBe(step.pool.length);
    await ticked('step');
  });

  it('Next Unlabelled Step opens a step that one key labels, which ticks the labelling step', async () => {
    await clickButton('label', 'Next Unlabelled Step');
    frame = await wb.findWebviewFrame('#step-root[data-step] .labels-bar', { timeout: 60_000 });
    labelled = (await frame.locator('#step-root').getAttribute('data-step'))!;
    await frame.locator('.label-chip[data-label-id="decay-error"]').waitFor();
    // A new user's walk needs no scrolling: the posts, pool and persona start on the first screen (1440×900).
    expect(
      await firstScreen(wb, frame, ['[data-section="batch"]', '[data-section="pool"]', '[data-section="persona"]']),
    ).toEqual([]);
    // The keys go to the focused page: a click on the bar's title (which labels nothing) gives it the focus.
    await frame.locator('.labels-bar .labels-title').click();
    await pressIn(frame.locator('body'), '1');
    await waitFor(
      async () =>
        (await frame.locator('.label-chip[data-label-id="decay-error"]').getAttribute('aria-pressed')) === 'true',
      { message: 'the decay-error label to be on' },
    );
    await ticked('label');
  });

  it('Re-run Step… sends the step to the demo model and shows its reply beside the original, ticking the step', async () => {
    // The step the label went on: the step view's, which Re-run Step takes.
    const [platform, userId, stepText] = labelled.split('/');
    const target = bench.users.get(platform as User['platform'])!.get(userId)!;
    const step = target.steps.find((s) => s.stepId === Number(stepText))!;
    const run = bench.runs.get(RUN)!;
    const carried = personaReceived(run, target, step.stepId);
    const request = renderStepRequest({ user: target, step, personaIn: carried || null, template: DEFAULT_TEMPLATE });
    const answer = demoAnswer(request.prompt);
    if (!answer.ok) throw new Error(answer.error);
    const reply: DemoReply = answer.reply;

    await clickButton('rerun', 'Re-run Step…');
    await u.answerRerun("Persona Lab's template (not the benchmark's prompt)", /Carried from/);
    frame = await u.compared(1);
    const side = (s: string) =>
      frame.locator(`.cmp-cell[data-side="${s}"][data-row="Picks"] .pick .tag-text`).allTextContents();
    expect(await side('rerun')).toEqual(reply.predicted_tags);
    const original = resultFor(run, target, step.stepId)!.prediction.filter((p): p is string => typeof p === 'string');
    expect(await side('original')).toEqual([...new Set(original)]);
    const cell = (row: string) => frame.locator(`.cmp-cell[data-side="rerun"][data-row="${row}"] .prose`);
    expect(await cell('Persona written').textContent()).toBe(reply.persona_summary);
    expect(await cell('Reasoning').textContent()).toBe(reply.reasoning);
    expect(reply.persona_summary).toContain('demo model, not an LLM');
    expect(await frame.locator('.flags-none').count()).toBe(1);
    expect(await frame.locator('[data-fact="tries"]').textContent()).toBe('1 of 3');
    await frame.locator('.rerun-slot').evaluate((e) => e.scrollIntoView());
    await wb.screenshot('walkthrough-rerun-demo');
    await ticked('rerun');
  });

  it('compares two runs: a row shows both side by side in the compare view, picks and personas on the first screen', async () => {
    const { frame: cmp, cells } = await openFirstPair(wb, ['demo-llm', RUN]);
    expect(await firstScreen(wb, cmp, cells)).toEqual([]);
    await wb.screenshot('walkthrough-compare');
  });

  it('Run PI Audit and Open Run Dashboard run from their buttons; every step is ticked', async () => {
    await clickButton('audit', 'Run PI Audit');
    await wb.waitForExtensionHostLine(/audit.*: \d+ finding\(s\) in/, { timeout: 60_000 });
    await ticked('audit');

    await clickButton('dashboard', 'Open Run Dashboard');
    await wb.findWebviewFrame('#dash-root[data-page="dashboard"][data-state="shown"]', { timeout: 60_000 });
    await ticked('dashboard');

    const checked = await wb.walkthrough.steps().evaluateAll((els) => els.map((e) => e.getAttribute('aria-checked')));
    expect(checked).toEqual(walkthrough.steps.map(() => 'true'));
    await wb.screenshot('walkthrough-done');
  });
});

describe("the walk's first screens at 1280×800 with the secondary side bar open", () => {
  const size = { width: 1280, height: 800 };
  let wb: Workbench;
  let ws: string;

  beforeAll(async () => {
    ws = mkdtempSync(join(tmpdir(), 'persona-lab-walk-1280-'));
    cpSync(join(repoRoot, 'sample'), ws, { recursive: true });
    wb = await startWorkbench({
      folder: ws,
      theme: 'dark',
      viewport: size,
      settings: { 'personaLab.audit.autoRun': 'never' },
    });
    await wb.openView('Persona Lab');
    await waitFor(() => wb.sideBar.benchmarks.rows().count(), {
      timeout: 60_000,
      message: 'the benchmark tree',
    });
    await wb.openSecondarySideBar();
    expect((await wb.secondarySideBar().boundingBox())?.width).toBeGreaterThan(150);
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await wb?.screenshot(`walkthrough-1280-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (ws && process.env.PERSONA_LAB_E2E_KEEP !== '1') rmSync(ws, { recursive: true, force: true });
  });

  it("the PI Audit's not-audited message takes at most three rows", async () => {
    const message = wb.page.locator(paneCss('PI Audit', 'message'));
    await waitFor(async () => (await message.innerText().catch(() => '')).startsWith('Not audited yet'), {
      timeout: 60_000,
      message: "the PI Audit's not-audited message",
    });
    expect(await rowsOf(message)).toBeLessThanOrEqual(3);
    await wb.screenshot('walkthrough-1280-sidebar');
  });

  it('Next Unlabelled Step: the posts, pool and persona start on the first screen', async () => {
    await wb.runCommand('Persona Lab: Next Unlabelled Step');
    const frame = await wb.findWebviewFrame('#step-root[data-step] .labels-bar', { timeout: 60_000 });
    await frame.locator('.label-chip').first().waitFor();
    const sections = ['[data-section="batch"]', '[data-section="pool"]', '[data-section="persona"]'];
    expect(await firstScreen(wb, frame, sections, size)).toEqual([]);
    expect(await wb.secondarySideBar().isVisible()).toBe(true);
    await wb.screenshot('walkthrough-1280-step');
  });

  it("Compare Runs: a row's picks and personas of both runs start on the first screen", async () => {
    const { frame: cmp, cells } = await openFirstPair(wb, ['demo-llm', RUN]);
    expect(await firstScreen(wb, cmp, cells, size)).toEqual([]);
    expect(await wb.secondarySideBar().isVisible()).toBe(true);
    await wb.screenshot('walkthrough-1280-compare');
  });
});
