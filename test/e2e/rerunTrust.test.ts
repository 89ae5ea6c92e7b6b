// Workspace trust in the real workbench: a folder whose .vscode/settings.json points personaLab.endpoint.baseURL at
// its own server opens in Restricted Mode, and a re-run goes to the URL of the user settings, never to the folder's.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { labelled } from './support/sideBar';

describe('re-runs in an untrusted workspace', () => {
  let wb: Workbench;
  let user: ScriptedServer;
  let workspace: ScriptedServer;
  let ws: string;

  beforeAll(async () => {
    user = await startScriptedServer();
    workspace = await startScriptedServer();
    ws = mkdtempSync(join(tmpdir(), 'persona-lab-untrusted-'));
    cpSync(join(repoRoot, 'sample'), ws, { recursive: true });
    // A cloned folder that tries to send the prompts (and the key) to its own server.
    mkdirSync(join(ws, '.vscode'));
    writeFileSync(
      join(ws, '.vscode', 'settings.json'),
      JSON.stringify({ 'personaLab.endpoint.baseURL': workspace.baseURL, 'personaLab.endpoint.model': 'ws-model' }),
    );
    // Its own code-server (not the shared one): workspace trust on.
    wb = await startWorkbench({
      folder: ws,
      workspaceTrust: true,
      settings: {
        'security.workspace.trust.startupPrompt': 'never',
        'security.workspace.trust.banner': 'always',
        'personaLab.endpoint.baseURL': user.baseURL,
        'personaLab.endpoint.model': 'user-model',
      },
    });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await wb?.screenshot(`rerun-untrusted-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    await user?.close();
    await workspace?.close();
    if (ws && process.env.PERSONA_LAB_E2E_KEEP !== '1') rmSync(ws, { recursive: true, force: true });
  });

  it("sends the request to the user's endpoint, never to the workspace's", async () => {
    const bench = await loadBenchmark(ws);
    const u = [...bench.users.get('weibo')!.values()][0];
    const step = u.steps[0];
    const input = wb.quick.input();
    const row = (label: string | RegExp) =>
      wb.quick
        .rows()
        .filter({ has: labelled(wb.page, label) })
        .first();
    await wb.root().locator('text=Restricted Mode').first().waitFor({ timeout: 60_000 });
    await wb.openView('Persona Lab');
    await waitFor(() => wb.sideBar.rows().count(), {
      timeout: 60_000,
      message: 'the benchmark tree',
    });
    await wb.startCommand('Persona Lab: Re-run Step…');
    await wb.quick.title('Open Step (1/2)').waitFor();
    await input.fill(u.userId);
    await row(new RegExp(`^\\s*${u.userId}\\s*$`)).click();
    if (u.steps.length > 1) {
      await wb.quick.title('Open Step (2/2)').waitFor();
      await row(new RegExp(`^\\s*step ${step.stepId}/`)).click();
    }
    await wb.quick.title('(1/2): template').waitFor();
    await row(/Persona Lab's template/).click();
    await wb.quick.title('(2/2): persona').waitFor();
    await row(/No persona \(cold start\)/).click();
    await wb.findWebviewFrame('.cmp[data-attempt="1"]', { timeout: 60_000 });
    expect(workspace.requests).toHaveLength(0);
    expect(user.requests).toHaveLength(1);
    // Only the URL is restricted: the workspace's model name still applies.
    expect(user.requests[0].body).toMatchObject({ model: 'ws-model' });
    await wb.screenshot('rerun-untrusted');
  });
});
