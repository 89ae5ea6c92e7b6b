// Labels on OmniBehavior traces in the real workbench, on a fresh copy of sample/omnibehavior: a test action and one
// of its history records labelled with the keyboard in the trace view, an undo, the labelled row marked in the
// timeline, the store read back through the CLI, and the badges on the test action and the user in the tree.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parseLabelFile } from '../../src/core/labels/exportImport';
import { DEFAULT_TRACE_LABELS } from '../../src/core/omni/labels/labelSet';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import type { OmniBenchmark, OmniUser, TestAction } from '../../src/core/omni/types';
import { pressIn, repoRoot, waitFor, type Workbench } from './harness';
import { rowDescription, twistie } from './support/sideBar';
import { omniSampleWorkbench } from './support/omniCopy';

const AUTHOR = 'e2e-trace-annotator';
const HISTORY = 2;

describe('labels on OmniBehavior traces in the real workbench', () => {
  let wb: Workbench;
  let root: string;
  let bench: OmniBenchmark;
  let user: OmniUser;
  let action: TestAction;
  let runName: string;
  let frame: Frame;
  const [first, second, third] = DEFAULT_TRACE_LABELS;

  /** Every label in the store, read through the CLI with the benchmark folder (an independent reader). */
  function storeRows(): string[] {
    const text = execFileSync(process.execPath, [join(repoRoot, 'dist/cli.js'), 'labels', 'export', root], {
      encoding: 'utf8',
    });
    return parseLabelFile(text, 'db', 'jsonl')
      .rows.map(({ row }) => {
        const t = row.target.kind === 'history' ? `history:${row.target.historyIndex}` : row.target.kind;
        return `${row.benchmark}/${row.platform}/${row.userId}/${row.stepId}/${row.run}/${row.author}:${row.label}@${t}`;
      })
      .sort();
  }
  const rowKey = (label: string, target: string) =>
    `omnibehavior/omnibehavior/${user.userId}/${action.index}/${runName}/${AUTHOR}:${label}@${target}`;

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

  omniSampleWorkbench('traceLabels', AUTHOR, {
    prepare: async (copy) => {
      root = copy;
      bench = await loadOmniBenchmark(root);
      runName = [...bench.runs.keys()].sort()[0];
      user = [...bench.users.values()].sort((a, b) => a.userId.localeCompare(b.userId))[0];
      action = [...user.testActions].sort((a, b) => a.index - b.index).find((a) => a.index > 10)!;
    },
    started: (started) => {
      wb = started;
    },
  });

  it('labels the test action and a history record with the keyboard, with undo', async () => {
    await wb.openView('Persona Lab');
    await expand('omnibehavior', 1);
    await expand(user.userId, 2);
    const actionRow = treeRow(`#${action.index} ${action.scene}`, 3);
    await actionRow.scrollIntoViewIfNeeded();
    await actionRow.click();
    frame = await wb.findWebviewFrame(`#trace-root[data-trace="${user.userId}#${action.index}"] .labels-bar`, {
      timeout: 60_000,
    });
    expect(await frame.locator('.labels-bar .label-chip').count()).toBe(DEFAULT_TRACE_LABELS.length);
    expect(await frame.locator('.labels-bar').getAttribute('data-target')).toBe('action');

    // The test action: its key, on the header (the keyboard stays in the webview).
    await frame.locator('.trace-header .user-id').click();
    await pressIn(frame.locator('body'), first.key!);
    await pressed(first.id, true);
    expect(storeRows()).toEqual([rowKey(first.id, 'action')]);

    // A history record: open its row, then its key labels that record, not the test action.
    const timeline = frame.locator('.timeline');
    await waitFor(
      async () => (await timeline.locator(`.vrow[data-index="${HISTORY}"] .idx`).textContent()) === `#${HISTORY}`,
      { message: 'the history rows' },
    );
    await timeline.locator(`.vrow[data-index="${HISTORY}"]`).click();
    await waitFor(async () => (await frame.locator('.labels-bar').getAttribute('data-target')) === String(HISTORY), {
      message: 'the bar to target the record',
    });
    expect(await chip(first.id).getAttribute('aria-pressed')).toBe('false');
    await pressIn(frame.locator('body'), second.key!);
    await pressed(second.id, true);
    await waitFor(
      async () => (await timeline.locator(`.vrow[data-record="${HISTORY}"]`).getAttribute('data-labelled')) === 'true',
      { message: 'the row to be marked' },
    );
    expect(await timeline.locator(`.vrow[data-record="${HISTORY}"] .row-labels`).textContent()).toBe(
      `⚑ ${second.name}`,
    );

    // Another label, then u undoes it.
    await pressIn(frame.locator('body'), third.key!);
    await pressed(third.id, true);
    expect(storeRows()).toContain(rowKey(third.id, `history:${HISTORY}`));
    await pressIn(frame.locator('body'), 'u');
    await pressed(third.id, false);
    expect(await frame.locator('.labels-flash').textContent()).toBe(
      `Undid: added ${third.name} on history record #${HISTORY}`,
    );

    // Esc goes back to the test action, whose label is still on.
    await pressIn(frame.locator('body'), 'Escape');
    await waitFor(async () => (await frame.locator('.labels-bar').getAttribute('data-target')) === 'action', {
      message: 'the bar to target the test action',
    });
    expect(await chip(first.id).getAttribute('aria-pressed')).toBe('true');
    expect(storeRows()).toEqual([rowKey(first.id, 'action'), rowKey(second.id, `history:${HISTORY}`)].sort());
    await wb.screenshot('traceLabels-view');
  });

  it('shows the labels as badges on the test action and the user in the tree', async () => {
    const actionRow = treeRow(`#${action.index} ${action.scene}`, 3);
    await waitFor(async () => (await rowDescription(actionRow).innerText()).includes(`⚑ ${first.name} · ⚑ 1 history`), {
      message: 'the test action badge',
    });
    // The user row is short: the run's answers, then ⚑ and the number of labelled test actions.
    expect(await rowDescription(treeRow(user.userId, 2)).innerText()).toMatch(/ · ⚑ 1$/);
    // The description is cut off in a narrow side bar: the tooltip names the labels too.
    await actionRow.hover();
    const tip = wb.hover('Your labels:');
    await tip.waitFor({ state: 'visible', timeout: 30_000 });
    // MarkdownString.appendText keeps spaces as no-break spaces.
    expect((await tip.innerText()).replace(/\u00a0/g, ' ')).toContain(`Your labels: ⚑ ${first.name} · ⚑ 1 history`);
    await wb.screenshot('traceLabels-tree');
  });
});
