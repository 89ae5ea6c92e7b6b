// `persona-lab run` and the PI guard: prompts with residual PI to a guarded endpoint are refused (exit 4, nothing
// sent, nothing written) unless --pi-guard says mask or send. The scripted server is on 127.0.0.1, so the tests
// turn on --pi-guard-loopback, as a user trying the guard against a local server would.
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_PI_REFUSED, runRunCommand, type RunCliIo } from '../../src/cli/run';
import { DEFAULT_TEMPLATE } from '../../src/core/spb/prompt/prompt';
import { RunHistory } from '../../src/core/spb/run/history';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { OMNI_SAMPLE, SAMPLE } from '../support/committedSample';

const PHONE = '13800138000';
let server: ScriptedServer;
let root: string;
const dirs: string[] = [];

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function workspace(): { root: string; opts: Record<string, string | boolean> } {
  root = mkdtempSync(join(tmpdir(), 'pi-guard-cli-'));
  dirs.push(root);
  cpSync(SAMPLE, root, { recursive: true });
  writeFileSync(join(root, 't.txt'), DEFAULT_TEMPLATE);
  // The user whose step 2 posts hold the planted phone number (sample/pi-manifest.json), from that step on.
  return {
    root,
    opts: {
      out: 'guarded',
      template: join(root, 't.txt'),
      'base-url': server.baseURL,
      model: 'm',
      platform: 'weibo',
      user: 'we_b5ce11fb65',
      'from-step': '2',
    },
  };
}

function io(): { out: { stdout: string; stderr: string }; sink: RunCliIo } {
  const out = { stdout: '', stderr: '' };
  return { out, sink: { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), env: {} } };
}

describe('run with the PI guard', () => {
  it('refuses by default: exit 4, the findings listed, no request, no run folder', async () => {
    const w = workspace();
    const { out, sink } = io();
    server.requests.length = 0;
    expect(await runRunCommand([w.root], { ...w.opts, 'pi-guard-loopback': true }, sink)).toBe(EXIT_PI_REFUSED);
    expect(out.stderr).toContain(`PHONE (high) "${PHONE}" in the prompt of weibo/we_b5ce11fb65 step 2`);
    expect(out.stderr).toContain('--pi-guard mask');
    expect(server.requests).toHaveLength(0);
    expect(existsSync(join(w.root, 'results', 'guarded'))).toBe(false);
  });

  it('--pi-guard mask sends every prompt masked, and the history records what was sent', async () => {
    const w = workspace();
    const { out, sink } = io();
    server.requests.length = 0;
    const code = await runRunCommand(
      [w.root],
      { ...w.opts, 'pi-guard-loopback': true, 'pi-guard': 'mask', history: join(w.root, 'h.sqlite') },
      sink,
    );
    expect(code, out.stderr).toBe(0);
    expect(out.stderr).toContain('PI guard: masking 1 residual PI finding in 1 of 2 prompts');
    expect(server.requests.map((r) => r.info.step)).toEqual([2, 3]);
    expect(JSON.stringify(server.requests.map((r) => r.body))).not.toContain(PHONE);
    expect(server.requests[0].prompt).toContain('<PHONE>');
    const h = RunHistory.open(join(w.root, 'h.sqlite'));
    const rows = h.forRun('guarded');
    h.close();
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain(PHONE);
  });

  it('--pi-guard send sends as is; without --pi-guard-loopback a loopback endpoint is not guarded', async () => {
    for (const extra of [{ 'pi-guard-loopback': true, 'pi-guard': 'send' }, {}]) {
      const w = workspace();
      const { out, sink } = io();
      server.requests.length = 0;
      expect(await runRunCommand([w.root], { ...w.opts, ...extra }, sink), out.stderr).toBe(0);
      expect(server.requests[0].prompt).toContain(PHONE);
      expect(out.stderr).not.toContain('PI guard');
    }
  });

  it('rejects an unknown --pi-guard value as a usage error', async () => {
    const w = workspace();
    const { out, sink } = io();
    expect(await runRunCommand([w.root], { ...w.opts, 'pi-guard': 'ask' }, sink)).toBe(2);
    expect(out.stderr).toContain('--pi-guard must be refuse, mask or send');
  });
});

describe('an OmniBehavior run with the PI guard', () => {
  it('refuses the same way: exit 4, the planted phone number named with its test action, no request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pi-guard-omni-'));
    dirs.push(dir);
    cpSync(OMNI_SAMPLE, dir, { recursive: true });
    const { out, sink } = io();
    server.requests.length = 0;
    const code = await runRunCommand(
      [dir],
      {
        out: 'guarded',
        'base-url': server.baseURL,
        model: 'm',
        'pi-guard-loopback': true,
        user: 'u_1001',
        index: '1195',
      },
      sink,
    );
    expect(code, out.stderr).toBe(EXIT_PI_REFUSED);
    expect(out.stderr).toMatch(/PHONE \(high\) "13800138000" in the prompt of u_1001#\d+ /);
    expect(out.stderr).toContain('--pi-guard mask');
    expect(server.requests).toHaveLength(0);
    expect(existsSync(join(dir, 'results', 'guarded'))).toBe(false);
  });
});
