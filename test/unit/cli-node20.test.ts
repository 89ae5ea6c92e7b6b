// The README's CLI commands work on the Node that runs npm (20, 22 or 24): on a Node without Node-API 10 (Node 20) the
// CLI of a checkout runs itself again on the toolchain's Node 24 (the `node` devDependency), so a storage command
// works instead of exiting 2. Needs dist/ built (`npm test` builds it first). The packaged CLI, which has no
// toolchain beside it, still names what it needs: test/abi/vsix-abi.test.ts.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeRuntime } from '../../scripts/node-runtime.mjs';
import { SAMPLE } from '../support/committedSample';

const ROOT = resolve(__dirname, '../..');
const BIN = join(
  ROOT,
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['persona-lab'],
);
const major = (node: string) => spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
/** Debian's Node when it is 20 (as on this project's machines), else the pinned Node 20 of the ABI test. */
const NODE20 = major('/usr/bin/node').startsWith('20.') ? '/usr/bin/node' : nodeRuntime(20).bin;
const work = mkdtempSync(join(tmpdir(), 'pl-node20-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((res, rej) => {
    // cwd outside the checkout: the bin finds the toolchain from where it lives, not from where it is started.
    const child = spawn(NODE20, [BIN, ...args], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', rej);
    child.on('close', (code) => res({ code, out, err }));
  });
}

describe('the bin on Node 20', () => {
  it('is Node 20 that starts it', () => {
    expect(major(NODE20)).toMatch(/^20\./);
  });

  it('runs a storage command (labels summary) on the toolchain Node and exits 0', async () => {
    const summary = await run(['labels', 'summary', SAMPLE]);
    expect(summary.err).not.toContain('needs Node-API 10');
    expect(summary.code, summary.err).toBe(0);
    expect(summary.out).toMatch(/^\d+ label\(s\) by \d+ author\(s\)/);
  });

  it('passes exit codes and output through unchanged', async () => {
    const usage = await run(['labels', 'summary']);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/^persona-lab: labels summary needs /);
    const json = await run(['score', join(SAMPLE, 'omnibehavior'), '--json']);
    expect(json.code, json.err).toBe(0);
    expect(JSON.parse(json.out)).toBeTruthy();
  });
});
