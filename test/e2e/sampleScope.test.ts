// A sample in the Benchmarks tree and the run dashboard, in the real workbench on a copy of sample/: a sample drawn
// with the CLI (`persona-lab sample`), Filter Tree to Sample… picks it and the tree's user rows are exactly its users
// (platforms without one gone, the message naming it), Clear Sample Filter brings every user back; then the
// dashboard's "Computed on" choice picks it and Table 4's Avg. R of every run is `persona-lab score --sample`'s,
// named as the sample's. Screenshots under test-results/e2e/sample-scope-*.png.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readSample, type Sample } from '../../src/core/spb/experiments/sampleFile';
import { PLATFORM_LABELS } from '../../src/core/spb/score/tables';
import { PLATFORMS, type Platform } from '../../src/core/spb/types';
import { repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { rowDescription, twistie } from './support/sideBar';
import { csvTables } from './cliTables';
import { treePage } from './treePage';
import { failedSuffix, pct } from './treeExpected';

interface ScoreJson {
  sample?: { name: string; users: number };
  runs: { name: string; avg: Record<string, number | null>; failedRequests: { failed: number } }[];
}

const NAME = 's7';

describe('a sample in the Benchmarks tree and the run dashboard', () => {
  let wb: Workbench;
  let tmp: string;
  let root: string;
  let sample: Sample;
  let whole: ScoreJson;
  let onSample: ScoreJson;
  let avgRWhole: Map<string, Record<string, string>>;
  let avgROnSample: Map<string, Record<string, string>>;
  const { children, rowLocator, waitRow, runCommandWithInput, quickPickRow } = treePage(() => wb);
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, [join(repoRoot, 'dist/cli.js'), ...args], { encoding: 'utf8' });
  const message = () => wb.sideBar.benchmarks.message();

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-sample-scope-'));
    root = join(tmp, 'sample');
    cpSync(join(repoRoot, 'sample'), root, { recursive: true });
    cli('sample', root, '--users', '7', '--seed', '2', '--out', NAME);
    sample = readSample(root, NAME);
    whole = JSON.parse(cli('score', root, '--json')) as ScoreJson;
    onSample = JSON.parse(cli('score', root, '--sample', NAME, '--json')) as ScoreJson;
    // Table 4's Avg. R as the CLI prints it (the authors' stats.py mean of the two-decimal platform figures).
    avgRWhole = csvTables(cli('score', root, '--format', 'csv'))[0]!;
    avgROnSample = csvTables(cli('score', root, '--sample', NAME, '--format', 'csv'))[0]!;
    expect(onSample.sample).toEqual({ name: NAME, users: 7 });
    wb = await startWorkbench({ folder: root, theme: 'light' });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`sample-scope-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  /** The user rows under a platform row (expanded first), once they are `count`. */
  async function usersUnder(platform: Platform, count: number): Promise<string[]> {
    const label = PLATFORM_LABELS[platform];
    const row = rowLocator(label, 2).first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    if ((await row.getAttribute('aria-expanded')) !== 'true') await twistie(row).click();
    const kids = await waitFor(
      async () => {
        const k = await children(label, 2);
        return k.length === count ? k : undefined;
      },
      { timeout: 30_000, message: `${count} user rows under ${label}` },
    );
    await twistie(row).click();
    return kids.map((k) => k.label);
  }

  it('Filter Tree to Sample… shows exactly the sample users; Clear Sample Filter brings every user back', async () => {
    await wb.openView('Persona Lab');
    // Only the Benchmarks view open, so that every row is drawn.
    const others = wb.sideBar.headers({ expanded: true, except: 'Benchmarks' });
    await waitFor(
      async () => {
        if ((await others.count()) === 0) return true;
        await others.first().click();
        return false;
      },
      { timeout: 30_000, message: 'the other views of Persona Lab to collapse' },
    );
    const run = whole.runs[0];
    await waitRow(
      'sample',
      1,
      (r) => r.description === `Avg. R ${pct(run.avg.Recall)} · run: ${run.name}${failedSuffix(run)}`,
      'the run',
    );

    await runCommandWithInput('Persona Lab: Filter Tree to Sample…');
    const pick = quickPickRow(NAME);
    await pick.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await rowDescription(pick).innerText()).toContain('7 users · seed 2 · by platform');
    await pick.click();
    await waitFor(
      async () =>
        (
          await message()
            .innerText()
            .catch(() => '')
        ).includes(`Sample ${NAME} · 7 users`),
      {
        timeout: 30_000,
        message: 'the view message naming the sample',
      },
    );
    // The benchmark row's Avg. R is the CLI's on the sample, and says so.
    const runOnSample = onSample.runs.find((r) => r.name === run.name)!;
    const avg = runOnSample.avg.Recall;
    await waitRow(
      'sample',
      1,
      (r) =>
        r.description ===
        `Avg. R ${pct(avg)} on sample ${NAME} (7 users) · run: ${run.name}${failedSuffix(runOnSample)}`,
      'the benchmark row on the sample',
    );
    const platforms = PLATFORMS.filter((p) => (sample.users[p]?.length ?? 0) > 0);
    await waitFor(
      async () =>
        (await children('sample', 1)).map((r) => r.label).join() === platforms.map((p) => PLATFORM_LABELS[p]).join(),
      { timeout: 30_000, message: `platform rows ${platforms.join(', ')}` },
    );
    const shown: string[] = [];
    for (const p of platforms) shown.push(...(await usersUnder(p, sample.users[p]!.length)));
    expect(shown.sort()).toEqual(Object.values(sample.users).flat().sort());
    await usersUnder(platforms[0], sample.users[platforms[0]]!.length);
    await wb.screenshot('sample-scope-tree');
    await twistie(rowLocator(PLATFORM_LABELS[platforms[0]], 2).first()).click();

    await wb.runCommand('Persona Lab: Clear Sample Filter');
    await waitRow(
      'sample',
      1,
      (r) => r.description === `Avg. R ${pct(run.avg.Recall)} · run: ${run.name}${failedSuffix(run)}`,
      'whole',
    );
    // The workbench hides an empty message and keeps its old text in the DOM.
    await waitFor(async () => !(await message().isVisible()) || !(await message().innerText()).includes('Sample'), {
      timeout: 30_000,
      message: 'the sample message gone',
    });
    const weibo = readSample(root, NAME).users.weibo?.length ?? 0;
    const all = await usersUnder('weibo', 10);
    expect(all.length).toBeGreaterThan(weibo);
  });

  it('the dashboard computed on the sample shows the CLI --sample figures, named as the sample', async () => {
    await wb.runCommand('Persona Lab: Open Run Dashboard');
    let dash: Frame = await wb.findWebviewFrame('#dash-root[data-page="dashboard"][data-state="shown"]', {
      timeout: 60_000,
    });
    await wb.waitForExtensionHostLine(/dashboard: showing 4 run\(s\) in/);
    const avgR = (f: Frame, run: string) =>
      f.locator(`[data-table="t4"] tr[data-run="${run}"] td[data-col="Avg. R"] .num`).textContent();
    for (const r of whole.runs) expect(await avgR(dash, r.name), r.name).toBe(avgRWhole.get(r.name)!['Avg. R']);

    const choice = dash.locator('vscode-single-select[aria-label="Users the tables and figures are computed over"]');
    await choice.click();
    await choice.getByRole('option', { name: `Sample ${NAME} (7 users)`, exact: true }).click();
    await wb.waitForExtensionHostLine(`dashboard: showing 4 run(s) on sample ${NAME} (7 users)`);
    dash = await wb.findWebviewFrame(`#dash-root[data-state="shown"][data-sample="${NAME}"]`, { timeout: 30_000 });
    let differs = 0;
    for (const r of onSample.runs) {
      const text = avgROnSample.get(r.name)!['Avg. R'];
      expect(await avgR(dash, r.name), r.name).toBe(text);
      expect(Math.abs(Number(text) - 100 * r.avg.Recall!), r.name).toBeLessThanOrEqual(0.011);
      if (text !== avgRWhole.get(r.name)!['Avg. R']) differs++;
    }
    expect(differs, 'the sample figures are not the whole-benchmark ones').toBeGreaterThan(0);
    expect(await dash.locator('h1').textContent()).toContain(`on sample ${NAME} (7 users)`);
    expect(await dash.locator('[data-table="t4"] h3').textContent()).toContain(`, on sample ${NAME} (7 users)`);
    expect(await dash.locator('.sample-note').textContent()).toContain('not the whole-benchmark figure');
    await wb.screenshot('sample-scope-dashboard');

    await choice.click();
    await choice.getByRole('option', { name: 'Whole benchmark', exact: true }).click();
    dash = await wb.findWebviewFrame('#dash-root[data-state="shown"][data-sample=""]', { timeout: 30_000 });
    for (const r of whole.runs) expect(await avgR(dash, r.name), r.name).toBe(avgRWhole.get(r.name)!['Avg. R']);
    expect(await dash.locator('.sample-note').count()).toBe(0);
  });
});
