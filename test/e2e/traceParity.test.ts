// The trace view at parity with the step view, in the real workbench on a fresh copy of sample/omnibehavior: `n`
// writes a note on the label just added (read back through the CLI), `.` goes to the next test action without a label
// in the tree's order, the labels bar says in words what the keys label and gives the target back to the test action
// on navigation, and a history record opened in the view is shown (and labelled) again after Reload Window.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parseLabelFile } from '../../src/core/labels/exportImport';
import { DEFAULT_TRACE_LABELS } from '../../src/core/omni/labels/labelSet';
import { readHistory } from '../../src/core/omni/history';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import type { OmniUser, TestAction } from '../../src/core/omni/types';
import { pressIn, repoRoot, typeInto, waitFor, type Workbench } from './harness';
import { twistie } from './support/sideBar';
import { omniSampleWorkbench } from './support/omniCopy';

const AUTHOR = 'e2e-trace-parity';
const HISTORY = 2;
const NOTE = 'the phone number is in the caption';

describe('the trace view at parity with the step view', () => {
  let wb: Workbench;
  let root: string;
  let user: OmniUser;
  /** The first user's test actions in the tree's order, from one with some history before it. */
  let actions: TestAction[];
  let runName: string;
  let behaviours: string[];
  let frame: Frame;
  const [first, second, third] = DEFAULT_TRACE_LABELS;

  /** Every label in the store, read through the CLI (an independent reader), with its note. */
  function storeRows(): string[] {
    const text = execFileSync(process.execPath, [join(repoRoot, 'dist/cli.js'), 'labels', 'export', root], {
      encoding: 'utf8',
    });
    return parseLabelFile(text, 'db', 'jsonl')
      .rows.map(({ row }) => {
        const t = row.target.kind === 'history' ? `history:${row.target.historyIndex}` : row.target.kind;
        return `${row.userId}/${row.stepId}/${row.run}/${row.author}:${row.label}@${t}${row.note ? `:${row.note}` : ''}`;
      })
      .sort();
  }
  const rowKey = (a: TestAction, label: string, target: string, note = '') =>
    `${user.userId}/${a.index}/${runName}/${AUTHOR}:${label}@${target}${note ? `:${note}` : ''}`;

  const treeRow = (label: string, level: number) => wb.sideBar.benchmarks.row(label, level).first();
  async function expand(label: string, level: number): Promise<void> {
    const r = treeRow(label, level);
    await r.waitFor({ state: 'visible', timeout: 60_000 });
    if ((await r.getAttribute('aria-expanded')) !== 'true') await twistie(r).click();
    await waitFor(async () => (await r.getAttribute('aria-expanded')) === 'true', { message: `${label} to expand` });
  }
  const chip = (id: string) => frame.locator(`.labels-bar .label-chip[data-label-id="${id}"]`);
  const pressed = (id: string, on: boolean) =>
    waitFor(async () => (await chip(id).getAttribute('aria-pressed')) === String(on), {
      message: `${id} to be ${on ? 'on' : 'off'}`,
    });
  const targetText = () => frame.locator('.labels-bar .labels-target').innerText();
  /** Waits until the view shows test action `a` with its labels bar, labelling `target` ("action" or a record). */
  const showing = (a: TestAction, target = 'action') =>
    waitFor(
      async () =>
        (await frame.locator('#trace-root').getAttribute('data-trace')) === `${user.userId}#${a.index}` &&
        (await frame
          .locator('.labels-bar')
          .getAttribute('data-target', { timeout: 2000 })
          .catch(() => null)) === target,
      { message: `test action #${a.index} with its labels bar on ${target}` },
    );
  /** Clicks the header, so that the keys go to the page. */
  const focusPage = () => frame.locator('.trace-header .user-id').click();

  omniSampleWorkbench('traceParity', AUTHOR, {
    prepare: async (copy) => {
      root = copy;
      const bench = await loadOmniBenchmark(root);
      runName = [...bench.runs.keys()].sort()[0];
      user = [...bench.users.values()].sort((a, b) => a.userId.localeCompare(b.userId))[0];
      const sorted = [...user.testActions].sort((a, b) => a.index - b.index);
      actions = sorted.slice(sorted.findIndex((a) => a.index > 10));
      expect(actions.length).toBeGreaterThanOrEqual(4);
      const [record] = await readHistory(user.file, user.index, HISTORY, HISTORY + 1);
      behaviours = record.actions.map((a) => a.type);
    },
    started: (started) => {
      wb = started;
    },
  });

  it('says what the keys label, and n writes a note on the label just added', async () => {
    const [a] = actions;
    await wb.openView('Persona Lab');
    await expand('omnibehavior', 1);
    await expand(user.userId, 2);
    const row = treeRow(`#${a.index} ${a.scene}`, 3);
    await row.scrollIntoViewIfNeeded();
    await row.click();
    frame = await wb.findWebviewFrame(`#trace-root[data-trace="${user.userId}#${a.index}"] .labels-bar`, {
      timeout: 60_000,
    });
    expect(await targetText()).toBe(`Labelling: test action #${a.index}`);

    await focusPage();
    await pressIn(frame.locator('body'), first.key!);
    await pressed(first.id, true);
    await pressIn(frame.locator('body'), 'n');
    const input = frame.locator('.labels-bar .note-row input');
    await input.waitFor();
    expect(await input.getAttribute('aria-label')).toBe(`Note on ${first.name} (the whole test action)`);
    await typeInto(input, NOTE);
    await pressIn(input, 'Enter');
    await waitFor(() => storeRows().join('\n') === rowKey(a, first.id, 'action', NOTE), {
      message: () => `the note in the label database; it holds:\n${storeRows().join('\n')}`,
    });
    await waitFor(async () => (await frame.locator('.note-row').count()) === 0, { message: 'the note field to close' });
    expect(await frame.locator(`.applied-item[data-applied="${first.id}"] .note`).textContent()).toBe(` — ${NOTE}`);
    expect(await frame.locator('.labels-flash').innerText()).toBe(`Saved the note on ${first.name}`);
    await wb.screenshot('traceParity-note');
  });

  it('. goes to the next test action without a label, in the tree’s order', async () => {
    const [a, b, c] = actions;
    // The keyboard is back in the page once the note field closed: ] labels the next test action.
    await pressIn(frame.locator('body'), ']');
    await showing(b);
    expect(await targetText()).toBe(`Labelling: test action #${b.index}`);
    await pressIn(frame.locator('body'), second.key!);
    await pressed(second.id, true);
    await pressIn(frame.locator('body'), '[');
    await showing(a);
    // a and b are labelled: . skips b.
    await pressIn(frame.locator('body'), '.');
    await showing(c);
    expect(await targetText()).toBe(`Labelling: test action #${c.index}`);
    await waitFor(async () => (await treeRow(`#${c.index} ${c.scene}`, 3).getAttribute('aria-selected')) === 'true', {
      message: 'the tree to select the test action',
    });
    expect(storeRows()).toEqual([rowKey(a, first.id, 'action', NOTE), rowKey(b, second.id, 'action')].sort());
  });

  it('a history record opened is the target in words, and comes back after Reload Window', async () => {
    const c = actions[2];
    const timeline = frame.locator('.timeline');
    await waitFor(
      async () => (await timeline.locator(`.vrow[data-index="${HISTORY}"] .idx`).textContent()) === `#${HISTORY}`,
      { message: 'the history rows' },
    );
    await timeline.locator(`.vrow[data-index="${HISTORY}"]`).click();
    await showing(c, String(HISTORY));
    const words = `Labelling: history record #${HISTORY} (${behaviours.join(', ')}) · test action (Esc)`;
    await waitFor(async () => (await targetText()) === words, { message: () => `the target text "${words}"` });

    const key = `${user.userId}#${c.index}`;
    await wb.editor.tab(`${user.userId} · #${c.index}`).click();
    const reloaded = wb.page.waitForEvent('load', { timeout: 60_000 });
    await wb.runCommand('Developer: Reload Window').catch(() => {});
    await reloaded;
    await wb.waitForWorkbench();
    frame = await wb.findWebviewFrame(`#trace-root[data-trace="${key}"] .record-detail[data-index="${HISTORY}"]`, {
      timeout: 90_000,
    });
    await wb.waitForExtensionHostLine(`trace view: restored ${user.userId} #${c.index} (history record #${HISTORY})`);
    await showing(c, String(HISTORY));
    await waitFor(async () => (await targetText()) === words, { message: () => `the target text "${words}" again` });
    expect(await frame.locator('.record-detail').getAttribute('hidden')).toBeNull();
    expect((await frame.locator('.record-detail').textContent())!.startsWith(`Record #${HISTORY}\n`)).toBe(true);
    await waitFor(
      async () =>
        (await frame
          .locator('.timeline .vrow.opened')
          .getAttribute('data-record', { timeout: 2000 })
          .catch(() => null)) === String(HISTORY),
      { message: 'the record’s row marked as opened' },
    );

    // The restored target is the one the keys label.
    await focusPage();
    await pressIn(frame.locator('body'), third.key!);
    await pressed(third.id, true);
    expect(storeRows()).toContain(rowKey(c, third.id, `history:${HISTORY}`));
    await wb.screenshot('traceParity-restored-record');
  });

  it('gives the target back to the test action when the view moves to another one', async () => {
    const [, , c, d] = actions;
    await focusPage();
    await pressIn(frame.locator('body'), ']');
    await showing(d);
    expect(await targetText()).toBe(`Labelling: test action #${d.index}`);
    await pressIn(frame.locator('body'), '[');
    await showing(c);
    expect(await targetText()).toBe(`Labelling: test action #${c.index}`);
    expect(await frame.locator('.record-detail').getAttribute('hidden')).toBe('');
    // Its key labels the test action now, not the record opened before the move.
    await pressIn(frame.locator('body'), third.key!);
    await pressed(third.id, true);
    expect(storeRows()).toContain(rowKey(c, third.id, 'action'));
  });
});
