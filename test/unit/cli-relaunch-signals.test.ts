// The CLI relaunched on the toolchain's Node passes the signals sent to it alone on to the child that does the work:
// without a terminal (a script or a process manager stopping it), SIGINT and SIGTERM reach the child, which ends as
// it chooses, and the parent ends with it.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';

function harness(): { parent: string } {
  const dir = mkdtempSync(join(tmpdir(), 'pl-relaunch-'));
  const child = join(dir, 'child.mjs');
  // The child says when it listens, and which signal it got, then ends with 0 as a CLI that stops cleanly does.
  writeFileSync(
    child,
    `for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => { process.stdout.write('child got ' + s + '\\n'); process.exit(0); });
     process.stdout.write('ready ' + process.pid + '\\n');
     setInterval(() => {}, 1000);`,
  );
  const entry = join(dir, 'parent.ts');
  writeFileSync(
    entry,
    `import { relaunch } from ${JSON.stringify(join(process.cwd(), 'src/cli/toolchainNode.ts'))};
     relaunch(process.execPath, ${JSON.stringify(child)}, [], false);`,
  );
  const parent = join(dir, 'parent.mjs');
  buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: parent,
    external: ['better-sqlite3'],
    logLevel: 'silent',
  });
  return { parent };
}

/** The processes a test started, ended afterwards whatever the outcome (a child that never got its signal). */
const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0))
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // ended already
    }
});

function runUntilSignalled(signal: 'SIGINT' | 'SIGTERM'): Promise<{ out: string; code: number | null }> {
  const { parent } = harness();
  const p = spawn(process.execPath, [parent], { stdio: ['pipe', 'pipe', 'inherit'] });
  if (p.pid) started.push(p.pid);
  let out = '';
  let sent = false;
  p.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    const ready = /ready (\d+)/.exec(out);
    if (!sent && ready) {
      sent = true;
      started.push(Number(ready[1]));
      p.kill(signal);
    }
  });
  return new Promise((ok) => p.on('close', (code) => ok({ out, code })));
}

describe('the relaunched CLI', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('passes %s sent to it alone on to its child, and ends with it', async (s) => {
    const { out, code } = await runUntilSignalled(s);
    expect(out).toContain(`child got ${s}`);
    expect(code).toBe(0);
  });
});
