// The OmniBehavior trace in the real workbench on sample/ (which holds both benchmarks): the tree shows the
// OmniBehavior benchmark beside the StreamProfileBench one; we walk it to a user and a test action with a wrong
// prediction, open the trace view, and check the profile, the timeline (count, filter, first and last rows) against
// the core's indexUserFile / readHistory, the wrong question against the predictions file, and the raw output.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BEHAVIOURS, SCENES, indexUserFile, readHistory, type HistoryIndex } from '../../src/core/omni/history';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import { scoreOmniRun, userActionCounts } from '../../src/core/omni/score';
import { rowCountsText } from '../../src/core/omni/countsText';
import { predictionKey, type OmniBenchmark, type OmniUser, type TestAction } from '../../src/core/omni/types';
import { pressIn, repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { rowDescription, twistie } from './support/sideBar';
import { readPredictions, type RawQuestion } from './traceExpected';

const sample = join(repoRoot, 'sample');
const omniRoot = join(sample, 'omnibehavior');

/** A Customer Service test action of `user` with a predicted next_user_message, and a video one with a watch time. */
function findOthers(
  user: OmniUser,
  preds: Map<string, RawQuestion[]>,
): { dialogue: [TestAction, RawQuestion]; watch: [TestAction, RawQuestion] } {
  const find = (field: string) => {
    for (const a of [...user.testActions].sort((x, y) => x.index - y.index)) {
      const q = preds
        .get(predictionKey(user.userId, a.index))
        ?.find((x) => x.field === field && x.predicted_value !== null);
      if (q && q.true_value !== null && (field !== 'video_watch_seconds' || a.normaliser))
        return [a, q] as [TestAction, RawQuestion];
    }
    throw new Error(`${user.userId} has no test action with a predicted ${field}`);
  };
  return { dialogue: find('next_user_message'), watch: find('video_watch_seconds') };
}

interface Target {
  user: OmniUser;
  action: TestAction;
  wrong: RawQuestion;
  index: HistoryIndex;
}

/** A binary question answered Yes/No that differs from the truth, with a raw output, in a history of > 200 records. */
function findTarget(
  bench: OmniBenchmark,
  preds: Map<string, RawQuestion[]>,
  indexes: Map<string, HistoryIndex>,
): Target {
  for (const user of [...bench.users.values()].sort((a, b) => a.userId.localeCompare(b.userId))) {
    for (const action of [...user.testActions].sort((a, b) => a.index - b.index)) {
      const qs = preds.get(predictionKey(user.userId, action.index)) ?? [];
      const wrong = qs.find(
        (q) =>
          q.type === 'binary' &&
          q.predicted_label !== null &&
          q.raw_output &&
          q.predicted_value !== q.true_value &&
          q.true_value !== null,
      );
      const index = indexes.get(user.userId)!;
      if (wrong && action.index > 250 && action.index < index.count) return { user, action, wrong, index };
    }
  }
  throw new Error('sample/omnibehavior has no test action with a wrong binary answer');
}

describe('OmniBehavior trace view in the real workbench', () => {
  let wb: Workbench;
  let bench: OmniBenchmark;
  let target: Target;
  let frame: Frame;
  let runName: string;
  let preds: Map<string, RawQuestion[]>;

  const row = (label: string, level: number) => wb.sideBar.benchmarks.row(label, level).first();

  async function expand(label: string, level: number): Promise<void> {
    const r = row(label, level);
    await r.waitFor({ state: 'visible', timeout: 60_000 });
    if ((await r.getAttribute('aria-expanded')) !== 'true') await twistie(r).click();
    await waitFor(async () => (await r.getAttribute('aria-expanded')) === 'true', { message: `${label} to expand` });
  }

  beforeAll(async () => {
    bench = await loadOmniBenchmark(omniRoot);
    runName = [...bench.runs.keys()].sort()[0];
    const run = bench.runs.get(runName)!;
    preds = readPredictions(join(run.dir, 'predictions.jsonl'));
    const indexes = new Map<string, HistoryIndex>();
    for (const u of bench.users.values()) indexes.set(u.userId, await indexUserFile(u.file));
    target = findTarget(bench, preds, indexes);
    wb = await startWorkbench({ folder: sample, theme: 'dark', viewport: { width: 1600, height: 1000 } });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`trace-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
  });

  it('shows the OmniBehavior benchmark beside the StreamProfileBench one and walks to a wrong test action', async () => {
    await wb.openView('Persona Lab');
    await row('sample', 1).waitFor({ state: 'visible', timeout: 60_000 });
    const root = row('omnibehavior', 1);
    await root.waitFor({ state: 'visible', timeout: 60_000 });
    const score = scoreOmniRun(bench, bench.runs.get(runName)!);
    expect(await rowDescription(root).innerText()).toContain(`run: ${runName} · OmniBehavior`);

    const { user, action } = target;
    await expand('omnibehavior', 1);
    const userRow = row(user.userId, 2);
    await userRow.waitFor({ state: 'visible' });
    // Short rows: the run's answers; the history and test action counts are in the tooltip.
    const userCounts = userActionCounts(score.perAction, user)!;
    const userDescription = await rowDescription(userRow).innerText();
    // The figure first: the share right, then its counts (graded and left out are in the tooltip).
    expect(userDescription.startsWith(rowCountsText(userCounts, true))).toBe(true);
    expect(userDescription).toMatch(/^\d+% right \(\d+ of \d+\)/);
    expect(userDescription).not.toContain('actions');
    await expand(user.userId, 2);

    const label = `#${action.index} ${action.scene}`;
    const actionRow = row(label, 3);
    await actionRow.scrollIntoViewIfNeeded();
    await actionRow.waitFor({ state: 'visible' });
    const counts = score.perAction.get(predictionKey(user.userId, action.index))!;
    expect(counts.incorrect).toBeGreaterThan(0);
    const description = await rowDescription(actionRow).innerText();
    expect(description).toContain(`${counts.correct} of ${counts.correct + counts.incorrect} right`);
    expect(description).not.toContain(action.timestamp);
    expect(await actionRow.locator('.custom-view-tree-node-item-icon').getAttribute('class')).toContain(
      'codicon-error',
    );
    await wb.screenshot('trace-tree');

    await actionRow.click();
    frame = await wb.findWebviewFrame(`#trace-root[data-trace="${user.userId}#${action.index}"]`, { timeout: 60_000 });
  });

  it('shows the profile and the scene context of the test action', async () => {
    const raw = JSON.parse(readFileSync(target.user.file, 'utf8')) as Record<string, { user_profile: string }>;
    expect(await frame.locator('.profile-text').innerText()).toBe(raw[target.user.userId].user_profile);
    const [record] = await readHistory(target.user.file, target.index, target.action.index, target.action.index + 1);
    const keys = await frame
      .locator('.context-table tr')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));
    expect(keys).toEqual(Object.keys(record.context ?? {}));
  });

  it('lists the history before the test action, filtered by scene, with rows read from the file', async () => {
    const { index, action, user } = target;
    const timeline = frame.locator('.timeline');
    await waitFor(async () => (await timeline.getAttribute('data-count')) === String(action.index), {
      message: `the timeline to count ${action.index} records`,
    });
    // The first row is record #0; the list holds only a window of rows, not the whole history.
    const first = await readHistory(user.file, index, 0, 1);
    await waitFor(async () => (await timeline.locator('.vrow[data-index="0"] .idx').textContent()) === '#0', {
      message: 'the first row',
    });
    expect(await timeline.locator('.vrow[data-index="0"] .ts').textContent()).toBe(first[0].timestamp);
    expect(await timeline.locator('.vlist .vrow').count()).toBeLessThan(100);
    // A row opens its whole record below the list.
    await timeline.locator('.vrow[data-index="0"]').click();
    const detail = timeline.locator('.record-detail');
    await detail.waitFor({ state: 'visible' });
    expect(await detail.textContent()).toContain(JSON.stringify(first[0].timestamp));

    // Filter on the test action's scene: the count and the rows must be the index's records of that scene.
    const sceneId = SCENES.indexOf(action.scene);
    const expected: number[] = [];
    for (let i = 0; i < action.index; i++) if (index.scenes[i] === sceneId) expected.push(i);
    await timeline.locator(`vscode-checkbox[data-filter="scene"][data-value="${action.scene}"]`).click();
    await waitFor(async () => (await timeline.getAttribute('data-count')) === String(expected.length), {
      message: `${expected.length} ${action.scene} records`,
    });
    await waitFor(
      async () => (await timeline.locator('.vrow[data-index="0"] .idx').textContent()) === `#${expected[0]}`,
      { message: 'the first filtered row' },
    );
    const scenes = await timeline.locator('.vlist .vrow .sc').allTextContents();
    expect(new Set(scenes)).toEqual(new Set([action.scene]));

    // The last row, fetched in another window once the list scrolls to the end.
    await timeline.locator('.vlist').focus();
    await pressIn(timeline.locator('.vlist'), 'End');
    const lastPos = expected.length - 1;
    await waitFor(
      async () =>
        (await timeline.locator(`.vrow[data-index="${lastPos}"] .idx`).textContent()) === `#${expected[lastPos]}`,
      { message: 'the last filtered row' },
    );
    const [last] = await readHistory(user.file, index, expected[lastPos], expected[lastPos] + 1);
    expect(await timeline.locator(`.vrow[data-index="${lastPos}"] .ts`).textContent()).toBe(last.timestamp);

    // Add a behaviour filter: records of the scene that hold that behaviour.
    const bit = index.behaviours[expected[lastPos]] & -index.behaviours[expected[lastPos]];
    const behaviour = BEHAVIOURS[Math.log2(bit)];
    const both = expected.filter((i) => (index.behaviours[i] & bit) !== 0).length;
    await timeline.locator(`vscode-checkbox[data-filter="behaviour"][data-value="${behaviour}"]`).click();
    await waitFor(async () => (await timeline.getAttribute('data-count')) === String(both), {
      message: `${both} records with ${behaviour}`,
    });
    const firstBoth = expected.find((i) => (index.behaviours[i] & bit) !== 0)!;
    await waitFor(
      async () => (await timeline.locator('.vrow[data-index="0"] .idx').textContent()) === `#${firstBoth}`,
      { message: 'the first row with both filters' },
    );
    expect(await timeline.locator('.vrow[data-index="0"] .bh').textContent()).toContain(behaviour);
    await timeline.locator('.chart-box').scrollIntoViewIfNeeded();
    await wb.screenshot('trace-timeline');
  });

  it('marks the wrong question with its true and predicted values, and shows the raw output on demand', async () => {
    const { wrong } = target;
    const q = frame.locator(`.question[data-field="${wrong.field}"]`);
    await q.scrollIntoViewIfNeeded();
    expect(await q.getAttribute('data-verdict')).toBe('incorrect');
    expect(await q.locator('.verdict').innerText()).toContain('wrong');
    expect(await q.locator('.true-value').innerText()).toBe(String(wrong.true_value));
    expect(await q.locator('.predicted-value').innerText()).toBe(String(wrong.predicted_value));
    const raw = q.locator('.raw-output');
    expect(await raw.isVisible()).toBe(false);
    await q.locator(`vscode-button[data-raw="${wrong.field}"]`).click();
    await raw.waitFor({ state: 'visible' });
    expect(await raw.textContent()).toBe(wrong.raw_output);
    await wb.screenshot('trace-question');
  });

  it('shows next_user_message side by side, and a watch time with its error against the video duration', async () => {
    const { dialogue, watch } = findOthers(target.user, preds);
    const open = async (action: TestAction) => {
      const r = row(`#${action.index} ${action.scene}`, 3);
      await r.scrollIntoViewIfNeeded();
      await r.click();
      await waitFor(
        async () =>
          (await frame.locator('#trace-root').getAttribute('data-trace')) === `${target.user.userId}#${action.index}`,
        { message: `the trace of #${action.index}` },
      );
    };

    await open(dialogue[0]);
    const msg = frame.locator('.question[data-field="next_user_message"]');
    const truth = msg.locator('.true-value .prose');
    const predicted = msg.locator('.predicted-value .prose');
    expect(await truth.innerText()).toBe(String(dialogue[1].true_value));
    expect(await predicted.innerText()).toBe(String(dialogue[1].predicted_value));
    const [a, b] = [await truth.boundingBox(), await predicted.boundingBox()];
    expect(a && b && Math.abs(a.y - b.y) < 2 && b.x > a.x + a.width).toBe(true);
    await msg.scrollIntoViewIfNeeded();
    await wb.screenshot('trace-dialogue');

    await open(watch[0]);
    const [action, q] = watch;
    const norm = action.normaliser!;
    const err = Math.abs(Number(q.true_value) - Number(q.predicted_value));
    const text = await frame.locator('.question[data-field="video_watch_seconds"] .error-text').innerText();
    expect(text).toBe(
      `|error| ${err} · normaliser ${norm} · NMAE term ${((Math.min(err, norm) / norm) * 100).toFixed(1)} % of duration`,
    );
    await frame.locator('.question[data-field="video_watch_seconds"]').scrollIntoViewIfNeeded();
    await wb.screenshot('trace-watch-time');
  });

  it('moves to the next test action with ], revealing it in the tree, and opens the raw record at its line', async () => {
    const order = [...target.user.testActions].sort((a, b) => a.index - b.index);
    const current = Number((await frame.locator('#trace-root').getAttribute('data-trace'))!.split('#')[1]);
    const next = order[order.findIndex((a) => a.index === current) + 1];
    await frame.locator('.trace-header .user-id').click();
    await pressIn(frame.locator('body'), ']');
    await waitFor(
      async () =>
        (await frame.locator('#trace-root').getAttribute('data-trace')) === `${target.user.userId}#${next.index}`,
      { message: `the trace of #${next.index}` },
    );
    expect(await frame.locator('.position').textContent()).toBe(`${order.indexOf(next) + 1} / ${order.length}`);
    await waitFor(async () => (await row(`#${next.index} ${next.scene}`, 3).getAttribute('aria-selected')) === 'true', {
      message: 'the tree to select the next test action',
    });

    // The record's line of the raw file, pretty-printed beside the view (the file holds it on one line).
    await frame.locator('vscode-button[data-source="raw"]').click();
    const file = target.user.file.split('/').pop()!;
    const line = target.index.lines[next.index];
    const tab = wb.editor.tab(`${file} line ${line}`);
    await tab.waitFor({ timeout: 30_000 });
    const group = wb.editor.group(`${file} line ${line}`);
    await waitFor(
      async () =>
        (await wb.editor.linesIn(group).innerText())
          .replace(/\u00a0/g, ' ')
          .includes(`"timestamp": "${next.timestamp}"`),
      { message: `the record of #${next.index} pretty-printed` },
    );
  });
  it('comes back after Reload Window, showing the same test action', async () => {
    const key = (await frame.locator('#trace-root').getAttribute('data-trace'))!;
    // The raw file took the editor: bring the trace view to the front, so that it is restored as the visible one.
    await wb.editor.tab(`${target.user.userId} · #`).click();
    const reloaded = wb.page.waitForEvent('load', { timeout: 60_000 });
    await wb.runCommand('Developer: Reload Window').catch(() => {});
    await reloaded;
    await wb.waitForWorkbench();
    frame = await wb.findWebviewFrame(`#trace-root[data-trace="${key}"] .trace-header`, { timeout: 90_000 });
    expect(await frame.locator('.trace-header .user-id').textContent()).toBe(target.user.userId);
    await wb.waitForExtensionHostLine(`trace view: restored ${key.replace('#', ' #')}`);
  });
});
