// The run dashboard and the compare view in the real workbench on sample/: reads the paper tables inside the webview
// and checks every figure against `node dist/cli.js score sample --json`, checks that the charts drew, clicks a real
// chart element to get its step list and opens a step from it, then compares two runs (picked in the quick picks)
// and checks the paired summary and the regression list against an independent computation. Screenshots under
// test-results/e2e/dashboard-*.png.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { scoreStep } from '../../src/core/spb/score/step';
import { PLATFORMS, type Benchmark } from '../../src/core/spb/types';
import { csvTables } from './cliTables';
import { pressIn, repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { labelled } from './support/sideBar';

const sample = join(repoRoot, 'sample');
const LABEL: Record<string, string> = {
  weibo: 'Weibo',
  xiaohongshu: 'Xiaohongshu',
  toutiao: 'Toutiao',
  zhihu: 'Zhihu',
  douban: 'Douban',
};
type Figures = Record<string, number | null>;
interface ScoreJson {
  runs: {
    name: string;
    platforms: Record<string, Figures>;
    avg: Figures;
    failedRequests?: {
      failed: number;
      steps: number;
      avg: { Recall: number | null; RecallExcludingFailed: number | null };
    };
  }[];
}

const pct = (x: number | null | undefined) => (x === null || x === undefined ? '—' : (100 * x).toFixed(2));

/** What each table column means in the CLI's JSON: [platform or 'avg', key]. */
function columnSource(col: string): [string, string] {
  const [group, head] = col.split(' ');
  const key: Record<string, string> = {
    R: 'Recall',
    'F1^NS': 'F1NS',
    R_stab: 'Recall_Stability',
    R_nov: 'Recall_Novelty',
    Err_decay: 'Error_Decay',
    Err_peer: 'Error_Peer',
    Err_viral: 'Error_Viral',
    Err_random: 'Error_Random',
  };
  const platform = group === 'Avg.' ? 'avg' : Object.keys(LABEL).find((p) => LABEL[p] === group);
  if (!platform || !key[head]) throw new Error(`unknown column ${col}`);
  return [platform, key[head]];
}

const exactLabel = (text: string) => new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\s*$`);

/** Picks an option of a vscode-single-select (its list is in the element's shadow root). */
async function choose(frame: Frame, ariaLabel: string, option: string): Promise<void> {
  const sel = frame.locator(`vscode-single-select[aria-label="${ariaLabel}"]`);
  await sel.click();
  await sel.getByRole('option', { name: option, exact: true }).click();
}

describe('run dashboard and compare view in the real workbench', () => {
  let wb: Workbench;
  let bench: Benchmark;
  let cli: ScoreJson;
  /** Tables 4, 5 and 6 as `score --format csv` prints them: run → column → cell text. */
  let cliTables: Map<string, Record<string, string>>[];
  let dash: Frame;

  beforeAll(async () => {
    cli = JSON.parse(
      execFileSync('node', [join(repoRoot, 'dist/cli.js'), 'score', sample, '--json'], { encoding: 'utf8' }),
    ) as ScoreJson;
    cliTables = csvTables(
      execFileSync('node', [join(repoRoot, 'dist/cli.js'), 'score', sample, '--format', 'csv'], { encoding: 'utf8' }),
    );
    bench = await loadBenchmark(sample);
    wb = await startWorkbench({ folder: sample, theme: 'dark' });
    await wb.context.grantPermissions(['clipboard-read', 'clipboard-write']).catch(() => undefined);
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`dashboard-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
  });

  it("opens the dashboard and shows Tables 4-6 with the CLI's figures", async () => {
    await wb.openView('Persona Lab');
    await waitFor(() => wb.sideBar.rows().count(), {
      timeout: 60_000,
      message: 'the benchmark tree',
    });
    await wb.runCommand('Persona Lab: Open Run Dashboard');
    dash = await wb.findWebviewFrame('#dash-root[data-page="dashboard"][data-state="shown"]', { timeout: 60_000 });
    await wb.waitForExtensionHostLine(/dashboard: showing 4 run\(s\)/);
    let checked = 0;
    for (const table of ['t4', 't5', 't6']) {
      // A run's cells, in order; Table 6 is shown as one small table per platform, so a run has a row in each.
      const rows = await dash.locator(`[data-table="${table}"] tbody tr`).evaluateAll((trs) => {
        const byRun = new Map<string, string[][]>();
        for (const tr of trs) {
          const run = tr.getAttribute('data-run') ?? '';
          const cells = [...tr.querySelectorAll('td')].map((td) => [
            td.getAttribute('data-col') ?? '',
            td.querySelector('.num')?.textContent ?? '',
            td.className,
          ]);
          byRun.set(run, [...(byRun.get(run) ?? []), ...cells]);
        }
        return [...byRun].map(([run, cells]) => ({ run, cells }));
      });
      expect(rows.map((r) => r.run)).toEqual(cli.runs.map((r) => r.name));
      for (const row of rows) {
        const run = cli.runs.find((r) => r.name === row.run)!;
        const printed = cliTables[['t4', 't5', 't6'].indexOf(table)]!.get(row.run)!;
        for (const [col, text] of row.cells) {
          const [platform, key] = columnSource(col);
          const figures = platform === 'avg' ? run.avg : run.platforms[platform];
          // The text is the CLI's table cell (empty there for no figure; Python's rounding; Avg. as the authors'
          // stats.py averages the reports' two-decimal figures), within a rounding step of the JSON's figure.
          expect(text, `${table} ${row.run} ${col}`).toBe(printed[col] || '—');
          const value = figures?.[key];
          if (value === null || value === undefined) expect(text).toBe('—');
          else expect(Math.abs(Number(text) - 100 * value), `${table} ${row.run} ${col}`).toBeLessThanOrEqual(0.011);
          checked++;
        }
      }
    }
    // 4 runs x (12 + 12 + 20) columns
    expect(checked).toBe(4 * (12 + 12 + 20));
    // Best Avg. Recall is bold: the run with the highest Avg. Recall in the CLI's output.
    const best = [...cli.runs].sort((a, b) => (b.avg.Recall ?? 0) - (a.avg.Recall ?? 0))[0].name;
    expect(
      await dash
        .locator('[data-table="t4"] td.rank-1[data-col="Avg. R"]')
        .evaluate((td) => td.closest('tr')?.getAttribute('data-run')),
    ).toBe(best);
    // Lowest Weibo decay error is the best in Table 6.
    const lowDecay = [...cli.runs].sort(
      (a, b) => (a.platforms.weibo.Error_Decay ?? 1) - (b.platforms.weibo.Error_Decay ?? 1),
    )[0].name;
    expect(
      await dash
        .locator('[data-table="t6"] td.rank-1[data-col="Weibo Err_decay"]')
        .first()
        .evaluate((td) => td.closest('tr')?.getAttribute('data-run')),
    ).toBe(lowDecay);
    // Runs with failed requests say so under the tables, as the CLI counts them: the sample's demo-llm has one.
    const failing = cli.runs.filter((r) => (r.failedRequests?.failed ?? 0) > 0);
    expect(failing.map((r) => r.name)).toEqual(['demo-llm']);
    for (const r of failing)
      expect(await dash.locator(`p.run-failed[data-run="${r.name}"]`).textContent()).toContain(
        `${r.failedRequests!.failed} of ${r.failedRequests!.steps} steps; Avg. R ${(100 * r.failedRequests!.avg.Recall!).toFixed(2)} % (official, with them), ${(100 * r.failedRequests!.avg.RecallExcludingFailed!).toFixed(2)} % excluding failed requests, not the paper's figure`,
      );
    await wb.screenshot('dashboard-tables');
  });

  it('shows Table 6 per platform, without sideways scrolling at 1440 px', async () => {
    const t6 = dash.locator('[data-table="t6"]');
    const groups = await t6.locator('table.paper').evaluateAll((ts) => ts.map((t) => t.getAttribute('data-group')));
    expect(groups).toEqual(PLATFORMS.map((p) => LABEL[p]));
    // Each small table has the runs and the four error rates, and nothing is wider than its box or the page.
    expect(await t6.locator('table[data-group="Weibo"] thead th').allTextContents()).toEqual([
      'Run',
      'Err_decay',
      'Err_peer',
      'Err_viral',
      'Err_random',
    ]);
    const fit = await t6.evaluate((card) => {
      const root = document.scrollingElement!;
      const box = card.getBoundingClientRect();
      return {
        card: [card.scrollWidth, card.clientWidth],
        page: [root.scrollWidth, root.clientWidth],
        tablesInside: [...card.querySelectorAll('table')].every((t) => t.getBoundingClientRect().right <= box.right),
      };
    });
    expect(fit.card[0], 'Table 6 card scrollWidth vs clientWidth').toBeLessThanOrEqual(fit.card[1]);
    expect(fit.page[0], 'page scrollWidth vs clientWidth').toBeLessThanOrEqual(fit.page[1]);
    expect(fit.tablesInside).toBe(true);
    await t6.evaluate((e) => e.scrollIntoView());
    await wb.screenshot('dashboard-table6-per-platform');
  });

  it('copies a table as Markdown', async () => {
    await dash.locator('[data-table="t4"] vscode-button', { hasText: 'Markdown' }).click();
    await wb.waitForExtensionHostLine(/dashboard: copied t4 as markdown/);
    // The workbench writes the extension's clipboard text through the browser's clipboard (permission granted).
    const text = await wb.page.evaluate(() => navigator.clipboard.readText());
    const lines = text.split('\n');
    expect(lines[0]).toBe('**Table 4. Recall and F1^NS (%), two-level macro average**');
    expect(lines[2]).toBe(
      '| Run | Weibo R | Weibo F1^NS | Xiaohongshu R | Xiaohongshu F1^NS | Toutiao R | Toutiao F1^NS | Zhihu R | Zhihu F1^NS | Douban R | Douban F1^NS | Avg. R | Avg. F1^NS |',
    );
    const row = lines.find((l) => l.startsWith(`| ${cli.runs[0].name} |`));
    expect(row?.split(' | ')[1].replace(/\*\*|<\/?u>/g, '')).toBe(cliTables[0]!.get(cli.runs[0].name)!['Weibo R']);
  });

  it('copies a table as LaTeX, booktabs with the best figure in bold', async () => {
    await dash.locator('[data-table="t6"] vscode-button', { hasText: 'LaTeX' }).click();
    await wb.waitForExtensionHostLine(/dashboard: copied t6 as latex/);
    const lines = (await wb.page.evaluate(() => navigator.clipboard.readText())).split('\n');
    expect(lines[3]).toBe('\\caption{Error rates by distractor class (\\%), lower is better}');
    expect(lines).toContain('\\toprule');
    expect(lines).toContain('\\end{tabular}');
    // The run with the lowest Weibo E_decay (best in Table 6) is in bold in that column, as on the page.
    const lowDecay = [...cli.runs].sort(
      (a, b) => (a.platforms.weibo.Error_Decay ?? 1) - (b.platforms.weibo.Error_Decay ?? 1),
    )[0].name;
    const row = lines.find((l) => l.startsWith(`${lowDecay.replace(/_/g, '\\_')} & `));
    expect(row?.split(' & ')[1]).toBe(`\\textbf{${cliTables[2]!.get(lowDecay)!['Weibo Err_decay']}}`);
  });

  it('draws the five charts', async () => {
    const charts = ['fig3', 'fig4', 'fig5', 'errors', 'alpha'];
    for (const id of charts) {
      const card = dash.locator(`[data-chart="${id}"]`);
      await waitFor(async () => (await card.getAttribute('data-rendered')) === 'true', { message: `chart ${id}` });
      const painted = await card.locator('canvas').evaluate((c: HTMLCanvasElement) => {
        const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
        return { w: c.width, h: c.height, n };
      });
      expect(painted.w, id).toBeGreaterThan(200);
      expect(painted.h, id).toBeGreaterThan(150);
      expect(painted.n, `painted pixels of ${id}`).toBeGreaterThan(2000);
      expect(await card.locator('.help').getAttribute('title'), id).toMatch(/mean|macro average/);
    }
    // One meaning per colour: runs are solid theme hues, the error classes hatches (never a run's
    // colour), α of the tasks the data's own outline; each chart keys them in its legend.
    const fills = async (id: string) =>
      JSON.parse((await dash.locator(`[data-chart="${id}"] canvas`).getAttribute('data-fills')) ?? '[]') as {
        label: string;
        fill: string;
      }[];
    const runFills = (await fills('fig5')).map((f) => f.fill);
    expect(new Set(runFills).size, 'one colour per run').toBe(runFills.length);
    expect(runFills.every((f) => f !== 'pattern')).toBe(true);
    const errorFills = await fills('errors');
    expect(errorFills.map((f) => f.label)).toEqual(['Err_decay', 'Err_peer', 'Err_viral', 'Err_random']);
    expect(errorFills.map((f) => f.fill)).toEqual(['pattern', 'pattern', 'pattern', 'pattern']);
    const alphaFill = (await fills('alpha'))[0].fill;
    expect(runFills).not.toContain(alphaFill);
    // No CSP violation and no page error inside the webviews.
    expect(wb.consoleLog.filter((l) => /Content Security Policy|Refused to|pageerror/.test(l))).toEqual([]);
    await dash.locator('[data-chart="fig3"]').evaluate((e) => e.scrollIntoView());
    await wb.screenshot('dashboard-charts');
    await dash.locator('[data-chart="errors"]').evaluate((e) => e.scrollIntoView());
    await wb.screenshot('dashboard-charts-2');
  });

  it('narrows the figures to one platform', async () => {
    const probe = () => dash.locator('[data-chart="fig4"] canvas').getAttribute('data-probe');
    expect(await probe()).toContain('· All platforms (Avg.):');
    await choose(dash, 'Scope of the figures', 'Weibo');
    await waitFor(async () => (await probe())?.includes('· Weibo:'), { message: 'Figure 4 to show Weibo' });
    // The operating point's hover text gives Weibo's R_stab from Table 5 (the CLI's figure).
    const first = cli.runs[0];
    expect(await probe()).toContain(`${first.name} · Weibo: R_stab ${pct(first.platforms.weibo.Recall_Stability)}`);
    await dash.locator('[data-chart="fig4"]').evaluate((e) => e.scrollIntoView());
    await wb.screenshot('dashboard-charts-weibo');
    await choose(dash, 'Scope of the figures', 'All platforms (Avg.)');
    await waitFor(async () => (await probe())?.includes('· All platforms (Avg.):'), {
      message: 'Figure 4 back to all platforms',
    });
  });

  it('clicking a bar lists the matching steps, and a row opens the step view', async () => {
    const canvas = dash.locator('[data-chart="errors"] canvas');
    const probe = JSON.parse((await canvas.getAttribute('data-probe')) ?? 'null') as {
      x: number;
      y: number;
      label: string;
    } | null;
    expect(probe).not.toBeNull();
    await canvas.click({ position: { x: probe!.x, y: probe!.y } });
    const list = dash.locator('#step-list');
    await waitFor(() => list.isVisible(), { message: 'the step list' });
    const filter = JSON.parse((await list.getAttribute('data-filter')) ?? '{}') as {
      run: string;
      scope: string;
      errorKey: string;
    };
    // The focus run is the selected run (the first in name order on a fresh workspace); the first bar: Weibo, decay.
    expect(filter).toMatchObject({ run: cli.runs[0].name, scope: 'weibo', errorKey: 'Error_Decay' });
    // Independently: the weibo steps of that run where Error_Decay > 0.
    const run = bench.runs.get(filter.run)!;
    const expected: string[] = [];
    for (const user of bench.users.get('weibo')!.values()) {
      for (const step of user.steps) {
        const result = run.results.get('weibo')?.get(user.userId)?.steps.get(step.stepId);
        const m = result && scoreStep(step.split, result.prediction);
        if (m && m.Error_Decay > 0) expected.push(`weibo/${user.userId}/${step.stepId}`);
      }
    }
    expect(await list.locator('.list-title').textContent()).toBe(`Steps: ${filter.run} · Weibo · Err_decay > 0`);
    const first = list.locator('.vlist .vrow').first();
    const firstKey = (await first.getAttribute('data-key'))!;
    expect(expected).toContain(firstKey);
    expect(await list.locator('.vlist').getAttribute('aria-rowcount')).toBe(String(expected.length));
    await wb.screenshot('dashboard-step-list');
    await first.click();
    await wb.findWebviewFrame(`#step-root[data-step="${firstKey}"]`, { timeout: 30_000 });
    await wb.waitForExtensionHostLine(`open step ${firstKey} of run ${filter.run}`);
    await wb.screenshot('dashboard-step-opened');
  });

  it('compares two runs: paired summary and the regression list', async () => {
    const [a, b] = ['demo-llm', 'random'];
    await wb.runWithPicks('Persona Lab: Compare Runs…', [a, b]);
    const cmp = await wb.findWebviewFrame('#dash-root[data-page="compare"][data-state="shown"]', { timeout: 60_000 });
    expect(await cmp.locator('h1').textContent()).toContain(`${a} vs ${b}`);
    // Both runs cover every scored step of sample/: Δ Recall over "all" is the difference of the tables' Avg.
    const runA = cli.runs.find((r) => r.name === a)!;
    const runB = cli.runs.find((r) => r.name === b)!;
    const diff = 100 * (runB.avg.Recall! - runA.avg.Recall!);
    const shown = await cmp.locator('tr[data-metric="Recall"] td.diff .num').textContent();
    expect(Number(shown!.replace('\u2212', '-'))).toBeCloseTo(diff, 2);
    expect(await cmp.locator('tr[data-metric="Recall"] td.num-a').textContent()).toBe(pct(runA.avg.Recall));
    const ci = (await cmp.locator('tr[data-metric="Recall"] td.ci').textContent())!
      .replace(/\u2212/g, '-')
      .match(/\[([-+\d.]+), ([-+\d.]+)\]/)!;
    expect(Number(ci[1])).toBeLessThanOrEqual(diff + 0.005);
    expect(Number(ci[2])).toBeGreaterThanOrEqual(diff - 0.005);

    // Independently: ΔRecall per paired step; the list starts with a step of the biggest regression.
    const deltas = new Map<string, number>();
    for (const platform of PLATFORMS) {
      for (const user of bench.users.get(platform)?.values() ?? []) {
        for (const step of user.steps) {
          const ra = bench.runs.get(a)!.results.get(platform)?.get(user.userId)?.steps.get(step.stepId);
          const rb = bench.runs.get(b)!.results.get(platform)?.get(user.userId)?.steps.get(step.stepId);
          const ma = ra && scoreStep(step.split, ra.prediction);
          const mb = rb && scoreStep(step.split, rb.prediction);
          if (ma && mb) deltas.set(`${platform}/${user.userId}/${step.stepId}`, mb.Recall - ma.Recall);
        }
      }
    }
    const worst = Math.min(...deltas.values());
    const regressed = [...deltas.values()].filter((d) => d < -1e-12).length;
    expect(await cmp.locator('.compare-steps h2').textContent()).toBe(`Steps · ${regressed} regressed on Recall`);
    const rows = cmp.locator('.vlist .vrow');
    const keys = await rows.evaluateAll((rs) => rs.slice(0, 5).map((r) => r.getAttribute('data-key') ?? ''));
    for (const k of keys.slice(0, 1)) expect(deltas.get(k)).toBeCloseTo(worst, 12);
    const firstDelta = await rows.first().locator('.d').first().textContent();
    expect(firstDelta).toBe(`\u2212${(-100 * worst).toFixed(1)}`);
    // Win/tie/loss over steps adds up to the paired steps.
    const wtl = (await cmp.locator('tr[data-metric="Recall"] td.wtl-users').textContent())!
      .split('/')
      .map((x) => Number(x.trim()));
    const stepWtl = (await cmp.locator('tr[data-metric="Recall"] td.wtl-steps').textContent())!
      .split('/')
      .map((x) => Number(x.trim()));
    expect(stepWtl.reduce((s, x) => s + x, 0)).toBe(deltas.size);
    expect(stepWtl[2]).toBe(regressed);
    expect(wtl.reduce((s, x) => s + x, 0)).toBeGreaterThan(0);
    await wb.screenshot('dashboard-compare');

    // Biggest gain first: the first row has the largest ΔRecall.
    const best = Math.max(...deltas.values());
    await choose(cmp, 'Sort order', 'Biggest gain first');
    await waitFor(
      async () => deltas.get((await cmp.locator('.vlist .vrow').first().getAttribute('data-key')) ?? '') === best,
      { message: 'the biggest gain first' },
    );
    await choose(cmp, 'Sort order', 'Biggest regression first');
    await waitFor(
      async () => deltas.get((await cmp.locator('.vlist .vrow').first().getAttribute('data-key')) ?? '') === worst,
      { message: 'the biggest regression first again' },
    );

    // A row shows the step of both runs side by side in the compare view (test/e2e/compareSteps.test.ts checks
    // what each side shows).
    await rows.first().click();
    await cmp.locator(`.pair-page[data-pair="${keys[0]}"]`).waitFor({ timeout: 30_000 });
    await wb.waitForExtensionHostLine(
      `compare view: ${keys[0].split('/').slice(0, 2).join('/')} step ${keys[0].split('/')[2]} side by side`,
    );
    await wb.screenshot('dashboard-compare-open-pair');

    // Keyboard: Esc back to the list, whose one tab stop has the row shown active; ArrowDown moves to the second
    // row, Enter shows it.
    await pressIn(cmp.locator('body'), 'Escape');
    await cmp.locator('.list-page:not([hidden]) .vlist').waitFor();
    await cmp.locator('.vlist').focus();
    await pressIn(cmp.locator('.vlist'), 'ArrowDown');
    await pressIn(cmp.locator('.vlist'), 'Enter');
    await cmp.locator(`.pair-page[data-pair="${keys[1]}"]`).waitFor({ timeout: 30_000 });
  });

  it('redraws the charts in the light theme', async () => {
    await wb.editor.tab('Run Dashboard').click();
    dash = await wb.findWebviewFrame('#dash-root[data-page="dashboard"][data-state="shown"]');
    const dark = await dash.locator('#dash-root').getAttribute('data-chart-color');
    const widget = wb.quickInput;
    await wb.startCommand('Preferences: Color Theme');
    await wb.quick.rows('Dark Modern').first().waitFor();
    await wb.quick.input().fill('Light Modern');
    await wb.quick
      .rows()
      .filter({ has: labelled(wb.page, exactLabel('Light Modern')) })
      .first()
      .click();
    await widget.waitFor({ state: 'hidden' });
    await waitFor(async () => (await dash.locator('#dash-root').getAttribute('data-chart-color')) !== dark, {
      message: 'the charts to redraw in the light theme',
    });
    await dash.locator('[data-table="t4"]').evaluate((e) => e.scrollIntoView());
    await wb.screenshot('dashboard-light-tables');
    await dash.locator('[data-chart="fig4"]').evaluate((e) => e.scrollIntoView());
    await wb.screenshot('dashboard-light-charts');
    await dash.locator('[data-chart="errors"]').evaluate((e) => e.scrollIntoView());
    await wb.screenshot('dashboard-light-charts-2');
  });

  it('turns on compare mode: the status bar counts the regressed steps', async () => {
    await wb.runCommand('Persona Lab: Compare Mode: Badge Regressed Steps');
    const line = await wb.waitForExtensionHostLine(/compare mode: \d+ regressed step\(s\) of demo-llm vs random/);
    const n = Number(/compare mode: (\d+)/.exec(line)![1]);
    await wb.statusBar.part(`demo-llm vs random: ${n} regressed`).waitFor();
    expect(n).toBeGreaterThan(0);
    await wb.runCommand('Persona Lab: Compare Mode: Turn Off');
    await waitFor(async () => !(await wb.statusBar.part('regressed').isVisible()), {
      message: 'the status bar item to go',
    });
  });

  it('shows only the runs left checked', async () => {
    await wb.editor.tab('Run Dashboard').click();
    dash = await wb.findWebviewFrame('#dash-root[data-page="dashboard"][data-state="shown"]');
    await dash.locator('vscode-checkbox[data-run="random"]').click();
    await waitFor(async () => (await dash.locator('[data-table="t4"] tbody tr').count()) === 3, {
      message: 'three runs in Table 4',
    });
    expect(
      await dash.locator('[data-table="t4"] tbody tr').evaluateAll((trs) => trs.map((t) => t.getAttribute('data-run'))),
    ).toEqual(cli.runs.map((r) => r.name).filter((r) => r !== 'random'));
    await dash.locator('vscode-checkbox[data-run="random"]').click();
    await waitFor(async () => (await dash.locator('[data-table="t4"] tbody tr').count()) === 4, {
      message: 'four runs again',
    });
  });
  it('comes back after Reload Window with the runs left ticked, and so does the compare view', async () => {
    await wb.editor.tab('Run Dashboard').click();
    await dash.locator('vscode-checkbox[data-run="random"]').click();
    await waitFor(async () => (await dash.locator('[data-table="t4"] tbody tr').count()) === 3, {
      message: 'three runs in Table 4',
    });
    const reloaded = wb.page.waitForEvent('load', { timeout: 60_000 });
    await wb.runCommand('Developer: Reload Window').catch(() => {});
    await reloaded;
    await wb.waitForWorkbench();
    await wb.editor.tab('Run Dashboard').click({ timeout: 60_000 });
    dash = await wb.findWebviewFrame('#dash-root[data-page="dashboard"][data-state="shown"]', { timeout: 90_000 });
    await waitFor(async () => (await dash.locator('[data-table="t4"] tbody tr').count()) === 3, {
      message: 'the three ticked runs after the reload',
    });
    await wb.waitForExtensionHostLine('personaLab.dashboard: restored');
    await wb.editor.tab('Compare').first().click({ timeout: 60_000 });
    const cmp = await wb.findWebviewFrame('#dash-root[data-page="compare"][data-state="shown"]', { timeout: 90_000 });
    expect(await cmp.locator('body').innerText()).not.toBe('');
    await wb.waitForExtensionHostLine('personaLab.compare: restored');
  });
});
