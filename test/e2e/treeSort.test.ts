// The Benchmarks tree at the default side-bar width (1440×900): the benchmark row's Avg. R can be read, the view's
// header names the selected run, beside a few title icons; a user's tooltip spells out all eight figures; Sort Users
// By… R lists the users by R, lowest first, in the order the files' figures give (written out again in
// treeExpected.ts, and checked against the core's per-user scores), and keeps that order after Reload Window.
// OmniBehavior users sort by their wrong answers as the core counts them.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import { scoreOmniRun, userActionCounts } from '../../src/core/omni/score';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { scoreRun } from '../../src/core/spb/score/run';
import { PLATFORM_LABELS } from '../../src/core/spb/score/tables';
import { viewDescription } from './firstScreen';
import { repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { ROW_PARTS, rowName, twistie } from './support/sideBar';
import { treePage } from './treePage';
import {
  benchDescription,
  pct,
  predictions,
  readJsonl,
  tasksFile,
  userFigures,
  type CliScore,
  type TaskUser,
} from './treeExpected';

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe('Benchmarks tree: the run, the figures and Sort Users By…', () => {
  let wb: Workbench;
  let tmp: string;
  let root: string;
  let cli: CliScore;
  const platform = 'weibo' as const;
  const platformLabel = PLATFORM_LABELS[platform];

  const { rows, children, rowLocator, expand, waitRow, runCommandWithInput, quickPickRow } = treePage(() => wb);

  /** The platform's users by R, lowest first, ties by id, users the run does not score last (by id). */
  function expectedByRecall(run: string): { ids: string[]; descriptions: string[] } {
    const preds = predictions(root, run, platform);
    const users = readJsonl<TaskUser>(tasksFile(root, platform)).map((u) => ({
      id: u.user_id,
      r: userFigures(u, preds.get(u.user_id))?.r,
    }));
    const scored = users.filter((u) => u.r !== undefined && !Number.isNaN(u.r));
    const rest = users.filter((u) => !scored.includes(u));
    scored.sort((a, b) => a.r! - b.r! || byId(a.id, b.id));
    rest.sort((a, b) => byId(a.id, b.id));
    const ordered = [...scored, ...rest];
    return {
      ids: ordered.map((u) => u.id),
      descriptions: ordered.map((u) => (u.r === undefined ? 'not scored' : `R ${pct(u.r)}`)),
    };
  }

  /** All the user rows under the platform (expanded first), once there are as many as it has users. */
  async function userRowsShown(count: number) {
    const platformRow = rowLocator(platformLabel, 2).first();
    await platformRow.waitFor({ state: 'visible', timeout: 30_000 });
    if ((await platformRow.getAttribute('aria-expanded')) !== 'true') await twistie(platformRow).click();
    return waitFor(
      async () => {
        const kids = await children(platformLabel, 2);
        return kids.length === count ? kids : undefined;
      },
      { timeout: 30_000, message: `the ${count} users of ${platformLabel}` },
    );
  }

  async function openPersonaLab(): Promise<void> {
    await wb.openView('Persona Lab');
    // The other views of the container share the side bar: collapse them so that every user of the platform is in
    // view (the tree draws only the rows it shows).
    await wb.sideBar.benchmarks.header().waitFor({ state: 'visible', timeout: 30_000 });
    const others = wb.sideBar.headers({ expanded: true, except: 'Benchmarks' });
    await waitFor(
      async () => {
        if ((await others.count()) === 0) return true;
        await others.first().click();
        return false;
      },
      { timeout: 30_000, message: 'the other views of Persona Lab to collapse' },
    );
  }

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-tree-sort-'));
    root = join(tmp, 'sample');
    cpSync(join(repoRoot, 'sample'), root, { recursive: true });
    cli = JSON.parse(
      execFileSync(process.execPath, [join(repoRoot, 'dist/cli.js'), 'score', root, '--json'], { encoding: 'utf8' }),
    ) as CliScore;
    wb = await startWorkbench({ folder: root, theme: 'light' });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`treeSort-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("shows the benchmark row's Avg. R at the default side-bar width and the run in the view's header, beside few title icons", async () => {
    await openPersonaLab();
    const run = cli.runs[0];
    const want = benchDescription(run);
    await waitRow('sample', 1, (r) => r.description === want, `the benchmark row to read "${want}"`);
    // The figure ("Avg. R 42.4%") ends inside the part of the row that is not cut off.
    const shown = await rowLocator('sample', 1)
      .first()
      .evaluate(
        (row, [prefix, parts]) => {
          const description = row.querySelector(parts.description);
          const text = description?.firstChild;
          const clip = row.querySelector(parts.labelBox) ?? row;
          if (!text || text.nodeType !== Node.TEXT_NODE) return { ok: false, why: 'no description text' };
          const range = document.createRange();
          range.setStart(text, 0);
          range.setEnd(text, prefix.length);
          const end = range.getBoundingClientRect().right;
          const visible = Math.min(clip.getBoundingClientRect().right, row.getBoundingClientRect().right);
          return { ok: end <= visible, why: `"${prefix}" ends at ${end}, the row shows up to ${visible}` };
        },
        [`Avg. R ${pct(run.avg.Recall)}`, ROW_PARTS] as const,
      );
    expect(shown.ok, shown.why).toBe(true);
    expect(await viewDescription(wb)).toMatch(new RegExp(`^runs: ${run.name} · `));
    const titleActions = await wb.sideBar.benchmarks.actionLabels();
    expect(titleActions).toContain('Sort Users By…');
    expect(titleActions, titleActions.join(', ')).not.toContain('Choose Run…');
    expect(titleActions.length, titleActions.join(', ')).toBeLessThanOrEqual(4);
    await wb.screenshot('tree-sort-run');
  });

  it("spells out a user's figures in its tooltip: R, F1^NS, R_stab, R_nov and the four error rates", async () => {
    const run = cli.runs[0].name;
    const users = readJsonl<TaskUser>(tasksFile(root, platform));
    const preds = predictions(root, run, platform);
    const user = users.find((u) => userFigures(u, preds.get(u.user_id)))!;
    const f = userFigures(user, preds.get(user.user_id))!;
    await userRowsShown(users.length);
    const label = rowLocator(user.user_id, 3).first();
    const hover = wb.hover('Recall (R)');
    await waitFor(
      async () => {
        await wb.page.mouse.move(5, 5);
        await rowName(label).hover();
        return hover.waitFor({ state: 'visible', timeout: 3_000 }).then(
          () => true,
          () => false,
        );
      },
      { timeout: 45_000, message: 'the user tooltip to show' },
    );
    const text = (await hover.innerText()).replace(/\u00a0/g, ' ');
    const figures: [string, number][] = [
      ['Recall (R)', f.r],
      ['F1 of novelty and stability recall (F1^NS)', f.f1],
      ['Stability recall (R_stab)', f.stab],
      ['Novelty recall (R_nov)', f.nov],
      ['Decay error rate (Err_decay)', f.decay],
      ['Peer error rate (Err_peer)', f.peer],
      ['Viral error rate (Err_viral)', f.viral],
      ['Random error rate (Err_random)', f.random],
    ];
    for (const [name, value] of figures) {
      const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      expect(text, name).toMatch(new RegExp(`${escaped}\\s+${pct(value).replace('.', '\\.')}`));
    }
    await wb.screenshot('tree-sort-tooltip');
    await wb.page.mouse.move(5, 5);
  });

  it('Sort Users By… R lists the users by R, lowest first, as the figures of the files and the core order them', async () => {
    const run = cli.runs[0].name;
    const want = expectedByRecall(run);
    // The core's per-user scores (what the tree sorts by) agree with the figures written out again from the files.
    const bench = await loadBenchmark(root, { runs: [run] });
    const core = scoreRun(bench, bench.runs.get(run)!).platforms.get(platform)!.userScores;
    for (const [i, id] of want.ids.entries()) {
      const r = core.get(id)?.metrics.Recall;
      expect(r === undefined ? 'not scored' : `R ${pct(r)}`, id).toBe(want.descriptions[i]);
    }
    expect(new Set(want.ids.map((id) => core.get(id)?.metrics.Recall)).size, 'figures to sort by').toBeGreaterThan(2);

    await runCommandWithInput('Persona Lab: Sort Users By…');
    const row = quickPickRow('R');
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await row.innerText()).toContain('Recall, lowest first');
    await row.click();
    await waitRow(platformLabel, 2, (r) => r.description.endsWith('· by R ↑'), 'the platform row to name the order');
    const shown = await waitFor(
      async () => {
        const kids = await userRowsShown(want.ids.length);
        return kids.map((k) => k.label).join() === want.ids.join() ? kids : undefined;
      },
      { timeout: 30_000, message: `the users in the order ${want.ids.join(', ')}` },
    );
    expect(shown.map((k) => k.description)).toEqual(want.descriptions);
    await wb.screenshot('tree-sort-by-r');
  });

  it('keeps the order after Reload Window', async () => {
    const want = expectedByRecall(cli.runs[0].name);
    // Developer: Reload Window shuts the workbench down in order, so the workspace state is saved first.
    const reloaded = wb.page.waitForEvent('load', { timeout: 60_000 });
    await wb.runCommand('Developer: Reload Window').catch(() => {});
    await reloaded;
    await wb.waitForWorkbench();
    await openPersonaLab();
    await waitRow(platformLabel, 2, (r) => r.description.endsWith('· by R ↑'), 'the order after the reload');
    const kids = await userRowsShown(want.ids.length);
    expect(kids.map((k) => k.label)).toEqual(want.ids);
  });

  it('sorts the OmniBehavior users by their wrong answers, as the core counts them', async () => {
    const omni = await loadOmniBenchmark(join(root, 'omnibehavior'));
    const top = await waitRow('omnibehavior', 1, (r) => r.description.includes(' · OmniBehavior'), 'the row');
    const runName = [...omni.runs.keys()].find((name) => top.description.includes(`run: ${name} · OmniBehavior`))!;
    expect(runName, top.description).toBeDefined();
    const score = scoreOmniRun(omni, omni.runs.get(runName)!);
    const users = [...omni.users.values()].map((u) => ({
      id: u.userId,
      wrong: userActionCounts(score.perAction, u)?.incorrect,
    }));
    const counted = users.filter((u) => u.wrong !== undefined).sort((a, b) => b.wrong! - a.wrong! || byId(a.id, b.id));
    const rest = users.filter((u) => u.wrong === undefined).sort((a, b) => byId(a.id, b.id));
    const want = [...counted, ...rest].map((u) => u.id);
    expect(new Set(counted.map((u) => u.wrong)).size, 'wrong counts to sort by').toBeGreaterThan(1);

    // Folded, the StreamProfileBench platform leaves the OmniBehavior users in view.
    const weibo = rowLocator(platformLabel, 2).first();
    if ((await weibo.getAttribute('aria-expanded')) === 'true') await twistie(weibo).click();
    await runCommandWithInput('Persona Lab: Sort Users By…');
    await quickPickRow('Wrong answers').click({ timeout: 30_000 });
    await waitRow('omnibehavior', 1, (r) => r.description.endsWith('· by wrong answers ↓'), 'the order on the row');
    await expand('omnibehavior', 1, want);
    const shown = await waitFor(
      async () => {
        const kids = (await children('omnibehavior', 1)).map((k) => k.label);
        return kids.join() === want.join() ? kids : undefined;
      },
      { timeout: 30_000, message: `OmniBehavior users in the order ${want.join(', ')}` },
    );
    expect(shown).toEqual(want);
    // The StreamProfileBench order is its own: still by R.
    expect((await rows()).find((r) => r.level === 2 && r.label === platformLabel)?.description).toMatch(/· by R ↑$/);
  });
});
