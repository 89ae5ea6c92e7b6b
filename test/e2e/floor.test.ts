// The short run that holds the floor of engines.vscode (npm run test:e2e:floor runs it on code-server 4.103.2, VS
// Code 1.103 on Node 22; the whole suite runs it on 4.139.1 too): open the sample, open a step, label it with a key,
// and read the label back through the CLI. It proves that the .vsix's SQLite loads in that extension host.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { resultFor } from '../../src/core/spb/score/run';
import type { User } from '../../src/core/spb/types';
import { pressIn, repoRoot, startWorkbench, waitFor, type Workbench } from './harness';

describe('open a step, label it, read it back (the floor line)', () => {
  let wb: Workbench;
  let tmp: string;
  let root: string;
  let user: User;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-floor-'));
    root = join(tmp, 'sample');
    cpSync(join(repoRoot, 'sample'), root, { recursive: true });
    const bench = await loadBenchmark(root);
    const run = bench.runs.get([...bench.runs.keys()][0])!;
    user = [...bench.users.get('weibo')!.values()].find(
      (u) => u.steps.length >= 2 && resultFor(run, u, u.steps[0].stepId),
    )!;
    wb = await startWorkbench({ folder: root, settings: { 'personaLab.labels.author': 'floor' } });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`floor-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('stores a label made with the keyboard, as the CLI reads it', async () => {
    await wb.openView('Persona Lab');
    await waitFor(() => wb.sideBar.benchmarks.rows().count(), {
      timeout: 60_000,
      message: 'the benchmark tree',
    });
    // startCommand, not runCommand: Open Step opens its own quick pick at once, so the widget may never be seen hidden.
    await wb.startCommand('Persona Lab: Open Step');
    await wb.pickQuickPickRow(user.userId, user.userId);
    await wb.pickQuickPickRow('step 1/', `step 1/${user.steps[0].totalSteps}`);
    const frame = await wb.findWebviewFrame(`#step-root[data-step="weibo/${user.userId}/1"] .labels-bar`, {
      timeout: 60_000,
    });
    await pressIn(frame.locator('body'), '1');
    await waitFor(
      async () =>
        (await frame.locator('.label-chip[data-label-id="decay-error"]').getAttribute('aria-pressed')) === 'true',
      {
        message: 'the first label to be on',
      },
    );
    const exported = () => {
      const text = execFileSync(
        process.execPath,
        [join(repoRoot, 'dist/cli.js'), 'labels', 'export', join(root, '.personalab', 'labels.db')],
        { encoding: 'utf8' },
      );
      return text
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { user_id: string; step_id: number; label: string; author: string });
    };
    const rows = await waitFor(
      () => {
        try {
          const r = exported();
          return r.length ? r : undefined;
        } catch {
          return undefined;
        }
      },
      { message: 'the label in labels.db' },
    );
    expect(rows.map((r) => [r.user_id, r.step_id, r.label, r.author])).toEqual([
      [user.userId, 1, 'decay-error', 'floor'],
    ]);
    await wb.screenshot('floor-labelled');
  });
});
