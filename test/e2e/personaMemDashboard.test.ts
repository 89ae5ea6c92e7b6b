// PersonaMem's dashboard in the real workbench on sample/ (which holds all three benchmarks): opened from the
// PersonaMem benchmark row's own Open Dashboard action (the dashboard host's one command, offered on the rows whose
// format has a dashboard), its per-type table holds the figures of `score --json` of the same folder (computed here
// from the core, as the CLI computes them), what each run covers of the split says which split and how many of its
// questions the run answered, the run over part of the split is marked in the table, the charts drew, and a copy
// reaches the extension.
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { personaMem } from '../../src/core/personamem/format';
import { scoreJson } from '../../src/core/personamem/report';
import { scorePersonaMemRun } from '../../src/core/personamem/score';
import { SKILL_HEADS, type PersonaMemBench } from '../../src/core/personamem/types';
import { repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { clickRowAction } from './support/sideBar';
import { treePage } from './treePage';
import type { PmScoreJson } from '../support/personaMemScoreJson';

const sample = join(repoRoot, 'sample');
const folder = join(sample, 'personamem');
const pct = (x: number | null | undefined) => (x === null || x === undefined ? '—' : (100 * x).toFixed(2));

describe('PersonaMem dashboard in the real workbench', () => {
  let wb: Workbench;
  let json: PmScoreJson;
  let dash: Frame;
  const { waitRow, rowLocator, runCommandWithInput, quickPickRow } = treePage(() => wb);

  beforeAll(async () => {
    const bench = (await personaMem.load(folder)).bench as PersonaMemBench;
    // the JSON `score --json` prints, through the same text
    const scores = [...bench.runs.values()].map((run) => scorePersonaMemRun(bench, run));
    json = JSON.parse(JSON.stringify(scoreJson(bench, scores))) as PmScoreJson;
    wb = await startWorkbench({ folder: sample, theme: 'dark', viewport: { width: 1600, height: 1000 } });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`pmdash-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
  });

  it("opens from the PersonaMem row's Open Dashboard action", async () => {
    await wb.openView('Persona Lab');
    await waitRow('personamem', 1, (r) => r.description.includes('run:'), 'the PersonaMem root with its run');
    // Every benchmark of the folder loaded first: a benchmark's load or reload refreshes the whole view, and while
    // VS Code refreshes it, a row's action reaches the command without its row (then Open Dashboard asks which).
    await waitFor(async () => /^runs: /.test((await wb.sideBar.benchmarks.description().textContent()) ?? ''), {
      timeout: 60_000,
      message: "the Benchmarks view's description naming every benchmark's run, none loading",
    });
    const row = rowLocator('personamem', 1).first();
    await clickRowAction(row, 'Open Dashboard');
    dash = await wb.findWebviewFrame('#pmdash-root[data-state="shown"]', { timeout: 60_000 });
    await wb.waitForExtensionHostLine(/PersonaMem dashboard: showing 2 run\(s\)/);
  });

  it('the per-type table holds the figures of score --json, run by run', async () => {
    const rows = await dash.locator('[data-table="personamem-types-32k"] tbody tr').evaluateAll((trs) =>
      trs.map((tr) => ({
        run: tr.getAttribute('data-run') ?? '',
        coverage: tr.querySelector('th')?.getAttribute('data-coverage') ?? null,
        cells: [...tr.querySelectorAll('td')].map((td) => [
          (td.getAttribute('data-col') ?? '').trim(),
          td.querySelector('.num')?.textContent ?? '',
        ]),
      })),
    );
    expect(rows.map((r) => r.run)).toEqual(json.runs.map((r) => r.name));
    let checked = 0;
    for (const row of rows) {
      const run = json.runs.find((r) => r.name === row.run)!;
      const expected = new Map<string, string>([['Overall', pct(run.accuracy)]]);
      for (const [skill, t] of Object.entries(run.byType))
        expected.set(`Question type ${SKILL_HEADS[skill] ?? skill}`, pct(t.accuracy));
      for (const [col, text] of row.cells) {
        // a type this run has no row of is "—" (another run answered it, so the column is there)
        expect(text, `${row.run} ${col}`).toBe(expected.get(col) ?? '—');
        if (expected.has(col)) checked++;
      }
      expect(checked).toBeGreaterThan(0);
      // the run over part of the split carries what it covers under its name
      if (run.coverage.whole) expect(row.coverage).toBeNull();
      else expect(row.coverage).toContain(`${run.coverage.questions.covered} of ${run.coverage.questions.total}`);
    }
    expect(checked).toBe(json.runs.reduce((n, r) => n + 1 + Object.keys(r.byType).length, 0));
    const title = await dash.locator('[data-table="personamem-types-32k"] h3').innerText();
    expect(title).toContain(`32k split (${json.splits[0].questions} questions)`);
    await wb.screenshot('pmdash-types');
  });

  it('says which split and how many of its questions each run answered: whole or part of the split', async () => {
    const lines = await dash.locator('[data-split="32k"] ul.runs li').evaluateAll((lis) =>
      lis.map((li) => ({
        run: li.getAttribute('data-run'),
        whole: li.getAttribute('data-whole'),
        text: li.textContent,
      })),
    );
    expect(lines.map((l) => l.run)).toEqual(json.runs.map((r) => r.name));
    for (const run of json.runs) {
      const line = lines.find((l) => l.run === run.name)!;
      const { covered, total } = run.coverage.questions;
      expect(line.whole).toBe(String(run.coverage.whole));
      expect(line.text).toContain(covered === total ? `all ${total} questions` : `${covered} of ${total} questions`);
      expect(line.text).toContain('of the 32k split');
      expect(line.text).toContain(run.coverage.whole ? 'the whole split' : 'part of the split');
    }
    // each table says the same under its title
    for (const id of ['personamem-types-32k', 'personamem-topics-32k']) {
      const covers = await dash.locator(`[data-table="${id}"] .table-covers`).innerText();
      expect(covers).toMatch(/^Over the 32k split: /);
      for (const run of json.runs) {
        const { covered, total } = run.coverage.questions;
        const part = run.coverage.whole ? `all ${total} questions (whole)` : `${covered} of ${total} questions (part)`;
        expect(covers).toContain(`${run.name} ${part}`);
      }
    }
    // one split only: no table by context length, and the page says why
    expect(await dash.locator('[data-lengths="none"] .lengths-note').innerText()).toContain('32k split only');
  });

  it('draws a chart per table and copies a table', async () => {
    for (const id of ['personamem-types-32k', 'personamem-topics-32k']) {
      const width = await waitFor(
        async () => {
          const w = await dash.locator(`[data-chart="${id}"] canvas`).evaluate((c) => (c as HTMLCanvasElement).width);
          return w > 0 ? w : undefined;
        },
        { timeout: 30_000, message: `the chart of ${id}` },
      );
      expect(width).toBeGreaterThan(0);
    }
    await dash.locator('[data-table="personamem-types-32k"] vscode-button', { hasText: 'Markdown' }).click();
    await wb.waitForExtensionHostLine(/PersonaMem dashboard: copied personamem-types-32k as markdown \(\d+ chars\)/);
  });

  it('Open Dashboard from the palette asks which benchmark when several are open, and opens that one', async () => {
    await runCommandWithInput('Persona Lab: Open Dashboard');
    const pick = quickPickRow('OmniBehavior');
    await pick.waitFor({ state: 'visible', timeout: 30_000 });
    await expect(quickPickRow('PersonaMem').count()).resolves.toBe(1);
    await pick.click();
    await wb.findWebviewFrame('#omnidash-root[data-run]', { timeout: 60_000 });
  });
});
