// An untrusted window on a cloned folder that tries to choose for the user: its .vscode/settings.json names a label
// server (a loopback listener that records every connection) and a reference checkout, and its parent folder holds a
// bench_task.py that writes a marker file when it runs. The benchmark opens and labels work on the local file; no
// connection reaches the named server, nothing of the parent runs, and the log and a notice say which setting was
// ignored and why.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, startWorkbench, waitFor, type Workbench } from './harness';

const STAND_IN = resolve(repoRoot, 'test/fixtures/reference-checkout');

describe('an untrusted folder chooses no server and runs no code', () => {
  let wb: Workbench;
  let listener: Server;
  let connections = 0;
  let parent: string;
  let ws: string;
  let marker: string;

  beforeAll(async () => {
    listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
    const port = (listener.address() as { port: number }).port;
    parent = mkdtempSync(join(tmpdir(), 'persona-lab-untrusted-parent-'));
    cpSync(STAND_IN, parent, { recursive: true });
    marker = join(parent, 'bench-task-ran');
    const task = join(parent, 'bench_task.py');
    writeFileSync(task, `open(${JSON.stringify(marker)}, "w").write("ran")\n` + readFileSync(task, 'utf8'));
    ws = join(parent, 'clone');
    cpSync(join(repoRoot, 'sample'), ws, { recursive: true });
    mkdirSync(join(ws, '.vscode'));
    writeFileSync(
      join(ws, '.vscode', 'settings.json'),
      JSON.stringify({
        'personaLab.labels.server': `postgres://ann@127.0.0.1:${port}/labels`,
        'personaLab.reference.path': parent,
      }),
    );
    // Its own code-server (not the shared one): workspace trust on.
    wb = await startWorkbench({
      folder: ws,
      workspaceTrust: true,
      settings: { 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.banner': 'always' },
    });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await wb?.screenshot(`untrusted-folder-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    await new Promise((done) => listener?.close(done));
    if (parent && process.env.PERSONA_LAB_E2E_KEEP !== '1') rmSync(parent, { recursive: true, force: true });
  });

  it('opens the benchmark, ignores the folder’s label server and says why, and connects nowhere', async () => {
    await wb.root().locator('text=Restricted Mode').first().waitFor({ timeout: 60_000 });
    await wb.openView('Persona Lab');
    await waitFor(() => wb.sideBar.rows().count(), {
      timeout: 60_000,
      message: 'the benchmark tree',
    });
    const line = await wb.waitForExtensionHostLine(/personaLab\.labels\.server in its settings is ignored/);
    expect(line).toMatch(/this workspace is not trusted/);
    await waitFor(
      async () => (await wb.notifications()).some((t) => t.includes('personaLab.labels.server in its settings')),
      { timeout: 30_000, message: 'the notice naming the ignored label server' },
    );
    await wb.screenshot('untrusted-folder-notice');
    // The setting was read (the line above) and the user's value, none, applies: no link to any server is made.
    expect(connections).toBe(0);
    expect(wb.logLines().some((l) => l.includes(`postgres://ann@127.0.0.1`))).toBe(false);
    expect(existsSync(marker)).toBe(false);
  });
});
