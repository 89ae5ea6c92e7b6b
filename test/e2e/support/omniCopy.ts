// A workbench on a fresh copy of a folder of sample/ (sample/omnibehavior for the trace view's tests), as one
// author: before the file's tests the copy is made, `prepare` reads it, the workbench starts and `started` receives
// it; a failed test leaves a screenshot named after `name`; after the tests the workbench closes and the copy is
// removed.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { repoRoot } from './server';
import { startWorkbench, type Workbench } from './workbench';

export interface OmniCopyHooks {
  /** Runs on the copy (its root) before the workbench starts. */
  prepare?: (root: string) => Promise<void> | void;
  started: (wb: Workbench, root: string) => void;
}

export function omniSampleWorkbench(name: string, author: string, hooks: OmniCopyHooks): void {
  sampleCopyWorkbench(name, 'omnibehavior', author, hooks);
}

/** The same on a copy of sample/`folder` (its own name kept: it is the benchmark's id in the label store). */
export function sampleCopyWorkbench(name: string, folder: string, author: string, hooks: OmniCopyHooks): void {
  let tmp: string | undefined;
  let wb: Workbench | undefined;
  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), `pl-${name}-`));
    const root = join(tmp, folder);
    cpSync(join(repoRoot, 'sample', folder), root, { recursive: true });
    await hooks.prepare?.(root);
    wb = await startWorkbench({
      folder: root,
      theme: 'dark',
      viewport: { width: 1600, height: 1000 },
      settings: { 'personaLab.labels.author': author },
    });
    hooks.started(wb, root);
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`${name}-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });
}
