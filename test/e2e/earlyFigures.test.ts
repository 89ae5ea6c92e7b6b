// A large StreamProfileBench folder opened for the first time, in the real workbench: the tree shows the selected
// run's figures from the index worker's first read, marked "reading users…", before the users are read; they are the
// CLI's figures, and each row shows the same once the open ends. The folder is the generator's paper-scale benchmark
// with its one run (53 MiB), above the size from which a folder is read for its figures first.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INDEX_DIR } from '../../src/core/cache/store';
import { discover, firstReadBytes } from '../../src/core/spb/format/load';
import { PLATFORM_LABELS } from '../../src/core/spb/score/tables';
import { PLATFORMS } from '../../src/core/spb/types';
import { EARLY_FIGURES_FROM } from '../../src/extension/benchmarks/spb/coldLoad/indexFirst';
import { READING_USERS } from '../../src/extension/benchmarks/spb/treeModel';
import { repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import {
  armFigures,
  firstFiguresRows,
  recordViewProgress,
  rowsOnceLoaded,
  viewProgress,
} from './support/stepFirstOpen';
import { benchDescription, platformDescription, type CliScore } from './treeExpected';

const LOAD_TIMEOUT = 300_000;

describe('the tree shows a large folder’s figures first', () => {
  let wb: Workbench;
  let root: string;
  let cli: CliScore;

  beforeAll(async () => {
    root = join(mkdtempSync(join(tmpdir(), 'persona-lab-early-')), 'paper');
    execFileSync(process.execPath, [join(repoRoot, 'scripts/gen-sample.mjs'), '--scale', 'paper', '--out', root]);
    expect(statSync(root).isDirectory()).toBe(true);
    expect(firstReadBytes(discover(root), () => undefined)).toBeGreaterThanOrEqual(EARLY_FIGURES_FROM);
    cli = JSON.parse(
      execFileSync(process.execPath, [join(repoRoot, 'dist/cli.js'), 'score', root, '--json', '--no-cache'], {
        encoding: 'utf8',
      }),
    );
    wb = await startWorkbench({ folder: root, theme: 'dark' });
    await armFigures(wb.page, 'Benchmarks');
  }, LOAD_TIMEOUT);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`early-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
  });

  it(
    'shows the CLI’s figures marked as early, then the same figures over the loaded users',
    { timeout: LOAD_TIMEOUT },
    async () => {
      await wb.openView('Persona Lab');
      await wb.waitForExtensionHostLine(/\[info\] the index worker read the figures of .* in \d+ ms/, {
        timeout: LOAD_TIMEOUT,
      });
      const first = await waitFor(() => firstFiguresRows(wb.page), {
        timeout: LOAD_TIMEOUT,
        message: 'the first figures in the tree',
      });
      const early = new Map(first.map(([label, description]) => [label, description]));
      const run = cli.runs[0];
      const name = [...early.keys()].find((k) => early.get(k)?.startsWith('Avg. R'));
      expect(name, 'the benchmark row among the first rows').toBeDefined();
      expect(early.get(name!)).toBe(`${benchDescription(run)} · ${READING_USERS}`);
      // The side bar cuts the end of the row, where the mark is: the benchmark row's icon spins.
      expect(first.find(([label]) => label === name)?.[2]).toBe('loading');
      const platforms = PLATFORMS.filter((p) => early.has(PLATFORM_LABELS[p]));
      expect(platforms.length, 'platform rows among the first rows').toBeGreaterThan(0);
      await wb.waitForExtensionHostLine(/\[info\] loaded .*: \d+ users, \d+ steps, 1 run\(s\) in \d+ ms/, {
        timeout: LOAD_TIMEOUT,
      });
      const after = await rowsOnceLoaded(wb.sideBar.benchmarks, READING_USERS, 60_000);
      expect(after.get(name!)).toBe(benchDescription(run));
      expect((await wb.sideBar.benchmarks.readRows()).find((r) => r.label === name)?.icon).toBe('database');
      for (const p of platforms) {
        const d = after.get(PLATFORM_LABELS[p])!;
        expect(early.get(PLATFORM_LABELS[p]), PLATFORM_LABELS[p]).toBe(d);
        // The users the tree counts (its tasks file's), with the CLI's figure for them.
        const users = Number(/([\d,]+) users?/.exec(d)?.[1]?.replace(/,/g, ''));
        expect(d).toBe(platformDescription(users, run.platforms[p]));
      }
    },
  );

  it(
    'fills the view’s progress bar as the folder is read again, with no endless animation once it knows how far',
    { timeout: LOAD_TIMEOUT },
    async () => {
      // The view is open now: an open shows its progress there. Without its index the folder is read twice again.
      rmSync(join(root, INDEX_DIR), { recursive: true, force: true });
      const loaded = /\[info\] loaded .*: \d+ users, \d+ steps, 1 run\(s\) in \d+ ms/;
      const before = wb.logLines().filter((l) => loaded.test(l)).length;
      await recordViewProgress(wb.page, 'Benchmarks');
      await wb.startCommand('Persona Lab: Refresh');
      await waitFor(() => wb.logLines().filter((l) => loaded.test(l))[before], {
        timeout: LOAD_TIMEOUT,
        message: 'the refresh to be logged',
      });
      await wb.waitForExtensionHostLine(/the index worker read the figures of/);
      const states = await viewProgress(wb.page);
      const widths = states
        .filter((s) => s.classes.includes('discrete') && s.classes.includes('active'))
        .map((s) => Number(/^([\d.]+)%$/.exec(s.width)?.[1]));
      expect(widths.filter((w) => w > 0 && w < 100).length, JSON.stringify(states)).toBeGreaterThan(5);
      expect(widths, 'never going back').toEqual([...widths].sort((a, b) => a - b));
      // Endless only until the first report, if at all.
      const firstDiscrete = states.findIndex((s) => s.classes.includes('discrete'));
      expect(states.slice(firstDiscrete).filter((s) => s.classes.includes('infinite'))).toEqual([]);
    },
  );
});
