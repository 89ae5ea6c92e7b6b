// A third format in the real workbench: the test build (test/fixtures/tinybench/extension/main.ts) adds
// the fixture format's contribution to the built-in list, and with no other edit its benchmark shows in the
// Benchmarks tree with the selected run's figures, its loading problem counts in the status bar, a change on disk
// reloads it, Sort Users By… offers the order its descriptor declares, labels written to the workspace's label
// database (as the CLI or another window writes them) show on its items, also when written while the window is open,
// and the PI Audit view lists its findings through the audit part its contribution offers. Its other parts work
// the same way: a label of its own set put on an item from the keyboard (in the store, on the row, in the Label
// Summary under its own unit noun), its dashboard's table from Open Dashboard, and a re-run of an item against a
// scripted endpoint answering by the format's demo rule, with the attempt on the item's row.
import { appendFileSync, cpSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultLabelSet } from '../../src/core/labels/taxonomy';
import { LabelStore } from '../../src/core/labels/store';
import { CATEGORY_INFO } from '../../src/core/pi/placeholders';
import { auditPane, auditRows } from './auditPage';
import { tinyBench, tinyItemHash, TINY_PLATFORM, TINY_SAMPLE } from '../fixtures/tinybench/format';
import { TINY_LABEL_SET, tinyDemoAnswer, tinyPrompt } from '../fixtures/tinybench/parts';
import { reply, startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { repoRoot, startWorkbench, typeInto, waitFor, type Workbench } from './harness';
import { labelsPage } from './labelsPage';
import { clickRowAction, twistie } from './support/sideBar';
import { treePage } from './treePage';

describe('a third format registered by one list entry works in the workbench', () => {
  let wb: Workbench;
  let server: ScriptedServer;
  let tmp: string;
  let root: string;
  const { rows, children, expand, waitRow, runCommandWithInput, quickPickRow, rowLocator } = treePage(() => wb);
  const { palette } = labelsPage(() => wb);
  const [first, second] = defaultLabelSet().labels;
  const ADDRESS = 'ann.smith@example.org';
  const PHONE = '+1 415 555 0134';

  function addLabel(label: string, userId: string, stepId: number): void {
    const store = LabelStore.open(join(root, '.personalab', 'labels.db'));
    try {
      const key = { benchmark: basename(root), platform: TINY_PLATFORM, run: 'guess', author: 'cli', label };
      store.add({ ...key, userId, stepId, target: { kind: 'step' } });
    } finally {
      store.close();
    }
  }

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-tinybench-'));
    root = join(tmp, 'tiny');
    cpSync(TINY_SAMPLE, root, { recursive: true });
    // A residual address in ann's first item and a phone number in bob's, for the PI audit.
    const items = join(root, 'items.tinybench.jsonl');
    const planted = readFileSync(items, 'utf8')
      .replace('likes cats', `likes cats, mail ${ADDRESS}`)
      .replace('plays chess', `plays chess, phone ${PHONE}`);
    writeFileSync(items, planted);
    appendFileSync(items, 'not json\n');
    mkdirSync(join(root, '.personalab'));
    addLabel(first.id, 'ann', 2);
    const bundle = join(tmp, 'extension.js');
    await build({
      entryPoints: [join(repoRoot, 'test/fixtures/tinybench/extension/main.ts')],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'es2022',
      external: ['vscode', 'better-sqlite3'],
      // The reference drivers are Python files bundled as their text, as scripts/build.mjs bundles them.
      loader: { '.py': 'text' },
      logLevel: 'warning',
    });
    // The endpoint answers as the demo endpoint does, by the format's fixed rule.
    server = await startScriptedServer((req) => {
      const messages = (req.body as { messages: { role: string; content: string }[] }).messages;
      return reply.text(tinyDemoAnswer(messages)?.content ?? 'no rule');
    });
    // Its own code-server (not the shared one): the extension's bundle is replaced by the test build.
    wb = await startWorkbench({
      folder: root,
      theme: 'light',
      extensionMain: bundle,
      settings: { 'personaLab.endpoint.baseURL': server.baseURL, 'personaLab.endpoint.model': 'scripted-model' },
    });
    await wb.openView('Persona Lab');
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`thirdFormat-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    await server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('shows the benchmark, its users and items with the selected run, and its loading problem', async () => {
    await waitRow('tiny', 1, (r) => r.description === `${tinyBench.label} · guess · 2 of 3 right`, 'the tiny row');
    const users = await expand('tiny', 1, ['ann', 'bob']);
    expect(users.map((u) => u.description)).toEqual(['1 of 2 right', '1 of 1 right']);
    const items = await expand('ann', 2, ['item 1', 'item 2']);
    expect(items.map((r) => [r.description, r.icon])).toEqual([
      ['right', 'pass'],
      [`wrong · ⚑ ${first.name}`, 'error'],
    ]);
    const status = wb.statusBar.item('1 loading problem');
    await status.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await status.getAttribute('aria-label')).toContain(tinyBench.label);
    await wb.screenshot('third-format-tree');
  });

  it('shows a label another process writes while the window is open', async () => {
    addLabel(second.id, 'ann', 1);
    await waitRow('item 1', 3, (r) => r.description === `right · ⚑ ${second.name}`, 'the new label on ann item 1');
  });

  it('reloads when a prediction file changes on disk', async () => {
    writeFileSync(
      join(root, 'results', 'guess', 'predictions.tinybench.jsonl'),
      ['ann', 'ann', 'bob']
        .map((user, i) => JSON.stringify({ user, item: i === 1 ? 2 : 1, predicted: user === 'bob' ? 'no' : 'yes' }))
        .join('\n') + '\n',
    );
    await waitRow('tiny', 1, (r) => r.description.endsWith('guess · 1 of 3 right'), 'the reloaded figures');
  });

  it('sorts its users by the order its descriptor declares', async () => {
    await runCommandWithInput('Persona Lab: Sort Users By…');
    const reverse = quickPickRow(/^\s*Reverse the order/);
    await reverse.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await quickPickRow(/^\s*User id/).count()).toBe(1);
    await reverse.click();
    await waitFor(
      async () => {
        const kids = await children('tiny', 1);
        return kids.map((k) => k.label).join(',') === 'bob,ann' || undefined;
      },
      { timeout: 30_000, message: 'the users listed Z → A' },
    );
    expect((await rows()).filter((r) => r.level === 2).map((r) => r.label)).toEqual(['bob', 'ann']);
  });

  it('audits its items through its audit part: the planted address and phone under their categories', async () => {
    // The audit runs by itself once the view shows (personaLab.audit.autoRun is `small` by default).
    await wb.showOnlyView('PI Audit');
    await wb.waitForExtensionHostLine(/\[info\] audit: 2 finding\(s\) in 1 file\(s\)/, { timeout: 60_000 });
    const row = (label: string, level: number) =>
      waitFor(async () => (await auditRows(wb)).find((r) => r.level === level && r.label === label), {
        timeout: 30_000,
        message: `the audit row ${label}`,
      });
    const category = await row(CATEGORY_INFO.EMAIL.label, 1);
    expect(category.description).toBe('1 open · 0 placeholders');
    expect((await row(CATEGORY_INFO.PHONE.label, 1)).description).toBe('1 open · 0 placeholders');
    const summary = await row(tinyBench.label, 2);
    expect(summary.expanded).toBe('true');
    const user = await row('ann', 2);
    expect(user.description).toBe('1 open');
    await twistie(auditPane(wb).rowAt(user.index)).click();
    const finding = await row(ADDRESS, 3);
    expect(finding.description).toBe('item 1 · text · high');
    expect(await auditPane(wb).message().isVisible()).toBe(false);
    await wb.screenshot('third-format-audit');
  });

  const guessed = TINY_LABEL_SET.defaults[1];

  it('labels an item from the keyboard with a label of its own set: in the store and on its row', async () => {
    await wb.showOnlyView('Benchmarks');
    await expand('ann', 2, ['item 1', 'item 2']);
    // A click opens the item's quick pick; Escape gives the focus back to its row, where Enter opens it again.
    await rowLocator('item 2', 3).first().click();
    await wb.quick.title('TinyBench: ann item 2').waitFor({ timeout: 30_000 });
    await wb.quick.press('Escape');
    // Enter once the pick has closed and the focus is back on the row: a busy machine closes it late, and an Enter
    // the closing pick took opens nothing.
    await wb.quick.widget.waitFor({ state: 'hidden', timeout: 30_000 });
    await wb.sideBar.benchmarks.press('Enter');
    await wb.quick.title('TinyBench: ann item 2').waitFor({ timeout: 30_000 });
    await typeInto(wb.quick.input(), guessed.name);
    await waitFor(async () => (await wb.quick.focusedRowLabel()) === `Label: ${guessed.name}`, {
      message: 'the label to be the focused row',
    });
    await wb.quick.press('Enter');
    await waitRow(
      'item 2',
      3,
      (r) => r.description.endsWith(`⚑ ${first.name}, ${guessed.name}`),
      'the label on ann item 2',
    );
    const store = LabelStore.open(join(root, '.personalab', 'labels.db'), { readOnly: true });
    try {
      const mine = store.list({ benchmark: basename(root), author: 'e2e' });
      const item = { user: 'ann', item: 2, text: 'dislikes rain', truth: 'no' };
      expect(mine.map((r) => [r.platform, r.userId, r.stepId, r.run, r.label, r.contentHash])).toEqual([
        [TINY_PLATFORM, 'ann', 2, 'guess', guessed.id, tinyItemHash(item)],
      ]);
    } finally {
      store.close();
    }
  });

  it('names its units in the Label Summary, whose disagreement row opens the item', async () => {
    await palette('Persona Lab: Label Summary');
    const section = `#agreement-root section.benchmark[data-benchmark="${basename(root)}"]`;
    const frame = await wb.findWebviewFrame(`${section} table.unit-disagreements`, { timeout: 60_000 });
    expect(await frame.locator(`${section} h2`).innerText()).toBe(`${basename(root)}: ${tinyBench.label} items`);
    const row = frame.locator(`${section} table.unit-disagreements tr.disagreement`);
    expect(await row.locator('th.where').allInnerTexts()).toEqual([`${TINY_PLATFORM} · ann · item 2 · run guess`]);
    expect(await frame.locator(section).innerText()).not.toMatch(/\bsteps?\b/);
    await wb.screenshot('third-format-label-summary');
    await row.first().click();
    await wb.quick.title('TinyBench: ann item 2').waitFor({ timeout: 30_000 });
    await wb.quick.press('Escape');
  });

  it('opens its dashboard from its row: one table of each run’s accuracy', async () => {
    const row = rowLocator('tiny', 1).first();
    await clickRowAction(row, 'Open Dashboard');
    const frame = await wb.findWebviewFrame('table.tiny-dashboard', { timeout: 60_000 });
    const cells = await frame
      .locator('table.tiny-dashboard tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    // After the reload above, the one run has one of three right.
    expect(cells).toEqual([['guess', '33.33']]);
    expect(await frame.locator('table.tiny-dashboard').count()).toBe(1);
    await wb.screenshot('third-format-dashboard');
  });

  it('re-runs an item against the endpoint and shows the attempt on its row', async () => {
    await rowLocator('item 1', 3).first().click();
    await wb.quick.title('TinyBench: ann item 1').waitFor({ timeout: 30_000 });
    await wb.pickQuickPickRow('Re-run', 'Re-run against the endpoint');
    await waitRow('item 1', 3, (r) => r.description.endsWith('attempt 1: yes · right'), 'the attempt on ann item 1');
    expect(server.requests).toHaveLength(1);
    const text = `likes cats, mail ${ADDRESS}`;
    expect((server.requests[0].body as { messages: unknown }).messages).toEqual([
      { role: 'user', content: tinyPrompt({ user: 'ann', item: 1, text }) },
    ]);
    const attempts = readFileSync(join(root, '.personalab', 'tinybench-attempts.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(attempts.map((l) => JSON.parse(l) as { id: number; answer: string; right: boolean })).toMatchObject([
      { id: 1, answer: 'yes', right: true },
    ]);
    await rowLocator('item 1', 3).first().click();
    await wb.quick.row('attempt 1: yes · right').waitFor({ timeout: 30_000 });
    await wb.screenshot('third-format-rerun');
    await wb.quick.press('Escape');
  });
});
