// `persona-lab run` without --template runs the built-in template; `template init` writes it out for editing.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRunCommand, type RunCliIo } from '../../src/cli/run';
import { DEFAULT_TEMPLATE } from '../../src/core/spb/prompt/prompt';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { SAMPLE } from '../support/committedSample';

const cli = resolve('dist/cli.js');
let server: ScriptedServer;
let root: string;

beforeAll(async () => {
  server = await startScriptedServer();
  root = mkdtempSync(join(tmpdir(), 'pl-cli-template-'));
  cpSync(SAMPLE, root, { recursive: true });
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

const sink = (): RunCliIo => ({ stdout: () => undefined, stderr: () => undefined, env: {} });

describe('run without --template', () => {
  it('sends the built-in template, as a run given that template in a file does', async () => {
    const opts = { 'base-url': server.baseURL, model: 'm', platform: 'weibo', user: 'we_b5ce11fb65' };
    server.requests.length = 0;
    expect(await runRunCommand([root], { ...opts, out: 'builtin' }, sink())).toBe(0);
    const builtin = server.requests.map((r) => r.prompt);
    writeFileSync(join(root, 't.plprompt'), DEFAULT_TEMPLATE);
    server.requests.length = 0;
    expect(await runRunCommand([root], { ...opts, out: 'from-file', template: join(root, 't.plprompt') }, sink())).toBe(
      0,
    );
    expect(builtin.length).toBeGreaterThan(0);
    expect(builtin).toEqual(server.requests.map((r) => r.prompt));
  });
});

describe('template init', () => {
  it('writes the built-in template, and never over an existing file', () => {
    const file = join(root, 'tpl', 'mine.plprompt');
    const out = execFileSync(process.execPath, [cli, 'template', 'init', file], { encoding: 'utf8' });
    expect(out).toContain(`wrote ${file}`);
    expect(readFileSync(file, 'utf8').trimEnd()).toBe(DEFAULT_TEMPLATE.trimEnd());
    const again = spawnSync(process.execPath, [cli, 'template', 'init', file], { encoding: 'utf8' });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`${file} exists`);
    const bad = spawnSync(process.execPath, [cli, 'template', 'make'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('unknown template subcommand "make"');
  });
});
