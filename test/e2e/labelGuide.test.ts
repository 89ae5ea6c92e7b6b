// Label guides in the real workbench, on a fresh copy of sample/ whose .personalab/labels.json gives
// guides to step labels and trace labels (one of them markup-like, one of them not a string): a chip's hover card in
// the step view says the label's name, key and guide as text; `?` opens the sheet of every label key with its label
// and guide and the view's other keys, which keeps the keys while open, and Esc (or `?`) closes it with the focus back
// where it was; the same sheet in the trace view; the bad guide is a warning in the Problems panel at its line while
// the set stays in use.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import { loadBenchmark } from '../../src/core/spb/format/load';
import type { User } from '../../src/core/spb/types';
import { pressIn, repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { labelRows, labelsPage } from './labelsPage';

const AUTHOR = 'e2e-guide';
const MARKUP = 'Only when <b>every</b> pick is a head tag <img src=x onerror="document.title=1">';
const LABELS = [
  {
    id: 'too-generic',
    name: 'Too generic',
    description: 'Picked broad tags',
    key: '1',
    scope: 'step',
    guide: 'Use it when most picks are head tags.\nNot for a single broad tag among specific ones.',
  },
  { id: 'head-tags', name: 'Head tags', description: '', key: '2', scope: 'tag', guide: MARKUP },
  { id: 'no-guide', name: 'No guide', description: 'A label without a guide', key: '3', scope: 'step' },
  { id: 'bad-guide', name: 'Bad guide', description: 'Its guide is not text', key: '4', scope: 'step', guide: 42 },
];
const TRACE_LABELS = [
  {
    id: 'over-eager',
    name: 'Over-eager',
    description: 'Acts where the user did not',
    key: '1',
    scope: 'step',
    guide: 'Predicted Yes while the history shows this user rarely acts in this scene.',
  },
  {
    id: 'scene-blind',
    name: 'Scene blind',
    description: 'Ignores the scene',
    key: '2',
    scope: 'step',
    guide: 'The answer would be the same for any scene context.',
  },
];

interface SheetRow {
  key: string;
  name: string;
  guide: string;
}

describe('label guides on hover and in the ? sheet', () => {
  let wb: Workbench;
  let tmp: string;
  let root: string;
  let user: User;
  let frame: Frame;
  const { palette, pick } = labelsPage(() => wb);

  const sheet = () => frame.locator('.cheatsheet');
  const sheetLabels = (): Promise<SheetRow[]> =>
    frame.locator('.cheatsheet-labels tbody tr').evaluateAll((trs) =>
      trs.map((tr) => ({
        key: tr.querySelector('td.keys')?.textContent ?? '',
        name: tr.querySelector('td.label .name')?.textContent ?? '',
        guide: tr.querySelector('td.guide')?.textContent ?? '',
      })),
    );
  const sheetKeys = () =>
    frame.locator('.cheatsheet-keys tr[data-keys]').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-keys')));
  const activeElement = () =>
    frame.evaluate(() => {
      const a = document.activeElement;
      return a ? `${a.tagName.toLowerCase()}#${a.id}.${a.className}` : '';
    });
  const focusInSheet = () => frame.evaluate(() => document.activeElement?.closest('.cheatsheet') !== null);
  const expected = (labels: typeof TRACE_LABELS | typeof LABELS): SheetRow[] =>
    labels.map((l) => ({ key: l.key, name: l.name, guide: typeof l.guide === 'string' ? l.guide : 'no guide' }));

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-guide-'));
    root = join(tmp, 'sample');
    cpSync(join(repoRoot, 'sample'), root, { recursive: true });
    mkdirSync(join(root, '.personalab'), { recursive: true });
    // One label per line, so the bad guide's line is known: line 1 is `{`, line 2 `"labels": [`, bad-guide on 6.
    writeFileSync(
      join(root, '.personalab', 'labels.json'),
      [
        '{',
        '  "labels": [',
        LABELS.map((l) => `    ${JSON.stringify(l)}`).join(',\n'),
        '  ],',
        '  "traceLabels": [',
        TRACE_LABELS.map((l) => `    ${JSON.stringify(l)}`).join(',\n'),
        '  ]',
        '}',
        '',
      ].join('\n'),
    );
    const bench = await loadBenchmark(root);
    user = [...bench.users.get('weibo')!.values()].find((u) => u.steps.length > 1)!;
    wb = await startWorkbench({
      folder: root,
      theme: 'dark',
      viewport: { width: 1600, height: 1000 },
      settings: { 'personaLab.labels.author': AUTHOR },
    });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`labelGuide-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("shows a step label's name, key and guide, as text, on hover", async () => {
    await wb.openView('Persona Lab');
    await waitFor(() => wb.sideBar.benchmarks.rows().count(), {
      timeout: 60_000,
      message: 'the benchmark tree',
    });
    await palette('Persona Lab: Open Step');
    await pick(user.userId, user.userId);
    await pick('step 1/', `step 1/${user.steps[0].totalSteps}`);
    frame = await wb.findWebviewFrame(`#step-root[data-step="weibo/${user.userId}/1"] .labels-bar`, {
      timeout: 60_000,
    });
    // The set with the bad guide is in use (not the defaults): every chip of it, in its order.
    expect(
      await frame
        .locator('.labels-bar .label-chip')
        .evaluateAll((cs) => cs.map((c) => c.getAttribute('data-label-id'))),
    ).toEqual(LABELS.map((l) => l.id));

    const card = frame.locator('.label-hover');
    await frame.locator('.label-chip[data-label-id="too-generic"]').hover();
    await card.waitFor({ state: 'visible' });
    expect(await card.locator('.hover-title kbd').textContent()).toBe('1');
    expect(await card.locator('.hover-title b').textContent()).toBe('Too generic');
    expect(await card.locator('.hover-guide p').textContent()).toBe(LABELS[0].guide);
    expect(await card.innerText()).toContain('Key 1 toggles it on the whole step.');

    // Markup in a guide is text: the card shows it as written and holds no element made from it.
    await frame.locator('.label-chip[data-label-id="head-tags"]').hover();
    await waitFor(async () => (await card.locator('.hover-title b').textContent()) === 'Head tags', {
      message: 'the card of Head tags',
    });
    expect(await card.locator('.hover-guide p').textContent()).toBe(MARKUP);
    expect(await card.locator('.hover-guide img, .hover-guide p b').count()).toBe(0);
    expect(await frame.locator('.label-chip[data-label-id="head-tags"]').getAttribute('aria-description')).toContain(
      `Head tags (key 2)\nGuide: ${MARKUP}`,
    );
    await wb.screenshot('label-guide-hover');

    await frame.locator('.step-header .user-id').hover();
    await card.waitFor({ state: 'hidden' });
  });

  it('? lists every label key with its label and guide and the step view’s keys; Esc closes it', async () => {
    await frame.locator('.step-header .user-id').click();
    const before = await activeElement();
    expect(before).toContain('#step-root');
    await pressIn(frame.locator('body'), '?');
    await sheet().waitFor({ state: 'visible' });
    expect(await sheet().getAttribute('role')).toBe('dialog');
    expect(await focusInSheet()).toBe(true);
    expect(await sheetLabels()).toEqual(expected(LABELS));
    expect(await frame.locator('.cheatsheet-labels td.guide').nth(1).locator('b, img').count()).toBe(0);
    const keys = await sheetKeys();
    for (const k of ['[ ]', '{ }', 'j ↓', 'k ↑', 'a', 'n', 'u Ctrl+Z', '.', 'Esc', 'e', '?']) expect(keys).toContain(k);
    // The trace view's keys are not the step view's.
    expect(keys).not.toContain('r');
    await wb.screenshot('label-cheatsheet-step');

    // While the sheet is open a label key labels nothing; once it is closed, the keys label again.
    await pressIn(sheet(), '1');
    await pressIn(sheet(), 'Escape');
    await sheet().waitFor({ state: 'detached' });
    expect(await activeElement()).toBe(before);
    await pressIn(frame.locator('body'), '3');
    await waitFor(
      async () =>
        (await frame.locator('.label-chip[data-label-id="no-guide"]').getAttribute('aria-pressed')) === 'true',
      { message: 'key 3 to label the step' },
    );
    expect(labelRows(join(root, '.personalab', 'labels.db')).map((r) => r.label)).toEqual(['no-guide']);

    // The bar's ? button, named for assistive technology, opens the same sheet; ? closes it.
    const button = frame.locator('.labels-bar button.labels-cheatsheet');
    expect(await button.getAttribute('aria-label')).toBe('Keys and label guides (?)');
    await button.click();
    await sheet().waitFor({ state: 'visible' });
    expect(await sheetLabels()).toEqual(expected(LABELS));
    await pressIn(frame.locator('body'), '?');
    await sheet().waitFor({ state: 'detached' });
  });

  it('says at its line in the Problems panel that a guide is not text, the set staying in use', async () => {
    await wb.statusBar.problems().click();
    const marker = wb.panel.problems('guide must be a string');
    await marker.first().waitFor({ state: 'visible', timeout: 30_000 });
    expect(await marker.first().innerText()).toContain('labels[3].guide: guide must be a string (got number)');
    expect(await marker.first().innerText()).toContain('[Ln 6');
    expect(await frame.locator('.labels-error').count()).toBe(0);
    await wb.statusBar.problems().click();
    await wb.panel.problemsView().waitFor({ state: 'hidden' });
  });

  it('? in the trace view lists the trace labels with their guides and the trace view’s keys', async () => {
    const omni = await loadOmniBenchmark(join(root, 'omnibehavior'));
    const traceUser = [...omni.users.values()].sort((a, b) => a.userId.localeCompare(b.userId))[0];
    const action = [...traceUser.testActions].sort((a, b) => a.index - b.index)[0];
    await wb.startCommand('Persona Lab: Open Trace');
    await wb.pickQuickPickRow(`${traceUser.userId} #${action.index}`, `${traceUser.userId} #${action.index}`);
    frame = await wb.findWebviewFrame(`#trace-root[data-trace="${traceUser.userId}#${action.index}"] .labels-bar`, {
      timeout: 60_000,
    });
    expect(
      await frame
        .locator('.labels-bar .label-chip')
        .evaluateAll((cs) => cs.map((c) => c.getAttribute('data-label-id'))),
    ).toEqual(TRACE_LABELS.map((l) => l.id));
    await frame.locator('.trace-header .user-id').click();
    const before = await activeElement();
    await pressIn(frame.locator('body'), '?');
    await sheet().waitFor({ state: 'visible' });
    expect(await focusInSheet()).toBe(true);
    expect(await sheetLabels()).toEqual(expected(TRACE_LABELS));
    expect(await frame.locator('.cheatsheet-body h3').first().textContent()).toBe(
      `Labels (their keys label test action #${action.index})`,
    );
    const keys = await sheetKeys();
    for (const k of ['[ ]', 'r', 'e', 'n', 'u Ctrl+Z', '.', 'Esc', '?']) expect(keys).toContain(k);
    // The step view's user and tree-order keys do nothing here, so the sheet does not list them.
    for (const k of ['{ }', 'j ↓', 'a']) expect(keys).not.toContain(k);
    await wb.screenshot('label-cheatsheet-trace');
    await pressIn(sheet(), 'Escape');
    await sheet().waitFor({ state: 'detached' });
    expect(await activeElement()).toBe(before);
  });
});
