// From a team's labels to gold, in the real workbench on one label server (this file's own PostgreSQL cluster):
// alice and bob, each in a workbench of their own (two code-servers at once, each with its own copy of sample/ and
// settings), label the six steps of one project with overlap 2 by key, walking their queues with `.`; they disagree
// on two steps. Then bob's window closes and judy's opens: judy logs in as a role of the server's adjudicator group,
// runs Adjudicate Labels… over the project and settles the two open steps by key (1: alice's labels, 2: bob's). Her
// Label Agreement view shows the gold counts, why runs fail and each annotator against gold, her run dashboard the
// why-runs-fail table, each as `labels gold <server> --json` (the built CLI) gives them.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LabelQueues, type Project } from '../../src/core/labels/server/queue';
import { unitItem } from '../../src/core/labels/server/projectItems';
import { ServerLabelStore } from '../../src/core/labels/server/store';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { resultFor } from '../../src/core/spb/score/run';
import { ADJUDICATOR_ROLE, ANNOTATOR_ROLE } from '../../src/core/storage/pgRoles';
import { startCluster, stopCluster } from '../../scripts/pg-cluster.mjs';
import { pressIn, repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { cli } from './labelsPage';
import { expectedSection, goldRuns, readSection, waitForGoldCounts } from './goldPage';
import { chipPressed, nextShownStep, pgSkipReason, stepOfItem } from './support/labelServer';

const PROJECT = 'Gold pass 1';
const STEPS = 6;
/** The label keys (1: decay-error, 7: format-error) alice gives, in the order her queue hands the steps out. */
const ALICE = ['1', '1', '7', '1', '7', '1'];
/** bob gives alice's label on each step but these two (by alice's order), where he gives the other one. */
const BOB_DIFFERS = new Set([1, 4]);
const OTHER: Record<string, string> = { '1': '7', '7': '1' };
const LABEL_OF_KEY: Record<string, string> = { '1': 'decay-error', '7': 'format-error' };
const JUDY = 'judy';
const JUDY_PASSWORD = 'pw-judy-gold';

const skip = pgSkipReason();

type Who = 'alice' | 'bob' | 'judy';

interface GoldJson {
  counts: { adjudicated: number; unanimous: number; open: number; single: number; units: number };
  benchmarks: {
    benchmark: string;
    counts: GoldJson['counts'];
    annotators: { author: string; units: number; adjudicated: number; overall: { kappa: number | null } }[];
    runs: {
      run: string;
      settled: number;
      failing: number;
      byLabel: Record<string, { count: number; share: number | null }>;
    }[];
    units: { userId: string; stepId: number; status: string; gold: string[] | null; adjudicator?: string }[];
  }[];
}

describe.skipIf(skip !== undefined)(
  `a team's labels settled into gold on a label server${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let cluster: { dir: string; url: string };
    let server: ServerLabelStore;
    let queues: LabelQueues;
    let project: Project;
    const tmp: string[] = [];
    const wbs: Partial<Record<Who, Workbench>> = {};
    const wb = (who: Who) => wbs[who]!;
    /** The key each annotator pressed on each step (platform/userId/stepId). */
    const keyed: Record<'alice' | 'bob', Map<string, string>> = { alice: new Map(), bob: new Map() };

    const gold = () => JSON.parse(cli(['labels', 'gold', cluster.url, '--json'])) as GoldJson;

    /** A copy of sample/ whose workspace settings point Persona Lab at the server as `url`, labelling as `author`. */
    function folderFor(who: Who, url: string): string {
      const dir = mkdtempSync(join(tmpdir(), `persona-lab-gold-${who}-`));
      tmp.push(dir);
      const root = join(dir, 'sample');
      cpSync(join(repoRoot, 'sample'), root, { recursive: true });
      mkdirSync(join(root, '.vscode'), { recursive: true });
      writeFileSync(
        join(root, '.vscode', 'settings.json'),
        JSON.stringify({ 'personaLab.labels.author': who, 'personaLab.labels.server': url }, null, 2),
      );
      return root;
    }

    /** A command from the palette, then the row `row` of the quick pick it opens. */
    async function commandPick(who: Who, command: string, row: string): Promise<void> {
      await wb(who).startCommand(command);
      await wb(who).pickQuickPickRow(row, row);
      await wb(who).quickInput.waitFor({ state: 'hidden', timeout: 30_000 });
    }

    async function showTree(who: Who): Promise<void> {
      await wb(who).openView('Persona Lab');
      await wb(who).sideBar.benchmarks.rows().first().waitFor({ state: 'visible', timeout: 60_000 });
    }

    const message = (who: Who) =>
      wb(who)
        .sideBar.benchmarks.message()
        .innerText()
        .catch(() => '');

    beforeAll(async () => {
      cluster = await startCluster();
      server = await ServerLabelStore.open(cluster.url);
      queues = new LabelQueues(server);
      // judy: a login role of the server's annotator and adjudicator groups (only the latter may write gold).
      const admin = new Client({ connectionString: cluster.url });
      await admin.connect();
      try {
        await admin.query(`CREATE ROLE ${JUDY} LOGIN PASSWORD '${JUDY_PASSWORD}'`);
        await admin.query(`GRANT ${ANNOTATOR_ROLE}, ${ADJUDICATOR_ROLE} TO ${JUDY}`);
      } finally {
        await admin.end();
      }
      // The project: six steps of the first run that have a result, two annotators each.
      const bench = await loadBenchmark(join(repoRoot, 'sample'));
      const run = bench.runs.get([...bench.runs.keys()].sort()[0])!;
      const items = [...bench.users.get('weibo')!.values()]
        .flatMap((u) =>
          u.steps
            .filter((s) => resultFor(run, u, s.stepId))
            .map((s) =>
              unitItem({ benchmark: 'sample', platform: 'weibo', userId: u.userId, stepId: s.stepId, run: run.name }),
            ),
        )
        .slice(0, STEPS);
      expect(items).toHaveLength(STEPS);
      project = await queues.create({
        name: PROJECT,
        benchmark: 'sample',
        runs: [run.name],
        labels: [],
        overlap: 2,
        createdBy: 'alice',
        items,
      });
      // Two windows at once: the first borrows the shared code-server, the second gets its own.
      for (const who of ['alice', 'bob'] as const)
        wbs[who] = await startWorkbench({
          folder: folderFor(who, cluster.url),
          theme: 'dark',
          viewport: { width: 1600, height: 1000 },
        });
    });

    afterEach(async (ctx) => {
      if (ctx.task.result?.state !== 'fail') return;
      for (const who of ['alice', 'bob', 'judy'] as const) {
        await wbs[who]?.screenshot(`gold-team-FAILED-${who}-${ctx.task.name}`).catch(() => {});
        console.log(`--- ${who}'s Persona Lab log (last lines)\n${wbs[who]?.logLines().slice(-25).join('\n') ?? ''}`);
      }
    });

    afterAll(async () => {
      for (const who of ['alice', 'bob', 'judy'] as const) await wbs[who]?.close();
      await server?.close().catch(() => undefined);
      if (cluster) stopCluster(cluster.dir, { remove: true });
      for (const d of tmp) rmSync(d, { recursive: true, force: true });
    });

    /** Choose Labelling Project…, then Next Assigned and, for each step, a label key and `.` for the next one. */
    async function walkQueue(who: 'alice' | 'bob', keyOf: (step: string, i: number) => string): Promise<void> {
      const w = wb(who);
      await showTree(who);
      await commandPick(who, 'Persona Lab: Choose Labelling Project…', PROJECT);
      await w.runCommand('Persona Lab: Next Assigned (Labelling Project)');
      const frame = await w.findWebviewFrame('#step-root .labels-bar', { timeout: 60_000 });
      let before = '';
      for (let i = 0; i < STEPS; i++) {
        if (i > 0) await pressIn(frame.locator('body'), '.');
        const step = await nextShownStep(frame, before, who);
        before = step;
        if (i === 0) await frame.locator('.step-header .user-id').click(); // the keys go to the step view
        const key = keyOf(step, i);
        await pressIn(frame.locator('body'), key);
        await chipPressed(frame, LABEL_OF_KEY[key]);
        keyed[who].set(step, key);
      }
    }

    it('alice and bob label the same six steps by key, each from their own queue, and disagree on two', async () => {
      await walkQueue('alice', (_step, i) => ALICE[i]);
      const aliceOrder = [...keyed.alice.keys()];
      expect(aliceOrder).toEqual((await queues.items(project)).map(stepOfItem));
      // Overlap 2: bob's queue hands him the same steps, which still need a second annotator.
      await walkQueue('bob', (step) => {
        const i = aliceOrder.indexOf(step);
        expect(i, `bob was handed ${step}, which alice did not label`).toBeGreaterThanOrEqual(0);
        return BOB_DIFFERS.has(i) ? OTHER[ALICE[i]] : ALICE[i];
      });
      expect([...keyed.bob.keys()].sort()).toEqual([...aliceOrder].sort());
      // Every label reaches the server; the gold set has four unanimous steps and two open.
      await waitFor(async () => (await server.count()) === 2 * STEPS, { message: 'the twelve labels on the server' });
      expect(gold().counts).toMatchObject({ units: STEPS, unanimous: STEPS - 2, open: 2, adjudicated: 0 });
      await wb('bob').screenshot('gold-team-bob');
    });

    it("judy, of the adjudicator group, settles the project's two open steps by key in a window of her own", async () => {
      await wb('bob').close();
      delete wbs.bob;
      const url = new URL(cluster.url);
      url.username = JUDY;
      url.password = JUDY_PASSWORD;
      wbs.judy = await startWorkbench({
        folder: folderFor('judy', url.toString()),
        theme: 'dark',
        viewport: { width: 1600, height: 1000 },
      });
      await showTree('judy');
      await commandPick('judy', 'Persona Lab: Adjudicate Labels…', `Project ${PROJECT}`);
      const open = gold().benchmarks[0].units.filter((u) => u.status === 'open');
      expect(open).toHaveLength(2);
      for (const [n, unit] of open.entries()) {
        const frame: Frame = await wb('judy').findWebviewFrame(
          `#step-root[data-step="weibo/${unit.userId}/${unit.stepId}"] section.adjudication[data-state="open"]`,
          { timeout: 60_000 },
        );
        const section = frame.locator('section.adjudication');
        expect(
          await section.locator('.annotator').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.author)),
        ).toEqual(['alice', 'bob']);
        if (n === 0) {
          // While the pass shows, key 1 takes alice's labels: the chip of decay-error (key 1) must not claim it.
          const help = await frame
            .locator('.labels-bar .label-chip[data-label-id="decay-error"]')
            .getAttribute('aria-description');
          expect(help).toContain("Key 1 is the adjudication pass's");
          expect(help).not.toContain('Key 1 toggles');
          await wb('judy').screenshot('gold-team-adjudicate');
        }
        await section.locator('.adjudication-head').click();
        await pressIn(frame.locator('body'), String(n + 1));
        await waitFor(async () => (await message('judy')).includes(`${n + 1} settled · ${STEPS - 2} agreed`), {
          timeout: 30_000,
          message: `judy's Benchmarks view to count ${n + 1} settled`,
        });
      }
      const j = gold();
      expect(j.counts).toMatchObject({ adjudicated: 2, unanimous: STEPS - 2, open: 0 });
      const settled = j.benchmarks[0].units.filter((u) => u.status === 'adjudicated');
      // The server signs each decision with the session's role; 1 took alice's labels, 2 bob's.
      expect(settled.map((u) => u.adjudicator)).toEqual([JUDY, JUDY]);
      const step = (u: { userId: string; stepId: number }) => `weibo/${u.userId}/${u.stepId}`;
      expect(settled.map((u) => u.gold)).toEqual(
        open.map((u, i) => [LABEL_OF_KEY[keyed[i === 0 ? 'alice' : 'bob'].get(step(u))!]]),
      );
    });

    it("judy's Label Agreement and run dashboard show the gold counts, each annotator against gold and why runs fail, as labels gold --json", async () => {
      const b = gold().benchmarks.find((x) => x.benchmark === 'sample')!;
      await wb('judy').runCommand('Persona Lab: Label Summary');
      const page = await wb('judy').findWebviewFrame(
        '#agreement-root section.gold .gold-benchmark[data-benchmark="sample"]',
        {
          timeout: 60_000,
        },
      );
      const block = page.locator('#agreement-root section.gold .gold-benchmark[data-benchmark="sample"]');
      const c = b.counts;
      await waitForGoldCounts(block, c);
      expect(await block.locator('table.against-gold tr.overall td:first-child').allInnerTexts()).toEqual(
        b.annotators.map((a) => a.author),
      );
      expect(await block.locator('table.against-gold tr.overall td:nth-child(3)').allInnerTexts()).toEqual(
        b.annotators.map((a) => String(a.units)),
      );
      expect(await block.locator('table.against-gold tr.overall td:nth-child(7)').allInnerTexts()).toEqual(
        b.annotators.map((a) => (a.overall.kappa === null ? 'n/a' : a.overall.kappa.toFixed(3))),
      );
      const settledRow = b.runs.map((r) => `${r.failing} of ${r.settled}`);
      expect(await block.locator('table.why-runs-fail tr.settled td').allInnerTexts()).toEqual(settledRow);
      await block.scrollIntoViewIfNeeded();
      await wb('judy').screenshot('gold-team-agreement');

      await commandPick('judy', 'Persona Lab: Open Dashboard', 'StreamProfileBench');
      const dash = await wb('judy').findWebviewFrame(
        '#dash-root[data-page="dashboard"] .why-runs-fail-section[data-state="shown"]',
        {
          timeout: 90_000,
        },
      );
      const shown = await readSection(dash, '#dash-root');
      expect(shown).toMatchObject(expectedSection(goldRuns(cluster.url, 'sample')));
      expect(shown.runs).toEqual(b.runs.map((r) => r.run));
      expect(shown.covers).toContain('label server');
      await dash.locator('.why-runs-fail-section').scrollIntoViewIfNeeded();
      await wb('judy').screenshot('gold-team-dashboard');
    });
  },
);
