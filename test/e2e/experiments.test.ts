// Template experiments in the real workbench against a scripted server of this process: New Sample…, two template
// variants run on it with Run Template on Sample… (estimate modal, progress), both rows in the Experiments view
// newest first with their paired deltas (equal to the core's on the same steps), their templates diffed in VS
// Code's diff editor, one opened in Compare Runs; the log holds no key.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { experimentFigures } from '../../src/core/spb/experiments/experiment';
import { deltaText } from '../../src/core/spb/experiments/text';
import { EXPERIMENTS_DB, ExperimentLog } from '../../src/core/spb/experiments/log';
import { readSample } from '../../src/core/spb/experiments/sampleFile';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { DEFAULT_TEMPLATE, templateId } from '../../src/core/spb/prompt/prompt';
import { benchmarkSize, experimentTableRows } from '../../src/core/spb/experiments/table';
import { reply, smartBody, type ScriptedServer } from '../support/scriptedServer';
import { pressIn, waitFor, type Workbench } from './harness';
import { listRows } from './support/sideBar';
import { KEY, setKey, startSession, ui, type Session, type Ui } from './rerunSession';

// A long template name (a file name people do write): the table elides it in the middle, its tooltip has it whole.
const V1 = 'v1-the-default-template-with-the-persona-and-the-posts-of-the-step';
const VARIANT = `VARIANT: prefer the tags of the latest posts.\n${DEFAULT_TEMPLATE}`;

describe('template experiments in the real workbench', () => {
  let session: Session;
  let wb: Workbench;
  let server: ScriptedServer;
  let ws: string;
  let u: Ui;
  let base: string;
  const sampleName = 's5-seed1';

  const dialog = () => wb.dialog.box();
  const toast = (text: RegExp) => wb.toasts(text);

  beforeAll(async () => {
    session = await startSession('persona-lab-experiments-', {}, (dir) => {
      mkdirSync(join(dir, '.personalab', 'templates'), { recursive: true });
      writeFileSync(join(dir, '.personalab', 'templates', `${V1}.plprompt`), DEFAULT_TEMPLATE);
      writeFileSync(join(dir, '.personalab', 'templates', 'v2.plprompt'), VARIANT);
    });
    ({ wb, server, ws } = session);
    base = session.run.name;
    u = ui(wb);
    // The variant picks the last k pool tags, the default template the first k: a real paired difference.
    server.setScript((req) => {
      if (!req.prompt.startsWith('VARIANT')) return reply.smart();
      const pool = req.info.pool ?? [];
      return reply.json({ ...smartBody(req.info), predicted_tags: pool.slice(pool.length - (req.info.k ?? 1)) });
    });
    await setKey(wb, u, KEY);
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`experiments-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await session?.close();
  });

  it('makes a sample from the Experiments view', async () => {
    await wb.expandView('Experiments');
    await u.palette('Persona Lab: New Sample…');
    await u.title('New Sample (1/4): users');
    await u.input().fill('5');
    await u.input().press('Enter');
    await u.title('New Sample (2/4): seed');
    await u.input().press('Enter');
    await u.title('New Sample (3/4): strata');
    await u.row('By platform').click();
    await u.title('New Sample (4/4): name');
    expect(await u.input().inputValue()).toBe(sampleName);
    await u.input().press('Enter');
    await toast(new RegExp(`sample ${sampleName}: 5 users`)).waitFor({ timeout: 30_000 });
    const sample = readSample(ws, sampleName);
    expect(Object.values(sample.users).map((ids) => ids?.length)).toEqual([1, 1, 1, 1, 1]);
  });

  async function runOnSample(template: string): Promise<void> {
    await u.palette('Persona Lab: Run Template on Sample…');
    await u.title('(1/3): sample');
    await u.row(sampleName).click();
    await u.title('(2/3): template');
    await u.row(template).click();
    await u.title('(3/3): base run');
    await u.row(base).click();
    await dialog().waitFor({ state: 'visible', timeout: 30_000 });
    expect(await dialog().innerText()).toMatch(/estimate: \d+ requests, ~[\d,]+ prompt tokens/);
    await wb.dialog.exactButton('Run').click();
    // Named by the template's name, not its hash (the run folder keeps the hash).
    await toast(new RegExp(`experiment ${template} on ${sampleName}: ΔR `)).waitFor({ timeout: 120_000 });
  }

  it('runs two template variants on the sample and lists both, newest first, with their paired deltas', async () => {
    await runOnSample(V1);
    await runOnSample('v2');
    const pane = await wb.expandView('Experiments');
    const rows = listRows(pane);
    await waitFor(async () => (await rows.count()) === 2, { timeout: 30_000, message: 'two experiment rows' });
    const texts = await rows.allInnerTexts();
    // The template, then the figure first in the description; the sample at its end.
    expect(texts[0]).toMatch(new RegExp(`^v2\\s*ΔR .* · ${sampleName}$`, 's'));
    expect(texts[1]).toMatch(new RegExp(`^${V1}\\s*ΔR .* · ${sampleName}$`, 's'));

    // The deltas shown are the core's paired comparison on the sample's steps.
    const log = ExperimentLog.open(join(ws, EXPERIMENTS_DB), { mustExist: true });
    const logged = log.list();
    log.close();
    const bench = await loadBenchmark(ws, { runs: [base, logged[0].run] });
    const sample = readSample(ws, sampleName);
    const figures = experimentFigures(bench, bench.runs.get(base)!, bench.runs.get(logged[0].run)!, sample.users);
    const recall = figures.summary.find((r) => r.metric === 'Recall')!;
    expect(recall.diff).not.toBe(0);
    expect(texts[0]).toContain(`ΔR ${deltaText(recall, figures)}`);
    // One user per platform: the tree says so rather than showing a collapsed [x, x].
    expect(texts[0]).toContain('(CI n/a: 5 users)');
    expect(logged.map((r) => r.baseRun)).toEqual([base, base]);
    // The log keeps both: the name lists show, the id of the text in tooltips and run folders.
    expect(logged.map((r) => [r.template.name, r.template.id])).toEqual([
      ['v2', templateId(VARIANT)],
      [V1, templateId(DEFAULT_TEMPLATE)],
    ]);
    expect(logged[0].run).toContain(templateId(VARIANT));
    expect(readFileSync(join(ws, EXPERIMENTS_DB)).includes(KEY)).toBe(false);
    await wb.screenshot('experiments-view');
  });

  it('Show Experiment Table: named rows with their deltas, sorted by ΔR on a click, CI n/a on one user per platform', async () => {
    await u.palette('Persona Lab: Show Experiment Table');
    const table = await wb.findWebviewFrame('table.experiments tbody tr.exp-row', { timeout: 60_000 });
    const log = ExperimentLog.open(join(ws, EXPERIMENTS_DB), { mustExist: true });
    const logged = experimentTableRows(log.list(), benchmarkSize(session.bench));
    log.close();
    const names = async () =>
      await table.locator('tbody tr.exp-row .name').evaluateAll((els) => els.map((e) => e.dataset.full ?? ''));
    // Newest first by default.
    expect(await names()).toEqual(['v2', V1]);
    // The long name is cut in its middle, whole in the tooltip.
    const shown = await table.locator(`tbody tr.exp-row .name[data-full="${V1}"]`).textContent();
    expect(shown).toMatch(/^v1-the-default.*….*of-the-step$/);
    expect(shown!.length).toBeLessThan(V1.length);
    expect(await table.locator('tbody tr.exp-row td.name-cell').nth(1).getAttribute('title')).toContain(V1);
    // Each row's figures say what they are over: the sample's 5 users out of the benchmark's, and its steps.
    const users = [...session.bench.users.values()].reduce((n, m) => n + m.size, 0);
    const coverage = await table.locator('tbody tr.exp-row .coverage').allTextContents();
    expect(coverage).toEqual(
      logged.map(() => expect.stringMatching(new RegExp(`^over 5 of ${users} users, \\d+ of [\\d,]+ steps$`))),
    );
    const byRecall = (desc: boolean) =>
      [...logged]
        .sort((x, y) => (desc ? -1 : 1) * ((x.deltas[0].diff ?? 0) - (y.deltas[0].diff ?? 0)))
        .map((r) => r.name);
    await table.locator('th[data-key="delta0"] button').click();
    expect(await table.locator('th[data-key="delta0"]').getAttribute('aria-sort')).toBe('descending');
    expect(await names()).toEqual(byRecall(true));
    await table.locator('th[data-key="delta0"] button').click();
    expect(await names()).toEqual(byRecall(false));
    const cells = await table.locator('tbody td[data-metric="Recall"]').allTextContents();
    expect(cells.sort()).toEqual(logged.map((r) => r.deltas[0].text).sort());
    // The sample has one user per platform: nothing to resample, so no interval is claimed.
    expect(cells.every((c) => c.includes('(CI n/a: 5 users)'))).toBe(true);
    await wb.screenshot('experiments-table');

    // At 1280×800 the figure columns (R, the four Δ, cost, date) are in view without scrolling, none of the headers
    // broken inside a word; measured in the page, not by eye.
    await wb.page.setViewportSize({ width: 1280, height: 800 });
    try {
      const keys = ['recall', 'delta0', 'delta1', 'delta2', 'delta3', 'requests', 'createdAt'];
      await waitFor(
        async () => {
          const seen = await table.evaluate((ks) => {
            const width = document.documentElement.clientWidth;
            return ks.map((k) => {
              const th = document.querySelector<HTMLElement>(`th[data-key="${k}"]`)!;
              const range = document.createRange();
              range.selectNodeContents(th.querySelector('button')!);
              const r = th.getBoundingClientRect();
              const lines = new Set([...range.getClientRects()].map((x) => Math.round(x.top))).size;
              return { k, inView: r.left >= 0 && r.right <= width, lines };
            });
          }, keys);
          if (seen.every((x) => x.inView && x.lines === 1)) return true;
          throw new Error(JSON.stringify(seen.filter((x) => !x.inView || x.lines !== 1)));
        },
        { timeout: 15_000, message: 'every figure column in view at 1280×800, its header on one line' },
      );
      expect(await table.evaluate(() => document.scrollingElement!.scrollLeft)).toBe(0);
      await wb.screenshot('experiments-table-1280x800');
    } finally {
      await wb.page.setViewportSize({ width: 1600, height: 1000 });
    }

    // Two rows selected: Diff Templates shows their templates' diff, the newer on the right.
    const diffButton = table.locator('.actions vscode-button');
    expect(await diffButton.getAttribute('disabled')).not.toBeNull();
    await table.locator('tbody tr.exp-row').nth(0).click();
    await table
      .locator('tbody tr.exp-row')
      .nth(1)
      .click({ modifiers: ['Control'] });
    await waitFor(async () => (await diffButton.getAttribute('disabled')) === null, {
      message: 'Diff Templates enabled',
    });
    await diffButton.click();
    await waitFor(async () => (await wb.editor.diffLines('modified').innerText()).includes('VARIANT'), {
      timeout: 30_000,
      message: 'the diff of the two templates',
    });
    // Enter on a row opens its paired steps in Compare Runs.
    await wb.editor.tab('Experiments').click();
    const again = await wb.findWebviewFrame('table.experiments tbody tr.exp-row', { timeout: 30_000 });
    await again.locator('tbody tr.exp-row').first().focus();
    await pressIn(again.locator('tbody tr.exp-row').first(), 'Enter');
    const cmp = await wb.findWebviewFrame('#dash-root[data-page="compare"][data-state="shown"]', { timeout: 60_000 });
    expect(await cmp.locator('.page-head h1').textContent()).toContain(`${base} vs exp-${sampleName}-`);
  });

  it("diffs the two rows' templates in the diff editor and opens one in Compare Runs", async () => {
    await u.palette('Persona Lab: Diff Experiment Templates');
    await u.title('Diff Experiment Templates (1/2)');
    await u.row(`${sampleName} · v2`).click();
    await u.title('(2/2)');
    await u.row(`${sampleName} · ${V1}`).click();
    const diff = wb.editor.diff();
    await diff.waitFor({ state: 'visible', timeout: 30_000 });
    await waitFor(async () => (await wb.editor.diffLines('modified').innerText()).includes('VARIANT'), {
      timeout: 30_000,
      message: 'the newer template on the right',
    });
    expect(await wb.editor.diffLines('original').innerText()).not.toContain('VARIANT');
    await wb.screenshot('experiments-diff');

    await u.palette('Persona Lab: Compare Experiment with Base Run');
    await u.title('Compare Experiment with Base Run');
    await u.row(`${sampleName} · v2`).click();
    const cmp = await wb.findWebviewFrame('#dash-root[data-page="compare"][data-state="shown"]', { timeout: 60_000 });
    expect(await cmp.locator('.vlist .vrow').count()).toBeGreaterThan(0);
  });

  it('promotes an experiment to a full run with its template, the estimate shown before it starts', async () => {
    const sent = server.requests.length;
    await u.palette('Persona Lab: Run on Whole Benchmark…');
    await u.title('Run Experiment Template on Whole Benchmark');
    await u.row(`${sampleName} · v2`).click();
    await u.title('(2/3): persona mode');
    await u.row(/Full persona/).click();
    await u.title('(3/3): run name');
    const bench = session.bench;
    const steps = [...bench.users.values()].reduce(
      (n, m) => n + [...m.values()].reduce((k, x) => k + x.steps.length, 0),
      0,
    );
    expect(await u.widget().innerText()).toMatch(new RegExp(`estimate: ${steps} requests, ~[\\d,]+ prompt tokens`));
    const name = await u.input().inputValue();
    expect(name).toMatch(/^v2-benchmark-full-/);
    await u.input().press('Enter');
    await toast(new RegExp(`run ${name} finished`)).waitFor({ timeout: 120_000 });
    const asked = server.requests.slice(sent);
    expect(asked).toHaveLength(steps);
    expect(asked.every((r) => r.prompt.startsWith('VARIANT'))).toBe(true);
  });

  it('comes back after Reload Window with its rows and the sort it had', async () => {
    await u.palette('Persona Lab: Show Experiment Table');
    let table = await wb.findWebviewFrame('table.experiments tbody tr.exp-row', { timeout: 60_000 });
    const head = (t: typeof table) => t.locator('th[data-key="delta0"]').getAttribute('aria-sort');
    if ((await head(table)) !== 'ascending') {
      await table.locator('th[data-key="delta0"] button').click();
      if ((await head(table)) !== 'ascending') await table.locator('th[data-key="delta0"] button').click();
    }
    expect(await head(table)).toBe('ascending');
    const before = await table.locator('tbody tr.exp-row .name').evaluateAll((els) => els.map((e) => e.dataset.full));
    const reloaded = wb.page.waitForEvent('load', { timeout: 60_000 });
    await wb.runCommand('Developer: Reload Window').catch(() => {});
    await reloaded;
    await wb.waitForWorkbench();
    await wb.editor.tab('Experiments').click({ timeout: 60_000 });
    table = await wb.findWebviewFrame('table.experiments tbody tr.exp-row', { timeout: 90_000 });
    await wb.waitForExtensionHostLine('personaLab.experimentTable: restored');
    expect(await head(table)).toBe('ascending');
    expect(await table.locator('tbody tr.exp-row .name').evaluateAll((els) => els.map((e) => e.dataset.full))).toEqual(
      before,
    );
    await wb.screenshot('experiments-table-restored');
  });
});
