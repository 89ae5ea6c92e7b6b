// A labelling project over OmniBehavior test actions in the real workbench (both benchmarks as peers): one
// annotator, dana, opens a copy of sample/ (all three benchmarks) with personaLab.labels.server set to this file's own
// PostgreSQL cluster. New Labelling Project… asks which benchmark, and takes OmniBehavior's test actions of the
// selected run; erin, a second annotator simulated through the core's LabelQueues, takes the first test action before
// dana starts. dana then walks her queue in the trace view with a number key and `.`: each `.` submits the test action
// shown and opens the next one the server gives her, never erin's; the server holds her labels on exactly those test
// actions, and the Benchmarks view's message counts test actions, as the server does.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseItem } from '../../src/core/labels/server/projectItems';
import { LabelQueues, type Project } from '../../src/core/labels/server/queue';
import { ServerLabelStore } from '../../src/core/labels/server/store';
import { DEFAULT_TRACE_LABELS } from '../../src/core/omni/labels/labelSet';
import { startCluster, stopCluster } from '../../scripts/pg-cluster.mjs';
import { pressIn, repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { pgSkipReason } from './support/labelServer';

const PROJECT = 'Scenes pass 1';
const SAMPLE = 4;
const LABEL = DEFAULT_TRACE_LABELS[0];
const skip = pgSkipReason();

/** A test action item as the trace view names what it shows (data-trace: userId#index). */
function traceOfItem(item: string): string {
  const at = parseItem(item);
  if (at?.kind !== 'testAction') throw new Error(`not a test action item: ${item}`);
  return `${at.ref.userId}#${at.ref.index}`;
}

describe.skipIf(skip !== undefined)(
  `a labelling project over OmniBehavior test actions${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let cluster: { dir: string; url: string };
    let server: ServerLabelStore;
    let queues: LabelQueues;
    let project: Project;
    let wb: Workbench;
    let tmp: string;
    let frame: Frame;
    /** The test actions dana's trace view showed, in order. */
    const opened: string[] = [];

    beforeAll(async () => {
      cluster = await startCluster();
      server = await ServerLabelStore.open(cluster.url);
      queues = new LabelQueues(server);
      tmp = mkdtempSync(join(tmpdir(), 'persona-lab-omni-project-'));
      const root = join(tmp, 'sample');
      cpSync(join(repoRoot, 'sample'), root, { recursive: true });
      // In the workspace's settings (code-server's window is a remote one; see labelServer.test.ts).
      mkdirSync(join(root, '.vscode'), { recursive: true });
      writeFileSync(
        join(root, '.vscode', 'settings.json'),
        JSON.stringify({ 'personaLab.labels.author': 'dana', 'personaLab.labels.server': cluster.url }, null, 2),
      );
      wb = await startWorkbench({ folder: root, theme: 'dark', viewport: { width: 1600, height: 1000 } });
    });

    afterEach(async (ctx) => {
      if (ctx.task.result?.state !== 'fail') return;
      await wb?.screenshot(`label-server-omni-FAILED-${ctx.task.name}`).catch(() => {});
      console.log(`--- Persona Lab log (last lines)\n${wb?.logLines().slice(-25).join('\n') ?? ''}`);
    });

    afterAll(async () => {
      await wb?.close();
      await server?.close().catch(() => undefined);
      if (cluster) stopCluster(cluster.dir, { remove: true });
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    const message = () =>
      wb.sideBar.benchmarks
        .message()
        .innerText()
        .catch(() => '');

    it('New Labelling Project… asks for the benchmark and takes the test actions of the selected run', async () => {
      await wb.openView('Persona Lab');
      await wb.sideBar.benchmarks.rows().first().waitFor({ state: 'visible', timeout: 60_000 });
      const quick = wb.quickInput;
      await wb.startCommand('Persona Lab: New Labelling Project…');
      await wb.quick.title('which benchmark').waitFor({ timeout: 30_000 });
      // every benchmark of the copy whose format gives a project its items (PersonaMem's questions too)
      expect(await wb.quick.rowLabels().allInnerTexts()).toEqual(['StreamProfileBench', 'OmniBehavior', 'PersonaMem']);
      await wb.pickQuickPickRow('OmniBehavior', 'OmniBehavior');
      const step = async (n: number, title: string, value: string | null) => {
        await wb.quick.title(`(${n}/4)`).waitFor({ timeout: 30_000 });
        expect(await wb.quick.title().innerText()).toContain(title);
        if (value !== null) await wb.quick.input().fill(value);
        await wb.quick.press('Enter');
      };
      await step(1, 'name', PROJECT);
      await step(2, 'the runs whose test actions are labelled', null);
      await step(3, 'test actions', String(SAMPLE));
      await step(4, 'annotators per test action', '1');
      await quick.waitFor({ state: 'hidden', timeout: 30_000 });
      await waitFor(async () => (await wb.notifications()).some((n) => n.includes(`project ${PROJECT}`)), {
        message: 'the project made',
      });
      project = (await queues.get(PROJECT))!;
      expect(project).toMatchObject({ itemCount: SAMPLE, overlap: 1, createdBy: 'dana', benchmark: 'omnibehavior' });
      expect(project.runs).toHaveLength(1);
      const expected = `Project ${PROJECT}: 0 of ${SAMPLE} test actions done (1 each)`;
      let seen = '';
      await waitFor(async () => (seen = await message()) === expected, {
        message: () => `the Benchmarks view to say "${expected}" (it says "${seen}")`,
      });
    });

    it('`.` in the trace view walks her own queue: each test action the server gives her, never erin’s', async () => {
      // erin takes the first test action; with overlap 1 it is never dana's.
      const erins = (await queues.next(project, 'erin'))!;
      expect(await queues.submit(project, erins, 'erin')).toBe(true);

      await wb.runCommand('Persona Lab: Next Assigned (Labelling Project)');
      frame = await wb.findWebviewFrame('#trace-root .labels-bar', { timeout: 60_000 });
      for (let i = 0; i < SAMPLE - 1; i++) {
        const before = opened.at(-1) ?? '';
        if (i > 0) await pressIn(frame.locator('body'), '.');
        const shown = await waitFor(
          async () => {
            const t =
              (await frame
                .locator('#trace-root')
                .getAttribute('data-trace')
                .catch(() => null)) ?? '';
            return t && t !== before && (await frame.locator('.labels-bar').count()) > 0 ? t : undefined;
          },
          {
            timeout: 30_000,
            message: `the trace view to open the next assigned test action (after ${before || 'none'})`,
          },
        );
        opened.push(shown);
        if (i === 0) {
          expect(await frame.locator('.labels-help').innerText()).toContain(`next assigned (${PROJECT})`);
          await frame.locator('.trace-header .user-id').click(); // the keys go to the trace view
        }
        await pressIn(frame.locator('body'), LABEL.key!);
        const chip = frame.locator(`.labels-bar .label-chip[data-label-id="${LABEL.id}"]`);
        await waitFor(async () => (await chip.getAttribute('aria-pressed')) === 'true', {
          message: `${LABEL.id} on ${shown}`,
        });
      }
      // The last `.` submits the last one and finds nothing left.
      await pressIn(frame.locator('body'), '.');
      await waitFor(
        async () => (await wb.notifications()).some((n) => n.includes(`nothing left for you in ${PROJECT}`)),
        {
          message: 'the end of the queue',
        },
      );

      const claims = await queues.claimed(project, 'dana');
      expect(opened).toEqual(claims.map((c) => traceOfItem(c.item)));
      expect(claims.every((c) => c.submitted)).toBe(true);
      expect(opened).not.toContain(traceOfItem(erins));
      // The server holds her label on exactly the test actions she was given, in the project's run.
      await waitFor(async () => (await server.list({ author: 'dana' })).length === opened.length, {
        message: "dana's labels on the server",
      });
      const rows = await server.list({ author: 'dana' });
      expect(rows.map((r) => `${r.userId}#${r.stepId}`).sort()).toEqual([...opened].sort());
      expect(rows.every((r) => r.run === project.runs[0] && r.label === LABEL.id)).toBe(true);
      expect(rows.every((r) => r.benchmark === 'omnibehavior' && r.target.kind === 'action')).toBe(true);
      const expected = `Project ${PROJECT}: ${SAMPLE} of ${SAMPLE} test actions done (1 each) · dana ${SAMPLE - 1} · erin 1`;
      let seen = '';
      await waitFor(async () => (seen = await message()) === expected, {
        message: () => `the Benchmarks view to say "${expected}" (it says "${seen}")`,
      });
      await wb.screenshot('label-server-omni-project');
    });
  },
);
