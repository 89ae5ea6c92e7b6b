// A labelling team on one label server in the real workbench: two annotators, alice and bob, each in a
// workbench of their own (two code-servers, each with its own user data, settings and secret storage, as two people's
// VS Code are; each opens its own copy of sample/) with personaLab.labels.server set to this file's own PostgreSQL
// cluster. alice makes a project through New Labelling Project…'s inputs; carol, a third annotator simulated
// through the core's LabelQueues, claims and labels ten of its steps first, so that alice's and bob's queues differ.
// Each window then walks its own queue with `.` and a number key: it opens exactly the steps the server assigned to
// its author, in order, never another's; the Benchmarks view's message gives the project's progress as the server
// counts it; bob's Label Agreement view shows Fleiss' κ among the three per label, as the core computes it from the
// server's rows. Then the server stops: alice labels on, the bar says the server cannot be reached, the label is in
// her view; the server starts again, her bar shows the cloud icon, and the server holds every label made in the
// two windows and by carol, once each.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MISSING } from '../../src/core/glossary';
import { kappaCellText } from '../../src/core/labels/agreement';
import { labelAgreementsByBenchmark } from '../../src/core/labels/agreementPerLabel';
import { LabelQueues, type Project } from '../../src/core/labels/server/queue';
import { ServerLabelStore } from '../../src/core/labels/server/store';
import { resumeCluster, startCluster, stopCluster, TEST_PASSWORD } from '../../scripts/pg-cluster.mjs';
import { pressIn, repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import {
  chipPressed,
  labelKey,
  labelOnItem,
  nextShownStep,
  pgSkipReason,
  shownStep,
  stepOfItem,
} from './support/labelServer';

const PROJECT = 'Team pass 1';
const SAMPLE = 16;
/** The labels each annotator gives, one per step, in the order their queue hands the steps out (1 and 7: keys). */
const KEYS: Record<'alice' | 'bob', string[]> = {
  alice: ['1', '7', '1', '7', '1', '1'],
  bob: ['7', '1', '1', '7', '7', '1'],
};
const LABEL_OF_KEY: Record<string, string> = { '1': 'decay-error', '7': 'format-error', '8': 'persona-drift' };
const CAROL = Array.from({ length: 10 }, (_, i) => (i % 3 === 0 ? 'format-error' : 'decay-error'));

const skip = pgSkipReason();

describe.skipIf(skip !== undefined)(`two annotators on one label server${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: { dir: string; url: string };
  let server: ServerLabelStore;
  let queues: LabelQueues;
  let project: Project;
  const tmp: string[] = [];
  const wbs: Record<'alice' | 'bob', Workbench | undefined> = { alice: undefined, bob: undefined };
  const frames: Partial<Record<'alice' | 'bob', Frame>> = {};
  let agreementView: Frame;
  /** Every label made, as labelKey gives it: carol's through the core, the others' with keys in their window. */
  const made: string[] = [];
  /** The steps each window opened with Next Assigned / `.`, in order. */
  const opened: Record<'alice' | 'bob', string[]> = { alice: [], bob: [] };
  const wb = (who: 'alice' | 'bob') => wbs[who]!;

  beforeAll(async () => {
    cluster = await startCluster();
    server = await ServerLabelStore.open(cluster.url);
    queues = new LabelQueues(server);
    for (const who of ['alice', 'bob'] as const) {
      const dir = mkdtempSync(join(tmpdir(), `persona-lab-team-${who}-`));
      tmp.push(dir);
      const root = join(dir, 'sample');
      cpSync(join(repoRoot, 'sample'), root, { recursive: true });
      // In the workspace's settings: code-server's window is a remote one, where a machine-overridable setting
      // (personaLab.labels.server) in the user settings is not applied. alice's URL holds the password (the code
      // hands the URL to pg, which reads it); bob's does not: he sets it with Set Label Server Password.
      const url = new URL(cluster.url);
      if (who === 'bob') url.password = '';
      mkdirSync(join(root, '.vscode'), { recursive: true });
      writeFileSync(
        join(root, '.vscode', 'settings.json'),
        JSON.stringify({ 'personaLab.labels.author': who, 'personaLab.labels.server': url.toString() }, null, 2),
      );
      // Two windows at once: the first borrows the shared code-server, the second gets its own.
      wbs[who] = await startWorkbench({ folder: root, theme: 'dark', viewport: { width: 1600, height: 1000 } });
    }
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    for (const who of ['alice', 'bob'] as const) {
      await wbs[who]?.screenshot(`label-server-FAILED-${who}-${ctx.task.name}`).catch(() => {});
      console.log(`--- ${who}'s Persona Lab log (last lines)\n${wbs[who]?.logLines().slice(-25).join('\n') ?? ''}`);
    }
  });

  afterAll(async () => {
    for (const who of ['alice', 'bob'] as const) await wbs[who]?.close();
    await server?.close().catch(() => undefined);
    if (cluster) stopCluster(cluster.dir, { remove: true });
    for (const d of tmp) rmSync(d, { recursive: true, force: true });
  });

  const message = (who: 'alice' | 'bob') =>
    wb(who)
      .sideBar.benchmarks.message()
      .innerText()
      .catch(() => '');

  /** The progress line the Benchmarks view should show, from the server's own counts. */
  async function expectedProgress(): Promise<string> {
    const p = await queues.progress(project);
    const people = p.annotators.map((a) => `${a.annotator} ${a.submitted}`).join(' · ');
    return `Project ${PROJECT}: ${p.done} of ${p.items} steps done (2 each) · ${people}`;
  }

  async function showTree(who: 'alice' | 'bob'): Promise<void> {
    await wb(who).openView('Persona Lab');
    await wb(who).sideBar.benchmarks.rows().first().waitFor({ state: 'visible', timeout: 60_000 });
  }

  it("alice makes a project through New Labelling Project…'s inputs; carol claims ten steps first", async () => {
    const quick = wb('alice').quickInput;
    await showTree('alice');
    await wb('alice').startCommand('Persona Lab: New Labelling Project…');
    // sample/ holds both benchmarks: the first question is which one.
    await wb('alice').quick.title('which benchmark').waitFor({ timeout: 30_000 });
    await wb('alice').pickQuickPickRow('StreamProfileBench', 'StreamProfileBench');
    const step = async (n: number, value: string | null) => {
      await wb('alice').quick.title(`(${n}/4)`).waitFor({ timeout: 30_000 });
      if (value !== null) await wb('alice').quick.input().fill(value);
      await wb('alice').quick.press('Enter');
    };
    await step(1, PROJECT);
    // The runs: the selected run is checked already; Enter takes it alone.
    await wb('alice').quick.title('(2/4)').waitFor({ timeout: 30_000 });
    expect(await wb('alice').quick.checkedRows().count()).toBe(1);
    await step(2, null);
    await step(3, String(SAMPLE));
    await step(4, '2');
    await quick.waitFor({ state: 'hidden', timeout: 30_000 });
    await waitFor(async () => (await wb('alice').notifications()).some((n) => n.includes(`project ${PROJECT}`)), {
      message: 'the project made',
    });

    project = (await queues.get(PROJECT))!;
    expect(project).toMatchObject({ itemCount: SAMPLE, overlap: 2, createdBy: 'alice', benchmark: 'sample' });
    expect(project.runs).toHaveLength(1);

    // carol claims, labels (one event each, as her window would send it) and submits her first ten steps.
    for (const label of CAROL) {
      const item = (await queues.next(project, 'carol'))!;
      const row = labelOnItem(item, 'carol', label);
      await server.push({
        uid: `carol-${item}`,
        author: 'carol',
        madeAt: row.createdAt,
        ops: [{ action: { kind: 'add', row } }],
      });
      expect(await queues.submit(project, item, 'carol')).toBe(true);
      made.push(labelKey(row));
    }
    const expected = await expectedProgress();
    expect(expected).toBe(`Project ${PROJECT}: 0 of ${SAMPLE} steps done (2 each) · carol 10`);
    // alice's window reads the progress again once carol's labels reach her replica.
    await waitFor(async () => (await message('alice')) === expected, {
      message: () => `alice's Benchmarks view to say "${expected}"`,
    });
  });

  /** Next Assigned from the palette, then for each key: label the step shown, `.` for the next one. */
  async function walkQueue(who: 'alice' | 'bob'): Promise<void> {
    const w = wb(who);
    await w.runCommand('Persona Lab: Next Assigned (Labelling Project)');
    const frame = await w.findWebviewFrame('#step-root .labels-bar', { timeout: 60_000 });
    frames[who] = frame;
    for (const [i, key] of KEYS[who].entries()) {
      const before = opened[who].at(-1) ?? '';
      if (i > 0) await pressIn(frame.locator('body'), '.');
      const step = await nextShownStep(frame, before, who);
      opened[who].push(step);
      if (i === 0) await frame.locator('.step-header .user-id').click(); // the keys go to the step view
      await pressIn(frame.locator('body'), key);
      await chipPressed(frame, LABEL_OF_KEY[key]);
      const [platform, userId, stepId] = step.split('/');
      made.push(labelKey({ author: who, platform, userId, stepId: Number(stepId), label: LABEL_OF_KEY[key] }));
    }
  }

  it('each window walks its own queue with `.` and a number key, and opens only the steps assigned to its author', async () => {
    // bob's URL has no password: the server refuses him and the command says why. He keeps it in the secret
    // storage, then follows alice's project through Choose Labelling Project….
    await showTree('bob');
    await wb('bob').runCommand('Persona Lab: Choose Labelling Project…');
    await waitFor(
      async () => (await wb('bob').notifications()).some((n) => /asks for a password and none was given/.test(n)),
      {
        message: 'bob to be told that the server needs a password',
      },
    );
    await wb('bob').runCommand('Notifications: Clear All Notifications');
    await wb('bob').startCommand('Persona Lab: Set Label Server Password');
    const input = wb('bob').quickInput;
    await wb('bob').quick.title('password of postgres@127.0.0.1').waitFor();
    await wb('bob').quick.input().fill(TEST_PASSWORD);
    await wb('bob').quick.press('Enter');
    await input.waitFor({ state: 'hidden', timeout: 30_000 });
    await wb('bob').startCommand('Persona Lab: Choose Labelling Project…');
    await wb('bob').pickQuickPickRow(PROJECT, PROJECT);
    await wb('bob').quickInput.waitFor({ state: 'hidden', timeout: 30_000 });

    await walkQueue('alice');
    await walkQueue('bob');

    const claimed = async (who: string) => (await queues.claimed(project, who)).map((c) => stepOfItem(c.item));
    const mine = { alice: await claimed('alice'), bob: await claimed('bob') };
    const carols = await claimed('carol');
    // Each window opened exactly its author's claims, in the server's order.
    expect(opened.alice).toEqual(mine.alice);
    expect(opened.bob).toEqual(mine.bob);
    // alice's steps are carol's first six (each still needed a second annotator); bob's are carol's last four,
    // which alice's claims left open, then two steps nobody had: never one of alice's.
    expect(mine.alice).toEqual(carols.slice(0, 6));
    expect(mine.bob.slice(0, 4)).toEqual(carols.slice(6));
    expect(mine.bob.filter((s) => mine.alice.includes(s) || carols.includes(s))).toEqual(carols.slice(6));
    expect(mine.bob.some((s) => mine.alice.includes(s))).toBe(false);
    // The last step each one has is still theirs to submit (their next `.` would).
    for (const who of ['alice', 'bob'])
      expect((await queues.claimed(project, who)).map((c) => c.submitted)).toEqual([
        true,
        true,
        true,
        true,
        true,
        false,
      ]);

    await wb('alice').screenshot('label-server-two-windows');
    await wb('bob').screenshot('label-server-two-windows-bob');
  });

  it("the Benchmarks view's message in both windows gives the project's progress as the server counts it", async () => {
    const expected = await expectedProgress();
    // Nine steps done: carol's and alice's first five, carol's and bob's first four.
    expect(expected).toBe(`Project ${PROJECT}: 9 of ${SAMPLE} steps done (2 each) · alice 5 · bob 5 · carol 10`);
    for (const who of ['alice', 'bob'] as const) {
      let seen = '';
      await waitFor(async () => (seen = await message(who)) === expected, {
        message: () => `${who}'s Benchmarks view to say "${expected}", not "${seen}"`,
      });
    }
    await showTree('bob');
    await wb('bob').screenshot('label-server-project-progress');
  });

  it("bob's Label Agreement view shows Fleiss' κ among the three authors per label, as the core computes it from the server's rows", async () => {
    // Every label made so far is on the server, from both windows and carol.
    await waitFor(async () => (await server.count()) === made.length, { message: 'every label on the server' });
    const rows = await server.list();
    expect(rows.map(labelKey).sort()).toEqual([...made].sort());
    const [b] = labelAgreementsByBenchmark(rows);
    expect([b.benchmark, b.units, b.authors.join('+')]).toEqual(['sample', 10, 'alice+bob+carol']);
    const fixed = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : MISSING);
    const expected = b.perLabel
      .map((k) => [k.label, kappaCellText(k, k.n), k.kind, String(k.n), String(k.raters), fixed(k.po), fixed(k.pe)])
      .sort((x, y) => x[0].localeCompare(y[0]));
    expect(expected.map((r) => r[0])).toEqual(['decay-error', 'format-error']);
    for (const r of expected)
      expect(r.slice(1, 5)).toEqual([expect.stringMatching(/^-?\d\.\d{3}$/), 'Fleiss', '10', '3']);

    await wb('bob').runCommand('Persona Lab: Label Summary');
    const view = (agreementView = await wb('bob').findWebviewFrame(
      '#agreement-root section.all-authors table.per-label',
      {
        timeout: 60_000,
      },
    ));
    const section = view.locator('section.benchmark[data-benchmark="sample"] section.all-authors');
    const shown = () =>
      section
        .locator('table.per-label tbody tr')
        .evaluateAll((trs) =>
          trs
            .map((tr) => [
              (tr as HTMLElement).dataset.label ?? '',
              ...['kappa', 'kind', 'n', 'raters', 'po', 'pe'].map(
                (c) => tr.querySelector(`td.${c}`)?.textContent?.trim() ?? '',
              ),
            ])
            .sort((x, y) => x[0].localeCompare(y[0])),
        );
    // bob's replica pulls alice's last labels every few seconds: the view follows.
    let seen = '';
    await waitFor(async () => (seen = JSON.stringify(await shown())) === JSON.stringify(expected), {
      message: () => `the per-label table ${seen} to be ${JSON.stringify(expected)}`,
    });
    expect(await section.locator('h3').innerText()).toContain('All authors (alice, bob, carol)');
    await wb('bob').screenshot('label-server-agreement');
  });

  it('a server restart loses nothing: alice labels on while it is down, and her label reaches it once it is back', async () => {
    const frame = frames.alice!;
    const w = wb('alice');
    await waitFor(() => frame.locator('.labels-bar .labels-server-ok').count(), { message: "alice's cloud icon" });
    stopCluster(cluster.dir);

    // alice's open claim is still shown: she adds a label to it while the server is down.
    await frame.locator('.step-header .user-id').click();
    await pressIn(frame.locator('body'), '8');
    await chipPressed(frame, 'persona-drift');
    const last = opened.alice.at(-1)!;
    const [platform, userId, stepId] = last.split('/');
    made.push(labelKey({ author: 'alice', platform, userId, stepId: Number(stepId), label: 'persona-drift' }));
    const line = frame.locator('.labels-bar p.labels-server[data-state="offline"]');
    // A poll may find the server gone before the label is made: the line then counts the label once it is queued.
    let said = '';
    await waitFor(
      async () =>
        /cannot be reached: labelling goes on here, 1 change\(s\) queued here/.test(
          (said = await line.innerText().catch(() => '')),
        ),
      { message: () => `the offline line to count the queued label, not "${said}"` },
    );
    expect(await frame.locator('.labels-bar .labels-server-ok').count()).toBe(0);
    expect(await shownStep(frame)).toBe(last);
    await w.screenshot('label-server-offline');

    resumeCluster(cluster.dir);
    await frame.locator('.labels-bar .labels-server-ok').waitFor({ timeout: 60_000 });
    expect(await frame.locator('.labels-bar p.labels-server').count()).toBe(0);
    expect(await frame.locator('.labels-bar .labels-server-ok').getAttribute('title')).toMatch(
      /online, every label sent/,
    );

    // The server holds every label made in the two windows and by carol, once each; its log has each one added once.
    const fresh = await ServerLabelStore.open(cluster.url);
    try {
      const rows = await fresh.list();
      expect(rows.map(labelKey).sort()).toEqual([...made].sort());
      const added = (await fresh.eventsSince(0, 10_000)).flatMap((e) =>
        e.ops.flatMap((o) => (o.action.kind === 'add' ? [labelKey(o.action.row)] : [])),
      );
      expect(added.sort()).toEqual([...made].sort());
    } finally {
      await fresh.close();
    }
    // bob's window reads it from the server too: his agreement view counts it.
    const header = agreementView.locator('#agreement-root');
    await waitFor(async () => (await header.innerText()).includes(`${made.length} label(s) by 3 author(s)`), {
      message: `bob's agreement view to count ${made.length} labels`,
    });
  });
});
