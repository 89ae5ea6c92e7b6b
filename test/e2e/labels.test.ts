// Failure labels in the real workbench (code-server) on a fresh copy of sample/: three steps labelled with the
// keyboard alone (a number key, the suggestions key, a note, undo), a tag and a persona span labelled after
// selecting them, badges and counts in the tree, the tree filtered by label, Next Unlabelled Step, Export Labels
// through the workbench's own save dialog (checked against the database), Import Labels with its conflict table
// (nothing preselected, Apply refused until each conflict is decided, Cancel writing nothing), the label set's
// problems in the Problems panel, and the Label Summary's agreement table (live on the CLI's writes, cell by cell as
// `labels summary --json`, its rows opening the disagreeing steps and test actions). Screenshots go to test-results/e2e/.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseLabelFile } from '../../src/core/labels/exportImport';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { resultFor } from '../../src/core/spb/score/run';
import type { Benchmark, Run, User } from '../../src/core/spb/types';
import { pressIn, repoRoot, startWorkbench, typeInto, waitFor, type Workbench } from './harness';
import {
  cli,
  expectedAgreementCells,
  importLine,
  labelRows,
  labelsPage,
  shownAgreementCells,
  suggestionsFor,
} from './labelsPage';

const AUTHOR = 'e2e-annotator';

describe('failure labels in the real workbench', () => {
  let wb: Workbench;
  let tmp: string;
  let root: string;
  let bench: Benchmark;
  let run: Run;
  let user: User;
  let frame: Frame;
  const dbRows = () => labelRows(join(root, '.personalab', 'labels.db'));
  const rowsOfStep = (stepId: number) =>
    dbRows()
      .filter((r) => r.stepId === stepId)
      .map((r) => `${r.label}@${r.target}${r.note ? `:${r.note}` : ''}`)
      .sort();

  const stepKey = (stepId: number) => `weibo/${user.userId}/${stepId}`;
  const showing = (stepId: number) =>
    waitFor(
      async () =>
        (await frame.locator('#step-root').getAttribute('data-step')) === stepKey(stepId) &&
        (await frame.locator('.labels-bar').count()) > 0,
      { message: `step ${stepId} with its labels bar` },
    );
  const chip = (id: string) => frame.locator(`.label-chip[data-label-id="${id}"]`);
  const pressed = (id: string, on: boolean) =>
    waitFor(async () => (await chip(id).getAttribute('aria-pressed')) === String(on), {
      message: `${id} to be ${on ? 'on' : 'off'}`,
    });

  const { palette, pick, dialogPath, treeRows, expandRow } = labelsPage(() => wb);

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-labels-'));
    root = join(tmp, 'sample');
    cpSync(join(repoRoot, 'sample'), root, { recursive: true });
    bench = await loadBenchmark(root);
    run = bench.runs.get([...bench.runs.keys()][0])!;
    // A weibo user whose first four steps have results: step 2 with suggestions (confirmed with `a`).
    user = [...bench.users.get('weibo')!.values()].find(
      (u) =>
        u.steps.length >= 4 &&
        u.steps.every((s) => resultFor(run, u, s.stepId)) &&
        suggestions(u, 2).length > 0 &&
        suggestions(u, 1).includes('decay-error'),
    )!;
    expect(user, 'a weibo user with four steps in the first run').toBeDefined();
    wb = await startWorkbench({
      folder: root,
      theme: 'dark',
      viewport: { width: 1600, height: 1000 },
      settings: { 'personaLab.labels.author': AUTHOR },
    });
  });

  const suggestions = (u: User, stepId: number) => suggestionsFor(run, u, stepId);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`labels-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('labels three steps with the keyboard alone', async () => {
    await wb.openView('Persona Lab');
    await waitFor(() => wb.sideBar.benchmarks.rows().count(), {
      timeout: 60_000,
      message: 'the benchmark tree',
    });
    await palette('Persona Lab: Open Step');
    await pick(user.userId, user.userId);
    await pick('step 1/', `step 1/${user.steps[0].totalSteps}`);
    frame = await wb.findWebviewFrame(`#step-root[data-step="${stepKey(1)}"] .labels-bar`, { timeout: 60_000 });
    // Suggestions are shown, dashed, and not stored.
    await frame.locator('.label-chip.suggested[data-label-id="decay-error"]').waitFor();
    expect(dbRows()).toEqual([]);
    await wb.screenshot('labels-step-suggested');

    // Step 1: one key labels it, one key moves on.
    await pressIn(frame.locator('body'), '1');
    await pressed('decay-error', true);
    expect(rowsOfStep(1)).toEqual(['decay-error@step']);
    await pressIn(frame.locator('body'), 'j');
    await showing(2);

    // Step 2: accept every suggestion with one key; Ctrl+Z and `u` undo, ArrowUp / ArrowDown move.
    const step2 = suggestions(user, 2).sort();
    await pressIn(frame.locator('body'), 'a');
    await waitFor(async () => rowsOfStep(2).length === step2.length, {
      message: 'the accepted suggestions in the database',
    });
    expect(rowsOfStep(2)).toEqual(step2.map((l) => `${l}@step`));
    await pressIn(frame.locator('body'), 'Control+z');
    await waitFor(() => rowsOfStep(2).length === 0, { message: 'Ctrl+Z to undo the accepted suggestions' });
    await pressIn(frame.locator('body'), 'a');
    await waitFor(() => rowsOfStep(2).length === step2.length, { message: 'the suggestions accepted again' });
    await pressIn(frame.locator('body'), 'ArrowUp');
    await showing(1);
    await pressIn(frame.locator('body'), 'ArrowDown');
    await showing(2);
    await pressIn(frame.locator('body'), 'j');
    await showing(3);

    // Step 3: a label and its note, a label undone with `u`.
    await pressIn(frame.locator('body'), '7');
    await pressed('format-error', true);
    await pressIn(frame.locator('body'), 'n');
    const note = frame.locator('.note-row input');
    await note.waitFor();
    await typeInto(note, 'count differs from k');
    await pressIn(note, 'Enter');
    await waitFor(() => rowsOfStep(3).join() === 'format-error@step:count differs from k', {
      message: 'the note in the database',
    });
    await pressIn(frame.locator('body'), '2');
    await pressed('peer-confusion', true);
    await pressIn(frame.locator('body'), 'u');
    await pressed('peer-confusion', false);
    expect(rowsOfStep(3)).toEqual(['format-error@step:count differs from k']);
    expect(await frame.locator('.applied-item .note').innerText()).toContain('count differs from k');
    await wb.screenshot('labels-step-labelled');
  });

  it('labels a single pool tag and a persona span after selecting them', async () => {
    const step = user.steps[2];
    const decayTag = step.split.dDecay[0] ?? step.split.tNew[0];
    const tagChip = frame
      .locator('[data-section="pool"] li.tag')
      .filter({ has: frame.locator('.tag-text', { hasText: decayTag }) })
      .first();
    await tagChip.click();
    await frame.locator('.labels-target[data-target-kind="tag"]').waitFor();
    await pressIn(frame.locator('body'), '1');
    await waitFor(() => rowsOfStep(3).includes(`decay-error@tag:${decayTag}`), {
      message: 'the tag label in the database',
    });
    await waitFor(() => tagChip.locator('.tag-labels').count(), { message: 'the tag chip to show its label' });
    await pressIn(frame.locator('body'), 'Escape');
    await frame.locator('.labels-target[data-target-kind="step"]').waitFor();

    // Select the first four characters of the written persona, then the persona drift key.
    const persona = resultFor(run, user, step.stepId)!.personaSummary;
    await frame.locator('[data-section="persona"]').evaluate((e) => e.scrollIntoView());
    await frame.locator('.persona-box.written .prose').evaluate((box) => {
      const text = box.firstChild!;
      const range = document.createRange();
      range.setStart(text, 0);
      range.setEnd(text, 4);
      document.getSelection()!.removeAllRanges();
      document.getSelection()!.addRange(range);
    });
    await frame.locator('.labels-target[data-target-kind="span"]').waitFor();
    await pressIn(frame.locator('body'), '8');
    await waitFor(() => rowsOfStep(3).includes('persona-drift@span:0-4'), {
      message: 'the span label in the database',
    });
    expect(await frame.locator('mark.label-span').first().innerText()).toBe([...persona].slice(0, 4).join(''));
    await wb.screenshot('labels-tag-and-span');
    await frame.evaluate(() => window.scrollTo(0, 0));
  });

  it('shows badges and counts in the tree and filters it by label', async () => {
    // A wider side bar, so that the badges are readable in the screenshots.
    const box = await wb.sideBar.part().boundingBox();
    if (box) {
      await wb.page.mouse.move(box.x + box.width, box.y + box.height / 2);
      await wb.page.mouse.down();
      await wb.page.mouse.move(box.x + 560, box.y + box.height / 2, { steps: 5 });
      await wb.page.mouse.up();
    }
    await expandRow('Weibo', 2);
    await expandRow(user.userId, 3);
    await waitFor(
      async () =>
        (await treeRows()).find((r) => r.level === 4 && r.label === 'step 1')?.description.includes('⚑ D_decay pick'),
      { message: 'the badge on step 1' },
    );
    const rows = await treeRows();
    expect(rows.find((r) => r.level === 3 && r.label === user.userId)?.description).toContain('3 labelled');
    expect(rows.find((r) => r.level === 2 && r.label === 'Weibo')?.description).toContain('3 labelled');
    expect(rows.find((r) => r.level === 4 && r.label === 'step 4')?.description).not.toContain('⚑');

    await palette('Persona Lab: Filter Steps…');
    const input = wb.quick.input();
    await waitFor(() => input.isVisible(), { message: 'the filter pick' });
    // The unlabelled mode under a heading of its own, above the label list.
    const headings = await waitFor(
      async () => ((await wb.quick.separators()).length ? wb.quick.separators() : undefined),
      {
        message: 'the filter pick’s headings',
      },
    );
    expect(headings.slice(0, 2)).toEqual(['Mode', 'Labels (yours, in the run)']);
    await wb.screenshot('labels-filter-pick');
    await input.fill('Format error');
    const labelRow = wb.quick.rows().filter({ hasText: 'key 7' }).first();
    await wb.checkQuickPickRow(labelRow);
    await wb.quick.press('Enter');
    await waitFor(
      async () => {
        const steps = (await treeRows()).filter((r) => r.level === 4).map((r) => r.label);
        return steps.join() === 'step 3';
      },
      { message: 'only step 3 in the tree' },
    );
    const message = wb.sideBar.benchmarks.message();
    await waitFor(
      async () => /Filter: label Format error — 1 step\(s\) match/.test(await message.innerText().catch(() => '')),
      { message: 'the filter message' },
    );
    await wb.screenshot('labels-tree-filtered');
    await palette('Persona Lab: Clear Step Filter');
    await waitFor(async () => (await treeRows()).filter((r) => r.level === 4).length === user.steps.length, {
      message: 'every step back',
    });

    // Failed requests (the reference's error record) are a signature of their own: the sample's demo-llm has one.
    await palette('Persona Lab: Filter Steps…');
    await waitFor(() => input.isVisible(), { message: 'the filter pick' });
    await input.fill('Failed request');
    const failedRow = wb.quick.rows().filter({ hasText: "the reference's error record" }).first();
    await wb.checkQuickPickRow(failedRow);
    await wb.quick.press('Enter');
    await waitFor(
      async () => /Filter: Failed request — 1 step\(s\) match/.test(await message.innerText().catch(() => '')),
      { message: 'the failed-request filter message' },
    );
    await palette('Persona Lab: Clear Step Filter');
    await waitFor(async () => !/Filter:/.test(await message.innerText().catch(() => '')), {
      message: 'the filter cleared',
    });
  });

  it('Next Unlabelled Step (the . key, Alt+. in the workbench) jumps to the next step without a label', async () => {
    await frame.locator('.user-id').click();
    await pressIn(frame.locator('body'), '.');
    await showing(4);
    await pressIn(frame.locator('body'), 'a');
    await waitFor(() => rowsOfStep(4).length === suggestions(user, 4).length, { message: 'step 4 labelled' });
    const users = [...bench.users.get('weibo')!.values()];
    const next = users.slice(users.indexOf(user) + 1).find((u) => u.steps.length > 0)!;
    await pressIn(frame.locator('body'), 'Alt+Period');
    await waitFor(
      async () =>
        (await frame.locator('#step-root').getAttribute('data-step')) ===
        `weibo/${next.userId}/${next.steps[0].stepId}`,
      { message: "the next user's first step" },
    );
  });

  it('exports the labels through the save dialog, as in the database', async () => {
    const out = join(tmp, 'export', 'labels.jsonl');
    mkdirSync(join(tmp, 'export'));
    await palette('Persona Lab: Export Labels…');
    // code-server's save dialog is the workbench's own: a quick input holding the path.
    await dialogPath(out, (v) => v.endsWith('.jsonl'), 'the save dialog');
    await waitFor(() => existsSync(out), { message: 'the exported file' });
    const exported = parseLabelFile(readFileSync(out, 'utf8'), out, 'jsonl');
    expect(exported.diagnostics).toEqual([]);
    const shown = exported.rows
      .map(({ row }) => `${row.stepId}:${row.label}:${row.target.kind}:${row.author}:${row.run}:${row.userId}`)
      .sort();
    const inDb = dbRows()
      .map((r) => `${r.stepId}:${r.label}:${r.target.split(':')[0]}:${r.author}:${run.name}:${user.userId}`)
      .sort();
    expect(shown).toEqual(inDb);
    expect(
      exported.rows.every(
        ({ row }) =>
          row.benchmark === 'sample' &&
          /^parts1:(?:[0-9a-f]{16}:){2}[0-9a-f]{16}$/.test(row.contentHash) &&
          row.platform === 'weibo',
      ),
    ).toBe(true);
    expect(exported.rows.length).toBe(1 + suggestions(user, 2).length + 3 + suggestions(user, 4).length);
    await wb.toasts('exported').first().waitFor();

    // CSV, chosen by the file's extension.
    const csv = join(tmp, 'export', 'labels.csv');
    await palette('Persona Lab: Export Labels…');
    await dialogPath(csv, (v) => v.endsWith('.jsonl'), 'the save dialog');
    await waitFor(() => existsSync(csv), { message: 'the CSV export' });
    const text = readFileSync(csv, 'utf8');
    expect(text.startsWith('benchmark,platform,user_id,step_id,run,author,label,target_kind,tag,')).toBe(true);
    const fromCsv = parseLabelFile(text, csv, 'csv');
    expect(fromCsv.diagnostics).toEqual([]);
    expect(fromCsv.rows.map(({ row }) => row)).toEqual(exported.rows.map(({ row }) => row));
  });

  it("imports another annotator's file, deciding each conflict in the conflict table before anything is written", async () => {
    const file = join(tmp, 'export', 'bob.jsonl');
    const line = (o: Record<string, unknown>) => importLine(user.userId, run.name, o);
    writeFileSync(
      file,
      [
        line({ step_id: 1, author: 'bob', label: 'decay-error' }),
        line({ step_id: 2, author: 'bob', label: 'pi-leak' }),
        // My own labels as another machine has them: three conflicts (a note, another label, another note).
        line({ step_id: 1, author: AUTHOR, label: 'decay-error', note: 'seen on my laptop' }),
        line({ step_id: 2, author: AUTHOR, label: 'pi-leak' }),
        line({ step_id: 3, author: AUTHOR, label: 'format-error', note: 'from my laptop' }),
        '{"not": "a label"',
      ].join('\n') + '\n',
    );
    const before = dbRows();
    const mine = (stepId: number) =>
      dbRows()
        .filter((r) => r.stepId === stepId && r.author === AUTHOR && r.target === 'step')
        .map((r) => `${r.label}${r.note ? `:${r.note}` : ''}`)
        .sort();
    const step2Before = mine(2);
    expect(step2Before.length).toBeGreaterThan(0);
    await palette('Persona Lab: Import Labels…');
    await dialogPath(file, (v) => v.endsWith('/'), 'the open dialog with the workspace folder');

    // The table: one row per conflict, both sides in full, no decision anywhere.
    const page = await wb.findWebviewFrame('#labelimport-root table.conflicts', { timeout: 60_000 });
    const root = page.locator('#labelimport-root');
    await waitFor(async () => (await root.getAttribute('data-undecided')) === '3', { message: 'three undecided rows' });
    const rows = page.locator('table.conflicts tbody tr');
    expect(await rows.count()).toBe(3);
    expect(await page.locator('.summary').innerText()).toBe(
      '5 label(s) read, 1 line(s) skipped (see the Problems panel), 2 new, 0 already present, 3 conflict(s)',
    );
    expect(await page.locator('vscode-radio[checked]').count()).toBe(0);
    expect(await rows.evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.decision))).toEqual([
      '',
      '',
      '',
    ]);
    const row = (stepId: number) => rows.filter({ has: page.locator('.where', { hasText: `step ${stepId} ·` }) });
    expect(await row(1).locator('td.theirs').innerText()).toContain('seen on my laptop');
    expect(await row(2).locator('td.theirs').innerText()).toContain('PI leak');
    expect(await row(3).locator('td.mine').innerText()).toContain('count differs from k');
    expect(await row(3).locator('td.theirs').innerText()).toContain('from my laptop');
    expect(await page.locator('.progress').innerText()).toBe('0 of 3 conflict(s) decided');
    await palette('Notifications: Clear All Notifications');
    await wb.screenshot('labels-import-conflicts');

    // Apply with nothing decided is refused, and says why; nothing is written.
    await page.locator('vscode-button', { hasText: 'Apply Import' }).click();
    await page.locator('.refusal', { hasText: '3 of 3 conflict(s) have no decision yet' }).waitFor();
    expect(await page.locator('tr.missing').count()).toBe(3);
    expect(dbRows()).toEqual(before);

    // One decision per row, each its own.
    const decide = async (stepId: number, decision: 'local' | 'incoming' | 'both') => {
      await row(stepId).locator(`vscode-radio[value="${decision}"]`).click();
      await waitFor(async () => (await row(stepId).getAttribute('data-decision')) === decision, {
        message: `row of step ${stepId} to be ${decision}`,
      });
    };
    await decide(1, 'local');
    await decide(2, 'incoming');
    await decide(3, 'both');
    await waitFor(async () => (await root.getAttribute('data-undecided')) === '0', { message: 'every row decided' });
    expect(await page.locator('.refusal').isVisible()).toBe(false);
    expect(dbRows()).toEqual(before);
    await wb.screenshot('labels-import-decided');
    await page.locator('vscode-button', { hasText: 'Apply Import' }).click();

    // The database, read back through the CLI: each row as decided, bob's two labels added.
    await waitFor(() => dbRows().length === before.length + 2 - step2Before.length + 1, {
      message: 'the import in the database',
    });
    expect(mine(1)).toEqual(['decay-error']);
    expect(mine(2)).toEqual(['pi-leak']);
    expect(mine(3)).toEqual(['format-error:count differs from k\nfrom my laptop']);
    expect(
      dbRows()
        .filter((r) => r.author === 'bob')
        .map((r) => `${r.stepId}:${r.label}`)
        .sort(),
    ).toEqual(['1:decay-error', '2:pi-leak']);
    await wb.toasts('imported').first().waitFor();
    // The unreadable line is in the Problems panel, at its line.
    await wb.statusBar.problems().click();
    await wb.panel.problems('[Ln 6').first().waitFor();
    await wb.statusBar.problems().click();
  });

  it('cancels an import from the conflict table without writing anything', async () => {
    const file = join(tmp, 'export', 'carol.jsonl');
    const line = (o: Record<string, unknown>) => importLine(user.userId, run.name, o);
    writeFileSync(
      file,
      [
        line({ step_id: 1, author: 'carol', label: 'pi-leak' }),
        line({ step_id: 1, author: AUTHOR, label: 'decay-error', note: 'a third note' }),
        line({ step_id: 3, author: AUTHOR, label: 'pi-leak' }),
      ].join('\n') + '\n',
    );
    const before = dbRows();
    await palette('Persona Lab: Import Labels…');
    await dialogPath(file, (v) => v.endsWith('/'), 'the open dialog');
    const page = await wb.findWebviewFrame('#labelimport-root[data-undecided="2"]', { timeout: 60_000 });
    await page.locator('vscode-button', { hasText: 'Take theirs' }).first().click();
    await waitFor(async () => (await page.locator('#labelimport-root').getAttribute('data-undecided')) === '0', {
      message: 'the rest decided at once',
    });
    await page.locator('vscode-button', { hasText: 'Cancel' }).click();
    await wb.toasts('import cancelled; nothing was written').first().waitFor();
    expect(dbRows()).toEqual(before);
  });

  it('shows agreement as a table that follows the database, matches the CLI cell by cell and opens the disagreements', async () => {
    const db = join(root, '.personalab', 'labels.db');
    await palette('Persona Lab: Label Summary');
    const page = await wb.findWebviewFrame('#agreement-root section.pair', { timeout: 60_000 });
    const pairSection = (a: string, b: string) =>
      page.locator(`section.pair[data-author-a="${a}"][data-author-b="${b}"]`);
    const mine = pairSection('bob', AUTHOR);
    // Steps 1 and 2, where the import left bob and me agreeing: two shared steps, κ n/a† with its reason.
    await waitFor(async () => (await mine.locator('h3').innerText()).includes('2 shared steps'), {
      message: 'bob vs me on two shared steps',
    });
    expect(await mine.locator('tr.overall td.kappa').innerText()).toBe('n/a†');
    expect(await mine.locator('tr.overall td.kappa').getAttribute('title')).toContain('fewer than 10');
    expect(await mine.locator('.note').innerText()).toContain('† n/a: 2 shared steps, fewer than 10');
    expect(await page.locator('th[data-col="po"]').first().getAttribute('title')).toMatch(
      /^po \(observed agreement\): /,
    );
    expect(await page.locator('th[data-col="pe"]').first().getAttribute('title')).toMatch(/^pe \(chance agreement\): /);

    // Written by another process (the CLI): bob on steps 3 and 4, two more annotators on twelve weibo steps of other
    // users (enough for κ), and two on three OmniBehavior test actions. The open table follows.
    const file = join(tmp, 'export', 'agreement.jsonl');
    const others = [...bench.users.get('weibo')!.values()]
      .filter((u) => u !== user)
      .flatMap((u) => u.steps.filter((s) => resultFor(run, u, s.stepId)).map((s) => ({ u, stepId: s.stepId })))
      .slice(0, 12);
    expect(others).toHaveLength(12);
    const traceLine = (index: number, author: string, label: string) =>
      JSON.stringify({
        benchmark: 'omnibehavior',
        platform: 'omnibehavior',
        user_id: 'u_1001',
        step_id: index,
        run: 'demo-sim',
        author,
        label,
        target_kind: 'action',
        note: '',
        created_at: '2025-01-01T00:00:00Z',
        content_hash: '',
      });
    writeFileSync(
      file,
      [
        importLine(user.userId, run.name, { step_id: 3, author: 'bob', label: 'peer-confusion' }),
        importLine(user.userId, run.name, { step_id: 4, author: 'bob', label: 'format-error' }),
        ...others.flatMap(({ u, stepId }, i) => [
          importLine(u.userId, run.name, {
            step_id: stepId,
            author: 'carol',
            label: i < 7 ? 'decay-error' : 'pi-leak',
          }),
          importLine(u.userId, run.name, { step_id: stepId, author: 'dave', label: i < 4 ? 'decay-error' : 'pi-leak' }),
        ]),
        traceLine(1149, 'erin', 'missed-action'),
        traceLine(1149, 'frank', 'missed-action'),
        traceLine(1153, 'erin', 'watch-time-off'),
        traceLine(1153, 'frank', 'missed-action'),
        traceLine(1177, 'erin', 'watch-time-off'),
        traceLine(1177, 'frank', 'watch-time-off'),
      ].join('\n') + '\n',
    );
    cli(['labels', 'import', db, file]);
    await waitFor(async () => (await page.locator('section.pair').count()) === 3, {
      timeout: 30_000,
      message: 'the table to show the imported pairs',
    });
    await waitFor(async () => (await mine.locator('h3').innerText()).includes('4 shared steps'), {
      message: 'bob vs me on four shared steps',
    });
    expect(
      await page.locator('section.benchmark').evaluateAll((s) => s.map((e) => (e as HTMLElement).dataset.benchmark)),
    ).toEqual(['omnibehavior', 'sample']);
    expect(await page.locator('section.benchmark h2').allInnerTexts()).toEqual([
      'omnibehavior: OmniBehavior test actions',
      'sample: StreamProfileBench steps',
    ]);

    // Every cell as the CLI computes it: κ (n/a† below ten shared steps), n, po, pe, disagreements; and no other row.
    const expected = expectedAgreementCells(db);
    expect([...expected.keys()].sort()).toEqual([`bob vs ${AUTHOR}`, 'carol vs dave', 'erin vs frank']);
    const shown = await shownAgreementCells(page);
    expect(shown).toEqual(expected);
    // carol vs dave share twelve steps: κ is a number, and 3 of them disagree on each of their two labels.
    expect(shown.get('carol vs dave')!.get('decay-error')).toEqual(expected.get('carol vs dave')!.get('decay-error'));
    expect(shown.get('carol vs dave')!.get('decay-error')![0]).toMatch(/^-?\d\.\d{3}$/);
    expect(shown.get('carol vs dave')!.get('decay-error')![4]).toBe('3');
    await palette('Notifications: Clear All Notifications');
    await wb.screenshot('labels-agreement-table');

    // A click on a row opens its disagreeing steps: the first in the step view, all of them listed under the row.
    const peer = mine.locator('tr.label-row[data-label="peer-confusion"]');
    expect(await peer.locator('td.disagreements .count').innerText()).toBe('1');
    await peer.click();
    await waitFor(async () => (await peer.getAttribute('aria-expanded')) === 'true', { message: 'the row to open' });
    const list = mine.locator('tr.detail:not([hidden]) li');
    expect(await list.count()).toBe(1);
    const said = await list.first().innerText();
    expect(said).toContain(`weibo · ${user.userId} · step 3 · run ${run.name}`);
    expect(said).toContain('only bob gave D_peer pick');
    expect(said).toMatch(new RegExp(`${AUTHOR}: .*Format error`));
    expect(said).toContain('bob: D_peer pick');
    await wb.findWebviewFrame(`#step-root[data-step="${stepKey(3)}"] .labels-bar`, { timeout: 60_000 });
    await wb.screenshot('labels-agreement-open');

    // Enter on a row opens its first disagreement; a click on another in its list opens that one.
    const pi = pairSection('carol', 'dave').locator('tr.label-row[data-label="pi-leak"]');
    await pi.focus();
    await pressIn(pi, 'Enter');
    await waitFor(async () => (await pi.getAttribute('aria-expanded')) === 'true', {
      message: 'Enter to open the row',
    });
    const key = (i: number) => `weibo/${others[i].u.userId}/${others[i].stepId}`;
    // Disagreements are listed in unit order; the first is the first of steps 4-6 (dave's pi-leak, carol's decay).
    const units = pairSection('carol', 'dave').locator('tr.detail:not([hidden]) li');
    expect(await units.count()).toBe(3);
    const whereOf = async (i: number) => (await units.nth(i).locator('.where').innerText()).split(' · ');
    const [, firstUser, firstStep] = await whereOf(0);
    await wb.findWebviewFrame(`#step-root[data-step="weibo/${firstUser}/${firstStep.replace('step ', '')}"]`);
    const [, secondUser, secondStep] = await whereOf(1);
    await units.nth(1).locator('button.unit').click();
    await wb.findWebviewFrame(`#step-root[data-step="weibo/${secondUser}/${secondStep.replace('step ', '')}"]`);
    expect([4, 5, 6].map(key)).toContain(`weibo/${secondUser}/${secondStep.replace('step ', '')}`);
    expect(await units.nth(1).getAttribute('data-current')).toBe('true');

    // An OmniBehavior row opens its test action in the trace view.
    const watch = pairSection('erin', 'frank').locator('tr.label-row[data-label="watch-time-off"]');
    await watch.click();
    await wb.findWebviewFrame('#trace-root[data-trace="u_1001#1153"]', { timeout: 60_000 });
    await wb.screenshot('labels-agreement-trace');
  });

  it("marks a label stale once the step's data changed, saying what changed", async () => {
    const tasks = join(root, 'data', 'weibo_inference_tasks.jsonl');
    const lines = readFileSync(tasks, 'utf8').split('\n');
    const i = lines.findIndex((l) => l.includes(`"${user.userId}"`));
    const record = JSON.parse(lines[i]) as { prediction_tasks: { posts_text: string }[] };
    record.prediction_tasks[0].posts_text += '\n[99] Content: 编辑过的帖子';
    lines[i] = JSON.stringify(record);
    writeFileSync(tasks, lines.join('\n'));
    await palette('Persona Lab: Open Step');
    await pick(user.userId, user.userId);
    await pick('step 1/', `step 1/${user.steps[0].totalSteps}`);
    frame = await wb.findWebviewFrame(`#step-root[data-step="${stepKey(1)}"] .labels-bar`, { timeout: 60_000 });
    await waitFor(() => frame.locator('.label-chip.stale[data-label-id="decay-error"]').count(), {
      timeout: 30_000,
      message: 'the stale label',
    });
    // Only the posts were edited, and the label says so (its part hashes were stored when it was made).
    const mark = frame.locator('.applied-item [data-stale="true"]');
    expect(await mark.count()).toBe(1);
    expect(await mark.getAttribute('data-changed')).toBe('posts');
    expect((await mark.textContent())?.trim()).toBe('stale: posts changed');
    expect(await mark.getAttribute('title')).toBe('stale: the posts changed since this label was made');
    await wb.screenshot('labels-stale');
  });

  it('shows a broken label set in the Problems panel at its line', async () => {
    const file = join(root, '.personalab', 'labels.json');
    writeFileSync(
      file,
      '{\n  "labels": [\n    { "id": "too-slow", "name": "Too slow", "description": "", "scope": "step", "key": "1" },\n    { "id": "too-slow", "name": "Again", "scope": "step", "key": "j" }\n  ]\n}\n',
    );
    await wb.statusBar.problems().click();
    const marker = wb.panel.problems('duplicate id');
    await marker.first().waitFor({ state: 'visible', timeout: 30_000 });
    expect(await marker.first().innerText()).toContain('[Ln 4');
    await frame.locator('.labels-error', { hasText: 'default labels are in use' }).waitFor();
    await wb.screenshot('labels-problems');

    // Fixed: the workspace's own labels and keys replace the defaults, and the problems go away.
    writeFileSync(
      file,
      JSON.stringify(
        {
          labels: [
            { id: 'too-slow', name: 'Too slow', description: 'answered after the deadline', scope: 'step', key: 'x' },
          ],
        },
        null,
        2,
      ),
    );
    await frame.locator('.label-chip[data-label-id="too-slow"] kbd', { hasText: 'x' }).waitFor();
    expect(await frame.locator('.label-chip').count()).toBe(1);
    await marker.first().waitFor({ state: 'detached', timeout: 30_000 });
  });
});
