// First e2e test: the real VS Code workbench (code-server) opens sample/ with the packaged extension installed,
// and the activity bar has a "Persona Lab" entry whose view container opens.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, startWorkbench, type Workbench } from './harness';

describe('smoke: real workbench with Persona Lab installed', () => {
  let wb: Workbench;

  beforeAll(async () => {
    wb = await startWorkbench({ folder: join(repoRoot, 'sample') });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`smoke-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
  });

  it('loads the workbench on sample/', async () => {
    expect(await wb.root().count()).toBe(1);
    await expect.poll(() => wb.page.title(), { timeout: 30_000 }).toMatch(/\bsample\b/);
    await expect.poll(() => wb.statusBar.part().isVisible(), { timeout: 30_000 }).toBe(true);
    expect(readdirSync(wb.extensionsDir).some((d) => d.startsWith('persona-lab.persona-lab-'))).toBe(true);
    await wb.screenshot('smoke-workbench');
  });

  it('has a "Persona Lab" entry in the activity bar that opens its views', async () => {
    const item = wb.activityBarItem('Persona Lab');
    // The entry appears once the extension host has registered the extension's contributions: wait for it.
    try {
      await item.waitFor({ state: 'visible', timeout: 60_000 });
    } catch {
      const labels = await wb.activityBarLabels();
      throw new Error(
        `no "Persona Lab" entry in the activity bar after 60 s.\nentries: ${JSON.stringify(labels)}\n` +
          `[Extension Host] lines:\n${wb.extensionHostLog.join('\n')}\n` +
          `"Persona Lab" log channel:\n${wb.logLines().join('\n')}\n` +
          `extension host logs:\n${wb
            .extensionHostFiles()
            .split('\n')
            .filter((l) => /error|persona/i.test(l))
            .slice(-40)
            .join('\n')}`,
      );
    }
    await wb.openView('Persona Lab');
    await expect.poll(() => wb.sideBar.title().innerText(), { timeout: 30_000 }).toMatch(/persona lab/i);
    // Every command package.json contributes is served by the generic table or a format's own.
    expect(wb.logLines().filter((l) => l.includes('commands no format of this build serves'))).toEqual([]);
    await wb.screenshot('smoke-persona-lab');
  });
});
