// The adjudication pass in the real workbench (code-server) on a fresh copy of sample/: alice and bob label four steps
// (made here through the core's LabelStore), disagreeing on two. Adjudicate Labels… over the Disagreements list opens
// the first open step with both annotators' labels and notes side by side; `1` takes alice's labels as gold and the
// pass moves to the next open step, the Benchmarks view's progress follows, `u` undoes; and `labels gold --json`
// (the built CLI) agrees with what the view shows after each. Then labels another process writes on an OmniBehavior
// test action join the pass, `.` walks round to it in the trace view, `2` takes bob's labels, and `g` sets a step's
// gold labels directly. Last, the Label Agreement view's button starts the pass on its Disagreements list; the gold
// section shows the report, and each run dashboard's why-runs-fail section shows the runs of `labels gold --json`.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TRACE_LABELS } from '../../src/core/omni/labels/labelSet';
import { LabelStore } from '../../src/core/labels/store';
import { defaultLabelSet, labelNames } from '../../src/core/labels/taxonomy';
import { traceLabelKey } from '../../src/core/omni/labels/trace';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { resultFor } from '../../src/core/spb/score/run';
import { pressIn, repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { cli, labelsPage } from './labelsPage';
import { expectedSection, goldRuns, readSection, waitForGoldCounts } from './goldPage';

interface GoldJsonUnit {
  userId: string;
  stepId: number;
  status: string;
  gold: string[] | null;
  annotators: Record<string, string[]>;
  adjudicator?: string;
}
interface GoldJson {
  counts: { adjudicated: number; unanimous: number; open: number; single: number; units: number };
  benchmarks: { benchmark: string; units: GoldJsonUnit[] }[];
}

const ADJUDICATOR = 'judy';
const NOTE = 'the persona keeps a stale interest';

describe('the adjudication pass in the real workbench', () => {
  let wb: Workbench;
  let tmp: string;
  let db: string;
  let steps: { userId: string; stepId: number }[];
  let open: GoldJsonUnit[];
  let root: string;
  /** The test action alice and bob disagree on. */
  let traceUnit: { userId: string; index: number; run: string };
  const names = labelNames(defaultLabelSet());
  const { palette, pick } = labelsPage(() => wb);

  const gold = () => JSON.parse(cli(['labels', 'gold', db, '--json'])) as GoldJson;
  const unitOf = (j: GoldJson, s: { userId: string; stepId: number }, benchmark = 'sample') =>
    j.benchmarks
      .find((b) => b.benchmark === benchmark)!
      .units.find((u) => u.userId === s.userId && u.stepId === s.stepId)!;
  const stepFrame = (s: { userId: string; stepId: number }, state: string) =>
    wb.findWebviewFrame(
      `#step-root[data-step="weibo/${s.userId}/${s.stepId}"] section.adjudication[data-state="${state}"]`,
      {
        timeout: 60_000,
      },
    );
  const progress = (text: string) =>
    waitFor(
      async () =>
        (
          await wb.sideBar.benchmarks
            .message()
            .innerText()
            .catch(() => '')
        ).includes(text),
      {
        timeout: 30_000,
        message: `the Benchmarks view to say ${text}`,
      },
    );

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-adjudicate-'));
    root = join(tmp, 'sample');
    cpSync(join(repoRoot, 'sample'), root, { recursive: true });
    const bench = await loadBenchmark(root);
    const run = bench.runs.get([...bench.runs.keys()][0])!;
    steps = [...bench.users.get('weibo')!.values()]
      .flatMap((u) =>
        u.steps.filter((s) => resultFor(run, u, s.stepId)).map((s) => ({ userId: u.userId, stepId: s.stepId })),
      )
      .slice(0, 4);
    expect(steps).toHaveLength(4);
    mkdirSync(join(root, '.personalab'), { recursive: true });
    db = join(root, '.personalab', 'labels.db');
    // Steps 0 and 1: alice says decay-error, bob pi-leak (open). Steps 2 and 3: both decay-error (agreed).
    const store = LabelStore.open(db);
    try {
      steps.forEach((s, i) => {
        for (const author of ['alice', 'bob']) {
          const label = i < 2 && author === 'bob' ? 'pi-leak' : 'decay-error';
          const note = i < 2 && author === 'alice' ? NOTE : '';
          store.add({
            benchmark: 'sample',
            platform: 'weibo',
            ...s,
            run: run.name,
            author,
            target: { kind: 'step' },
            label,
            note,
          });
        }
      });
    } finally {
      store.close();
    }
    const before = gold();
    expect(before.counts).toMatchObject({ adjudicated: 0, unanimous: 2, open: 2 });
    // The pass walks the open units in the gold set's reading order, which the CLI lists.
    open = before.benchmarks[0].units.filter((u) => u.status === 'open');
    expect(open).toHaveLength(2);
    wb = await startWorkbench({
      folder: root,
      theme: 'dark',
      viewport: { width: 1600, height: 1000 },
      settings: { 'personaLab.labels.author': ADJUDICATOR },
    });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`adjudication-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("opens the first open step with both annotators' labels and notes side by side", async () => {
    await wb.openView('Persona Lab');
    await wb.sideBar.benchmarks.rows().first().waitFor({ state: 'visible', timeout: 60_000 });
    await palette('Persona Lab: Adjudicate Labels…');
    await pick('Disagreements', 'Disagreements');
    const frame = await stepFrame(open[0], 'open');
    const section = frame.locator('section.adjudication');
    const columns = await section
      .locator('.annotator')
      .evaluateAll((els) =>
        els.map((e) => [
          (e as HTMLElement).dataset.author,
          [...e.querySelectorAll('ul.labels li')].map((li) => li.textContent),
        ]),
      );
    expect(columns).toEqual([
      ['alice', [names.get('decay-error')]],
      ['bob', [names.get('pi-leak')]],
    ]);
    expect(await section.locator('.annotator[data-author="alice"] ul.notes').innerText()).toContain(NOTE);
    expect(await section.locator('.gold').innerText()).toBe('Gold: not settled');
    await progress('0 settled · 2 agreed · 2 open of 4');
    await wb.screenshot('adjudication-open');

    // The ? sheet lists the pass's keys first; the bar no longer offers the digits as label toggles.
    await section.locator('.adjudication-head').click();
    await pressIn(frame.locator('body'), '?');
    const sheet = frame.locator('.cheatsheet');
    await sheet.waitFor({ timeout: 30_000 });
    expect(
      await sheet
        .locator('.cheatsheet-adjudication tr[data-keys]')
        .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-keys'))),
    ).toEqual(['1 2', 'g', 'u', '.']);
    await wb.screenshot('adjudication-keys-sheet');
    await pressIn(sheet, 'Escape');
    await sheet.waitFor({ state: 'detached', timeout: 30_000 });
    expect(await frame.locator('.labels-bar .labels-keys').getAttribute('title')).not.toContain('toggle a label');
    expect(await frame.locator('.labels-bar .label-chip kbd').first().isVisible()).toBe(false);
  });

  it('settles a step with a number key, moves on, and undoes; `labels gold --json` agrees each time', async () => {
    let frame: Frame = await stepFrame(open[0], 'open');
    await frame.locator('section.adjudication .adjudication-head').click();
    await pressIn(frame.locator('body'), '1');

    // The pass goes on to the other open step; the first is settled on alice's labels, by the adjudicator.
    frame = await stepFrame(open[1], 'open');
    await progress('1 settled · 2 agreed · 1 open of 4');
    let j = gold();
    expect(j.counts).toMatchObject({ adjudicated: 1, unanimous: 2, open: 1 });
    expect(unitOf(j, open[0])).toMatchObject({
      status: 'adjudicated',
      gold: ['decay-error'],
      adjudicator: ADJUDICATOR,
    });
    expect(unitOf(j, open[1]).status).toBe('open');
    expect(await frame.locator('section.adjudication .adjudication-head').innerText()).toContain(
      '1 settled · 2 agreed · 1 open of 4',
    );

    // Undo: the decision is reverted and its step shown again, open.
    await frame.locator('section.adjudication .adjudication-head').click();
    await pressIn(frame.locator('body'), 'u');
    frame = await stepFrame(open[0], 'open');
    await progress('0 settled · 2 agreed · 2 open of 4');
    j = gold();
    expect(j.counts).toMatchObject({ adjudicated: 0, unanimous: 2, open: 2 });
    expect(unitOf(j, open[0])).toMatchObject({ status: 'open', gold: null });
    expect(unitOf(j, open[0]).annotators).toEqual({ alice: ['decay-error'], bob: ['pi-leak'] });
    expect(await frame.locator('section.adjudication .gold').innerText()).toBe('Gold: not settled');
  });

  it("walks on to a test action in the trace view, takes bob's labels there, and sets a step's labels directly", async () => {
    // alice and bob disagree on one OmniBehavior test action, written while the pass is on.
    const omniRoot = join(root, 'omnibehavior');
    const omni = await loadOmniBenchmark(omniRoot);
    const run = [...omni.runs.keys()].sort()[0];
    const user = [...omni.users.values()].sort((a, b) => a.userId.localeCompare(b.userId))[0];
    const action = [...user.testActions].sort((a, b) => a.index - b.index)[0];
    const [first, second] = DEFAULT_TRACE_LABELS;
    const ref = { benchmark: 'omnibehavior', userId: user.userId, index: action.index, run };
    traceUnit = { userId: user.userId, index: action.index, run };
    const store = LabelStore.open(db);
    try {
      store.add(traceLabelKey(ref, { kind: 'action' }, 'alice', first.id));
      store.add(traceLabelKey(ref, { kind: 'action' }, 'bob', second.id));
    } finally {
      store.close();
    }
    await progress('0 settled · 2 agreed · 3 open of 5');

    // `.` goes on: the other open step, then round to the test action (its benchmark comes first in reading order).
    let frame: Frame = await stepFrame(open[0], 'open');
    await frame.locator('section.adjudication .adjudication-head').click();
    await pressIn(frame.locator('body'), '.');
    frame = await stepFrame(open[1], 'open');
    await frame.locator('section.adjudication .adjudication-head').click();
    await pressIn(frame.locator('body'), '.');
    const trace = await wb.findWebviewFrame(
      `#trace-root[data-trace="${user.userId}#${action.index}"] section.adjudication[data-state="open"]`,
      { timeout: 60_000 },
    );
    const section = trace.locator('section.adjudication');
    expect(
      await section
        .locator('.annotator')
        .evaluateAll((els) =>
          els.map((e) => [
            (e as HTMLElement).dataset.author,
            [...e.querySelectorAll('ul.labels li')].map((li) => li.textContent),
          ]),
        ),
    ).toEqual([
      ['alice', [first.name]],
      ['bob', [second.name]],
    ]);
    await wb.screenshot('adjudication-trace');
    // The bar's key help leaves the digits, u and . to the pass.
    const help = await trace.locator('.labels-bar .labels-help').innerText();
    expect(help).not.toContain('toggle');
    expect(help).toContain('note');

    await section.locator('.adjudication-head').click();
    await pressIn(trace.locator('body'), '2');
    await progress('1 settled · 2 agreed · 2 open of 5');
    const j = gold();
    expect(unitOf(j, { userId: user.userId, stepId: action.index }, 'omnibehavior')).toMatchObject({
      status: 'adjudicated',
      gold: [second.id],
      adjudicator: ADJUDICATOR,
    });
    expect(j.counts).toMatchObject({ adjudicated: 1, unanimous: 2, open: 2 });
    // The pass went on to the first open step, where `g` sets the gold labels directly: the pick ticks what every
    // annotator gave (nothing in common here), and Enter with none ticked settles on "no label applies".
    const step = await stepFrame(open[0], 'open');
    await step.locator('section.adjudication .adjudication-head').click();
    await pressIn(step.locator('body'), 'g');
    await wb.quick.title(/the gold labels of this unit/).waitFor({ timeout: 30_000 });
    expect(await wb.quick.checkedRows().count()).toBe(0);
    await wb.quick.press('Enter');
    await progress('2 settled · 2 agreed · 1 open of 5');
    expect(unitOf(gold(), open[0])).toMatchObject({ status: 'adjudicated', gold: [], adjudicator: ADJUDICATOR });
    await stepFrame(open[1], 'open');
  });

  it("stops, then starts again from the Label Agreement view's Adjudicate button", async () => {
    // The command again offers to stop: the section and the progress go.
    const shown = await stepFrame(open[1], 'open');
    await palette('Persona Lab: Adjudicate Labels…');
    await pick('Stop adjudicating', 'Stop adjudicating');
    await waitFor(async () => (await shown.locator('section.adjudication').count()) === 0, {
      timeout: 30_000,
      message: 'the adjudication section to go',
    });
    await waitFor(
      async () =>
        !(
          await wb.sideBar.benchmarks
            .message()
            .innerText()
            .catch(() => '')
        ).includes('settled'),
      {
        timeout: 30_000,
        message: 'the progress to leave the Benchmarks view',
      },
    );

    await palette('Persona Lab: Label Summary');
    const table = await wb.findWebviewFrame('#agreement-root .actions', { timeout: 60_000 });
    await table.locator('#agreement-root .actions vscode-button', { hasText: 'Adjudicate…' }).click();
    // Everything else is settled: the one open step left opens, with the progress.
    const frame = await stepFrame(open[1], 'open');
    expect(await frame.locator('section.adjudication .adjudication-head').innerText()).toContain(
      'Adjudicating the Disagreements list',
    );
    await progress('2 settled · 2 agreed · 1 open of 5');
  });

  it('shows the gold counts, why runs fail and each annotator against gold in the Label Agreement, as labels gold --json', async () => {
    const page = await wb.findWebviewFrame('#agreement-root section.gold .gold-benchmark[data-benchmark="sample"]', {
      timeout: 60_000,
    });
    type Json = {
      benchmarks: {
        benchmark: string;
        counts: GoldJson['counts'];
        runs: { run: string; settled: number; failing: number }[];
        annotators: { author: string; units: number }[];
      }[];
    };
    const b = (JSON.parse(cli(['labels', 'gold', db, '--json'])) as Json).benchmarks.find(
      (x) => x.benchmark === 'sample',
    )!;
    const block = page.locator('#agreement-root section.gold .gold-benchmark[data-benchmark="sample"]');
    const c = b.counts;
    await waitForGoldCounts(block, c);
    expect(c.adjudicated).toBeGreaterThan(0);
    expect(await block.locator('table.why-runs-fail thead tr:first-child th').allInnerTexts()).toEqual([
      'Label',
      ...b.runs.map((r) => r.run),
    ]);
    expect(await block.locator('table.why-runs-fail tr.settled td').allInnerTexts()).toEqual(
      b.runs.map((r) => `${r.failing} of ${r.settled}`),
    );
    expect(await block.locator('table.against-gold tr.overall td:first-child').allInnerTexts()).toEqual(
      b.annotators.map((a) => a.author),
    );
    await block.scrollIntoViewIfNeeded();
    await wb.screenshot('adjudication-gold');

    // Copy as Markdown carries the gold section with the same cells.
    await wb.context.grantPermissions(['clipboard-read', 'clipboard-write']).catch(() => undefined);
    await page.locator('#agreement-root .actions vscode-button', { hasText: 'Copy as Markdown' }).click();
    const clipboard = () => wb.page.evaluate(() => navigator.clipboard.readText()).catch(() => '');
    await waitFor(async () => (await clipboard()).includes('## Gold'), {
      timeout: 30_000,
      message: 'the Markdown on the clipboard to carry the gold section',
    });
    const md = (await clipboard()).split('\n');
    expect(md).toContain(`| failing of settled | ${b.runs.map((r) => `${r.failing} of ${r.settled}`).join(' | ')} |`);
    expect(md).toContain('### Each annotator against gold');
  });

  it("opens a test action's disagreement row of the Label Summary in the trace view (OmniBehavior's label part)", async () => {
    await wb.runCommand('View: Close All Editors');
    await palette('Persona Lab: Label Summary');
    const section = '#agreement-root section.benchmark[data-benchmark="omnibehavior"]';
    const page = await wb.findWebviewFrame(`${section} table.unit-disagreements tr.disagreement`, { timeout: 60_000 });
    const row = page.locator(`${section} table.unit-disagreements tr.disagreement`);
    const { userId, index, run } = traceUnit;
    expect(await row.locator('th.where').allInnerTexts()).toEqual([`${userId} · test action #${index} · run ${run}`]);
    await row.first().click();
    await wb.findWebviewFrame(`#trace-root[data-trace="${userId}#${index}"]`, { timeout: 60_000 });
  });

  it("shows each run dashboard's why-runs-fail table as labels gold --json's runs, and PersonaMem's empty state", async () => {
    const runsOf = (benchmark: string) => goldRuns(db, benchmark);
    const expected = expectedSection;

    await palette('Persona Lab: Open Dashboard');
    await pick('StreamProfileBench', 'StreamProfileBench');
    const spb = await wb.findWebviewFrame(
      '#dash-root[data-page="dashboard"] .why-runs-fail-section[data-state="shown"]',
      {
        timeout: 90_000,
      },
    );
    const shown = await readSection(spb, '#dash-root');
    expect(shown).toMatchObject(expected(runsOf('sample')));
    expect(shown.covers).toContain('"sample"');
    expect(shown.covers).toContain('labels.db');
    await spb.locator('.why-runs-fail-section').scrollIntoViewIfNeeded();
    await wb.screenshot('adjudication-dashboard-why-runs-fail');

    await palette('Persona Lab: Open Dashboard');
    await pick('OmniBehavior', 'OmniBehavior');
    const omni = await wb.findWebviewFrame('#omnidash-root .why-runs-fail-section[data-state="shown"]', {
      timeout: 60_000,
    });
    expect(await readSection(omni, '#omnidash-root')).toMatchObject(expected(runsOf('omnibehavior')));

    // No PersonaMem question is labelled: the section says so and what it would cover, with no table.
    await palette('Persona Lab: Open Dashboard');
    await pick('PersonaMem', 'PersonaMem');
    const pm = await wb.findWebviewFrame('#pmdash-root .why-runs-fail-section[data-state="no-gold"]', {
      timeout: 60_000,
    });
    const empty = pm.locator('.why-runs-fail-section');
    expect(await empty.locator('table').count()).toBe(0);
    expect(await empty.locator('.empty').innerText()).toContain('No gold yet');
    expect(await empty.locator('.covers').innerText()).toContain('"personamem"');
  });
});
