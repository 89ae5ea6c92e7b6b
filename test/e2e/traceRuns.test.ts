// An OmniBehavior-only workspace in the real workbench: it opens by itself, Choose OmniBehavior Run… switches the
// tree's counts and the trace view, and the OmniBehavior dashboard shows the run's scores and bias diagnostics as the
// core computes them.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { biasDiagnostics } from '../../src/core/omni/bias';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import { scoreOmniRun } from '../../src/core/omni/score';
import { predictionKey, type OmniBenchmark, type OmniUser, type TestAction } from '../../src/core/omni/types';
import { noBenchmarkWelcome, repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { button, labelled, readRows, rowName, twistie } from './support/sideBar';
import { answerFileDialog } from './support/fileDialog';
import type { RawQuestion } from './traceExpected';

const omniRoot = join(repoRoot, 'sample', 'omnibehavior');
describe('OmniBehavior-only workspace in the real workbench', () => {
  let wb: Workbench;
  let tmp: string;
  let root: string;
  let bench: OmniBenchmark;
  let wrongAction: TestAction;
  let user: OmniUser;

  const rows = async () =>
    (await wb.sideBar.benchmarks.readRows()).map(({ level, label, description }) => ({ level, label, description }));
  const rowOf = async (label: string, level: number) =>
    (await rows()).find((r) => r.label === label && r.level === level);

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-trace-'));
    root = join(tmp, 'ob');
    cpSync(omniRoot, root, { recursive: true });
    // A second run, "perfect": the demo run with every binary answer set to the truth.
    const lines = readFileSync(join(root, 'results/demo-sim/predictions.jsonl'), 'utf8')
      .split('\n')
      .flatMap((line) => {
        try {
          const o = JSON.parse(line) as { questions: RawQuestion[] };
          for (const q of o.questions) {
            if (q.type !== 'binary' || (q.true_value !== 'Yes' && q.true_value !== 'No')) continue;
            q.predicted_value = q.true_value;
            q.predicted_label = q.true_value === 'Yes' ? 1 : 0;
          }
          return [JSON.stringify(o)];
        } catch {
          return [];
        }
      });
    mkdirSync(join(root, 'results/perfect'));
    writeFileSync(join(root, 'results/perfect/predictions.jsonl'), lines.join('\n') + '\n');
    bench = await loadOmniBenchmark(root);
    const demo = scoreOmniRun(bench, bench.runs.get('demo-sim')!);
    user = [...bench.users.values()].sort((a, b) => a.userId.localeCompare(b.userId))[0];
    wrongAction = user.testActions.find(
      (a) => (demo.perAction.get(predictionKey(a.userId, a.index))?.incorrect ?? 0) > 0 && a.scene === 'Video Browsing',
    )!;
    expect(wrongAction).toBeDefined();
    wb = await startWorkbench({ folder: root, theme: 'light' });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`trace-only-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('opens the OmniBehavior folder by itself, and Choose OmniBehavior Run… switches the counts and the trace view', async () => {
    await wb.openView('Persona Lab');
    const top = await waitFor(
      async () => {
        const r = await rows();
        return r.some((x) => x.level === 1) ? r.filter((x) => x.level === 1) : undefined;
      },
      { timeout: 60_000, message: 'the tree' },
    );
    expect(top.map((r) => r.label)).toEqual(['ob']);
    expect(top[0].description).toBe(
      `overall ${scoreOmniRun(bench, bench.runs.get('demo-sim')!).overall?.toFixed(1) ?? '—'} · run: demo-sim · OmniBehavior`,
    );

    const userRow = wb.sideBar.benchmarks
      .rows({ level: 2 })
      .filter({ has: labelled(wb.page, new RegExp(`^${user.userId}$`)) })
      .first();
    await twistie(userRow).click();
    const label = `#${wrongAction.index} ${wrongAction.scene}`;
    const actionRow = wb.sideBar.benchmarks
      .rows({ level: 3 })
      .filter({ has: labelled(wb.page, new RegExp(`^${label}$`)) })
      .first();
    await actionRow.scrollIntoViewIfNeeded();
    await actionRow.click();
    const frame = await wb.findWebviewFrame(`#trace-root[data-trace="${user.userId}#${wrongAction.index}"]`, {
      timeout: 60_000,
    });
    expect(await frame.locator('.question[data-verdict="incorrect"]').count()).toBeGreaterThan(0);

    // Choose OmniBehavior Run… from the palette (its quick pick follows the palette's).
    const input = wb.quick.input();
    await wb.startCommand('Persona Lab: Choose OmniBehavior Run…');
    await wb.quick.title('Choose OmniBehavior Run').waitFor();
    await input.fill('perfect');
    await wb.quick.rowByAria('perfect').first().waitFor({ state: 'visible' });
    await input.press('Enter');
    await wb.quickInput.waitFor({ state: 'hidden' });

    const perfect = scoreOmniRun(bench, bench.runs.get('perfect')!);
    const counts = perfect.perAction.get(predictionKey(user.userId, wrongAction.index))!;
    await waitFor(async () => (await rowOf('ob', 1))?.description.includes('run: perfect · '), {
      message: 'the root to show the run perfect',
    });
    await waitFor(
      async () =>
        (await rowOf(label, 3))?.description.includes(
          `${counts.correct} of ${counts.correct + counts.incorrect} right`,
        ),
      { message: 'the test action counts of the run perfect' },
    );
    await waitFor(async () => (await frame.locator('.trace-header .run').textContent()) === 'run perfect', {
      message: 'the trace view to show the run perfect',
    });
    const binary = await frame
      .locator('.question')
      .evaluateAll((els) =>
        els
          .filter((e) => e.querySelector('.kind')?.textContent === 'binary')
          .map((e) => e.getAttribute('data-verdict')),
      );
    expect(binary.length).toBeGreaterThan(0);
    expect(binary).toContain('correct');
    expect(binary).not.toContain('incorrect');
    await wb.screenshot('trace-only-perfect');
  });

  it('opens the OmniBehavior dashboard with the components and bias diagnostics of the run', async () => {
    await wb.runCommand('Persona Lab: Open OmniBehavior Dashboard');
    const frame = await wb.findWebviewFrame('#omnidash-root[data-run="perfect"]', { timeout: 60_000 });
    const run = bench.runs.get('perfect')!;
    const score = scoreOmniRun(bench, run);
    const bias = biasDiagnostics(bench, run);
    expect(await frame.locator('.overall').textContent()).toBe(
      `overall ${score.overall === undefined ? '—' : score.overall.toFixed(1)}`,
    );
    expect(await frame.locator('.reading').textContent()).toBe(bias.reading);
    const rows = await frame
      .locator('table[data-table="bias"] tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    expect(rows).toEqual(
      bias.perScene.map((s) => [
        s.scene,
        String(s.n),
        `${(100 * s.realRate).toFixed(1)} %`,
        `${(100 * s.predictedRate).toFixed(1)} %`,
        `${((s.predictedRate - s.realRate) * 100).toFixed(1)} pp`,
      ]),
    );
    const fields = await frame.locator('table[data-table="fields"] tbody th').allTextContents();
    expect(fields).toEqual(score.fields.map((f) => f.field));
    await wb.screenshot('trace-dashboard-perfect');

    // The demo run: hyper-active (predicted rates above the real ones), and the view follows the run picked.
    await wb.sideBar.title().click();
    await frame.locator('vscode-button').first().click();
    const input = wb.quick.input();
    await wb.quick.title('Choose OmniBehavior Run').waitFor();
    await input.fill('demo-sim');
    await wb.quick.rowByAria('demo-sim').first().waitFor({ state: 'visible' });
    await input.press('Enter');
    await waitFor(async () => (await frame.locator('#omnidash-root').getAttribute('data-run')) === 'demo-sim', {
      message: 'the dashboard to show demo-sim',
    });
    const demo = biasDiagnostics(bench, bench.runs.get('demo-sim')!);
    expect(await frame.locator('.reading').textContent()).toBe(demo.reading);
    await wb.screenshot('trace-dashboard-demo');
  });

  it('brings the OmniBehavior dashboard back after Reload Window, on the run chosen', async () => {
    const reloaded = wb.page.waitForEvent('load', { timeout: 60_000 });
    await wb.runCommand('Developer: Reload Window').catch(() => {});
    await reloaded;
    await wb.waitForWorkbench();
    const frame = await wb.findWebviewFrame('#omnidash-root[data-run="demo-sim"]', { timeout: 90_000 });
    expect(await frame.locator('.reading').textContent()).toBe(
      biasDiagnostics(bench, bench.runs.get('demo-sim')!).reading,
    );
    await wb.waitForExtensionHostLine('personaLab.omniDashboard: restored');
  });
});

describe('Open Benchmark Folder… on an OmniBehavior folder', () => {
  let wb: Workbench;
  let tmp: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-trace-open-'));
    cpSync(omniRoot, join(tmp, 'traces'), { recursive: true });
    mkdirSync(join(tmp, 'empty'));
    wb = await startWorkbench({ folder: join(tmp, 'empty') });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`trace-open-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('opens the folder picked in the dialog as an OmniBehavior benchmark', async () => {
    await wb.openView('Persona Lab');
    const welcome = wb.sideBar.benchmarks.welcome();
    await welcome.waitFor({ state: 'visible', timeout: 30_000 });
    // First "Looking for a benchmark…", then, once the search found none:
    await waitFor(async () => (await welcome.innerText()).includes(noBenchmarkWelcome()), {
      message: 'the no-benchmark welcome',
    });
    await button(welcome, 'Open Benchmark Folder…').first().click();
    const target = join(tmp, 'traces');
    await answerFileDialog(wb.page, target, (v) => v.startsWith('/'), 'the dialog to show its start folder');
    const bench = await loadOmniBenchmark(target);
    const top = await waitFor(
      async () => {
        const r = (await readRows(wb.sideBar.benchmarks.rows({ level: 1 }))).map((x) => [x.label, x.description]);
        return r.length ? r : undefined;
      },
      { timeout: 60_000, message: 'the tree' },
    );
    expect(top).toEqual([
      [
        'traces',
        `overall ${scoreOmniRun(bench, bench.runs.get('demo-sim')!).overall?.toFixed(1) ?? '—'} · run: demo-sim · OmniBehavior`,
      ],
    ]);
    const users = await rowName(wb.sideBar.benchmarks.rows({ level: 2 })).allTextContents();
    expect(users).toEqual([...bench.users.keys()].sort());
  });
});
