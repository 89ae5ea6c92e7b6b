// The Benchmarks tree in the real workbench (code-server): a fresh copy of sample/ opens by itself, the nodes carry
// the CLI's numbers for the selected run, Choose Run… and a file change on disk keep the expanded nodes, Reveal
// Step by User ID… selects a node, the Problems panel agrees with `validate`, tooltips show dataset text as text,
// and the tree is photographed in light and dark themes.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import { PLATFORM_LABELS } from '../../src/core/spb/score/tables';
import { PLATFORMS, type Platform } from '../../src/core/spb/types';
import { noBenchmarkWelcome, repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { button, paneCss, rowDescription, rowName } from './support/sideBar';
import { answerFileDialog } from './support/fileDialog';
import { recordTexts, rowsOf, viewDescription } from './firstScreen';
import { treePage } from './treePage';
import {
  benchDescription,
  expectedStep,
  platformDescription,
  expectedUser,
  pct,
  predictions,
  readJsonl,
  resultsFile,
  tasksFile,
  type CliScore,
  type TaskUser,
} from './treeExpected';

describe('Benchmarks tree in the real workbench', () => {
  let wb: Workbench;
  let root: string;
  let tmp: string;
  let cli: CliScore;
  let platforms: Platform[];
  const cliRun = (name: string) => cli.runs.find((r) => r.name === name)!;

  const { rows, children, rowLocator, expand, waitRow, runCommandWithInput, quickPickRow, reveal, setTheme } = treePage(
    () => wb,
  );

  /** Among the first users, the one whose steps show the most different icons, then the most steps (for the screenshots). */
  function showcaseUser(p: Platform, run: string): TaskUser {
    const preds = predictions(root, run, p);
    const icons = (u: TaskUser) =>
      10 * new Set(u.prediction_tasks.map((s) => expectedStep(s, preds.get(u.user_id)?.get(s.step_id)).icon)).size +
      u.prediction_tasks.length;
    return tasks(p)
      .slice(0, 8)
      .reduce((best, u) => (icons(u) > icons(best) ? u : best));
  }

  const tasks = (p: Platform) => readJsonl<TaskUser>(tasksFile(root, p));

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-tree-'));
    root = join(tmp, 'sample');
    cpSync(join(repoRoot, 'sample'), root, { recursive: true });
    cli = JSON.parse(
      execFileSync(process.execPath, [join(repoRoot, 'dist/cli.js'), 'score', root, '--json'], { encoding: 'utf8' }),
    );
    platforms = PLATFORMS.filter((p) => {
      try {
        return tasks(p).length > 0;
      } catch {
        return false;
      }
    });
    expect(cli.runs.length).toBeGreaterThanOrEqual(2);
    wb = await startWorkbench({ folder: root, theme: 'light', viewport: { width: 1600, height: 1000 } });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`tree-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('opens the workspace benchmark by itself, with the CLI numbers of the first run on every platform', async () => {
    await wb.openView('Persona Lab');
    // Widen the side bar so the descriptions are readable in the screenshots.
    const sash = wb.sideBar.sash();
    const box = await wb.sideBar.part().boundingBox();
    if (box && (await sash.count())) {
      await wb.page.mouse.move(box.x + box.width, box.y + box.height / 2);
      await wb.page.mouse.down();
      await wb.page.mouse.move(box.x + 620, box.y + box.height / 2, { steps: 5 });
      await wb.page.mouse.up();
    }
    const run = cliRun(cli.runs[0].name);
    const bench = await waitRow('sample', 1, () => true, 'the benchmark node');
    expect(bench.description).toBe(benchDescription(run));
    // The sample's demo-llm has one failed request, and the row says so.
    expect(bench.description).toContain('· 1 failed request');
    expect(bench.expanded).toBe('true');
    const labels = platforms.map((p) => PLATFORM_LABELS[p]);
    const platformRows = await waitFor(
      async () => {
        const kids = await children('sample', 1);
        return kids.map((r) => r.label).join() === labels.join() ? kids : undefined;
      },
      { timeout: 30_000, message: `platform nodes ${labels.join(', ')}` },
    );
    for (const p of platforms) {
      const users = tasks(p);
      const s = run.platforms[p];
      expect(platformRows.find((r) => r.label === PLATFORM_LABELS[p])?.description, p).toBe(
        platformDescription(users.length, s),
      );
    }
  });

  it('expands platform → user → step with per-user and per-step numbers, icons by hits', async () => {
    const run = cli.runs[0].name;
    const p = platforms[0];
    const users = tasks(p);
    const preds = predictions(root, run, p);
    const userRows = await expand(
      PLATFORM_LABELS[p],
      2,
      users.map((u) => u.user_id),
    );
    for (const [i, r] of userRows.entries())
      expect(r.description, r.label).toBe(expectedUser(users[i], preds.get(r.label)));
    const user = showcaseUser(p, run);
    const stepLabels = user.prediction_tasks.map((s) => `step ${s.step_id}`);
    const stepRows = await expand(user.user_id, 3, stepLabels);
    expect(stepRows.map((r) => r.label)).toEqual(stepLabels);
    for (const [i, r] of stepRows.entries()) {
      const want = expectedStep(
        user.prediction_tasks[i],
        preds.get(user.user_id)?.get(user.prediction_tasks[i].step_id),
      );
      expect([r.description, r.icon], r.label).toEqual([want.description, want.icon]);
    }
    await wb.screenshot('tree-light');
    await setTheme('Dark Modern', 'vs-dark');
    await wb.screenshot('tree-dark');
    await setTheme('Light Modern', 'vs');
  });

  it('clicking a step opens it in the step view', async () => {
    const p = platforms[0];
    const user = showcaseUser(p, cli.runs[0].name);
    const first = user.prediction_tasks[0].step_id;
    await rowLocator(`step ${first}`, 4).first().click();
    const tab = wb.editor.tab(`${user.user_id} · step ${first}`);
    await tab.first().waitFor({ state: 'visible', timeout: 30_000 });
    // Wait until the webview shows that step: it takes the focus when it is ready, which would close a quick input.
    await wb.findWebviewFrame(`#step-root[data-step="${p}/${user.user_id}/${first}"]`, { timeout: 30_000 });
  });

  it('Choose Run… switches every number to that run and keeps the expanded nodes', async () => {
    const next = cli.runs[1];
    await runCommandWithInput('Persona Lab: Choose Run…');
    const item = quickPickRow(next.name);
    await item.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await rowDescription(item).innerText()).toContain(`Avg. Recall ${pct(next.avg.Recall)}`);
    await item.click();
    await waitRow(
      'sample',
      1,
      (r) => r.description === benchDescription(next),
      'the benchmark node to show the new run',
    );
    const p = platforms[0];
    const s = next.platforms[p];
    const platformRow = await waitRow(
      PLATFORM_LABELS[p],
      2,
      (r) => r.description.startsWith(platformDescription(tasks(p).length, s)),
      'platform numbers of the new run',
    );
    expect(platformRow.expanded).toBe('true');
    const user = showcaseUser(p, cli.runs[0].name);
    const preds = predictions(root, next.name, p);
    const userRow = await waitRow(
      user.user_id,
      3,
      (r) => r.description === expectedUser(user, preds.get(user.user_id)),
      'user numbers of the new run',
    );
    expect(userRow.expanded).toBe('true');
  });

  it('reloads when a results file changes, keeping the run, the expanded nodes, and showing the new numbers', async () => {
    const run = cli.runs[1].name;
    const p = platforms[0];
    const user = showcaseUser(p, cli.runs[0].name);
    const step = user.prediction_tasks.find((s) => s.meta.T_keep.length + s.meta.T_new.length > 0)!;
    // Rewrite the run's results so that this user picks exactly the positives at that step: Recall 100 %.
    const file = resultsFile(root, run, p);
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim());
    const others = lines.filter((l) => !l.includes(`"${user.user_id}"`));
    const row = {
      user_id: user.user_id,
      platform: p,
      username: 'U_00000000',
      steps: [
        {
          step_id: step.step_id,
          prediction: [...step.meta.T_keep, ...step.meta.T_new],
          ground_truth: [],
          metrics: null,
          reasoning: '',
          persona_summary: '',
        },
      ],
    };
    writeFileSync(file, [...others, JSON.stringify(row)].join('\n') + '\n');
    await waitRow(
      `step ${step.step_id}`,
      4,
      (r) => r.description === 'R 100.0%' && r.icon === 'pass-filled',
      'the changed step to show Recall 100 %',
    );
    const bench = (await rows()).find((r) => r.level === 1);
    expect(bench?.description.startsWith('Avg. R ')).toBe(true);
    expect(bench?.description.includes(` · run: ${run}`)).toBe(true);
    expect((await rows()).find((r) => r.level === 3 && r.label === user.user_id)?.expanded).toBe('true');
  });

  it('Reveal Step by User ID… selects the step of a user on another platform', async () => {
    const p = platforms[platforms.length - 1];
    const users = tasks(p);
    const user = users[users.length - 1];
    const stepId = user.prediction_tasks[user.prediction_tasks.length - 1].step_id;
    await reveal(`${user.user_id} ${stepId}`);
    const stepRow = await waitRow(`step ${stepId}`, 4, (r) => r.selected, 'the revealed step to be selected');
    const all = await rows();
    const parent = all.filter((r) => r.level === 3 && r.index < stepRow.index).pop();
    expect(parent?.label).toBe(user.user_id);
  });

  it('the Problems panel shows what `validate` reports', async () => {
    const report = JSON.parse(
      execFileSync(process.execPath, [join(repoRoot, 'dist/cli.js'), 'validate', root, '--json'], { encoding: 'utf8' }),
    ) as {
      diagnostics: { file: string; line: number }[];
    };
    await wb.runCommand('Persona Lab: Show Diagnostics');
    const panel = wb.panel.problemsView();
    await panel.waitFor({ state: 'visible', timeout: 30_000 });
    // The status bar counts every collection: the OmniBehavior benchmark of sample/omnibehavior adds its own.
    const omni = existsSync(join(root, 'omnibehavior'))
      ? (await loadOmniBenchmark(join(root, 'omnibehavior'))).diagnostics.length
      : 0;
    if (report.diagnostics.length + omni === 0) {
      await expect.poll(() => panel.innerText(), { timeout: 30_000 }).toMatch(/No problems have been detected/);
    } else {
      const status = wb.statusBar.problems();
      const total = async () =>
        ((await status.getAttribute('aria-label')) ?? '').match(/\d+/g)?.reduce((a, b) => a + Number(b), 0);
      await expect.poll(total, { timeout: 30_000 }).toBe(report.diagnostics.length + omni);
    }
  });

  it('shows a broken tasks line in the Problems panel at its line, and dataset text in tooltips as text', async () => {
    const p = platforms[0];
    const file = tasksFile(root, p);
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim());
    const first = JSON.parse(lines[0]) as TaskUser;
    first.bio = '<img src=x onerror="globalThis.__plTreeXss=1"> **not bold** [link](command:workbench.action.quit)';
    lines[0] = JSON.stringify(first);
    lines.push('{"user_id": "we_broken", ');
    writeFileSync(file, lines.join('\n') + '\n');
    const brokenLine = lines.length; // 1-based in the file, as the Problems panel shows it
    const marker = wb.panel.problems(`[Ln ${brokenLine}, Col 1]`);
    await marker.first().waitFor({ state: 'visible', timeout: 30_000 });
    expect(await marker.first().innerText()).toMatch(/invalid JSON/);

    await reveal(first.user_id);
    const label = rowLocator(first.user_id, 3).first();
    await label.waitFor({ state: 'visible', timeout: 30_000 });
    const hover = wb.hover('not bold');
    // The file watcher's reload re-renders the rows, which drops a hover that is already pending: hover again until
    // the tooltip shows (the mouse leaves the row first, so each try is a fresh hover).
    await waitFor(
      async () => {
        await wb.page.mouse.move(5, 5);
        await rowName(label).hover();
        return hover.waitFor({ state: 'visible', timeout: 3_000 }).then(
          () => true,
          () => false,
        );
      },
      { timeout: 45_000, message: 'the user tooltip to show' },
    );
    // MarkdownString.appendText keeps runs of spaces as &nbsp;
    const text = (await hover.innerText()).replace(/\u00a0/g, ' ');
    expect(text).toContain('<img src=x onerror="globalThis.__plTreeXss=1">');
    expect(text).toContain('**not bold**');
    expect(await hover.locator('img, a[href^="command:"]').count()).toBe(0);
    expect(await hover.locator('strong, b').filter({ hasText: 'not bold' }).count()).toBe(0);
    expect(await wb.page.evaluate(() => (globalThis as Record<string, unknown>).__plTreeXss)).toBeUndefined();
    await wb.page.mouse.move(5, 5);
  });
});

describe('Benchmarks view on a workspace without a benchmark', () => {
  let wb: Workbench;
  let tmp: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-tree-empty-'));
    cpSync(join(repoRoot, 'sample'), join(tmp, 'bench'), { recursive: true });
    mkdirSync(join(tmp, 'empty'));
    wb = await startWorkbench({ folder: join(tmp, 'empty') });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`tree-empty-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const benchRow = () => wb.sideBar.benchmarks.rows({ level: 1 }).first();

  it('offers Open Benchmark Folder… in the welcome view, and the folder picked there opens', async () => {
    await wb.openView('Persona Lab');
    const welcome = wb.sideBar.benchmarks.welcome();
    await welcome.waitFor({ state: 'visible', timeout: 30_000 });
    // First "Looking for a benchmark…", then, once the search found none:
    await waitFor(async () => (await welcome.innerText()).includes(noBenchmarkWelcome()), {
      message: 'the no-benchmark welcome',
    });
    // No empty state takes more than three rows: the welcome's text and button, the PI Audit's message.
    const audit = wb.page.locator(paneCss('PI Audit', 'message'));
    await waitFor(async () => (await audit.innerText().catch(() => '')).startsWith('Open a benchmark'), {
      message: "the PI Audit's no-benchmark message",
    });
    expect(await rowsOf(welcome)).toBeLessThanOrEqual(3);
    expect(await rowsOf(audit)).toBeLessThanOrEqual(3);
    expect(await viewDescription(wb)).toBe('');
    await wb.screenshot('tree-empty-welcome');
    // While the folder loads, the Benchmarks view and the PI Audit say so.
    const texts = await recordTexts(wb, [
      paneCss('Benchmarks', 'welcome'),
      paneCss('Benchmarks', 'description'),
      paneCss('PI Audit', 'message'),
    ]);
    await button(welcome, 'Open Benchmark Folder…').first().click();
    await answerFileDialog(
      wb.page,
      join(tmp, 'bench'),
      (v) => v.startsWith('/'),
      'the dialog to show its start folder',
    );
    await expect
      .poll(
        () =>
          rowName(benchRow())
            .textContent()
            .catch(() => ''),
        { timeout: 30_000 },
      )
      .toBe('bench');
    await expect.poll(() => viewDescription(wb), { timeout: 30_000 }).toMatch(/^runs: \S+ · \S+ · \S+$/);
    const seen = await texts.seen();
    expect(seen.filter((t) => t.endsWith('Loading the benchmark…')).length).toBe(2);
    expect(seen.some((t) => / \.description loading (StreamProfileBench|OmniBehavior)/.test(t))).toBe(true);
  });

  it('reopens that benchmark with the chosen run after a window reload', async () => {
    const cli = JSON.parse(
      execFileSync(process.execPath, [join(repoRoot, 'dist/cli.js'), 'score', join(tmp, 'bench'), '--json'], {
        encoding: 'utf8',
      }),
    ) as CliScore;
    const last = cli.runs[cli.runs.length - 1];
    const item = benchRow();
    await item.click({ button: 'right' });
    // The benchmark node's context menu; hovering an entry focuses it, Enter runs it.
    const entry = wb.menu.item('Choose Run…');
    await entry.hover();
    await wb.menu.press('Enter');
    const row = wb.quick.rows().filter({ hasText: last.name }).first();
    await row.click();
    const want = benchDescription(last);
    await expect
      .poll(
        () =>
          rowDescription(benchRow())
            .textContent()
            .catch(() => ''),
        { timeout: 30_000 },
      )
      .toBe(want);
    // Developer: Reload Window shuts the workbench down in order, so the workspace state is saved first.
    const reloaded = wb.page.waitForEvent('load', { timeout: 60_000 });
    await wb.runCommand('Developer: Reload Window').catch(() => {});
    await reloaded;
    await wb.waitForWorkbench();
    await wb.openView('Persona Lab');
    await expect
      .poll(
        () =>
          rowDescription(benchRow())
            .textContent()
            .catch(() => ''),
        { timeout: 60_000 },
      )
      .toBe(want);
    expect(await rowName(benchRow()).textContent()).toBe('bench');
  });
});
