// scripts/install-code-server.sh (run by `npm start` and `npm run test:e2e`) shows one line per stage, keeps npm's and
// the compilers' output in its log, and names that log when the install fails. Here npm is a stand-in that prints
// compiler output and fails, so nothing is downloaded or built, and dpkg-query one that finds every package; the
// Node it runs on is the pinned runtime of scripts/node-runtime.mjs that the real install uses.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'pl-install-cs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const COMPILER_LINES = 300;

function fakeNpm(): string {
  const bin = join(work, 'fake-npm');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'npm'), '#!/bin/sh\nexit 1\n');
  chmodSync(join(bin, 'npm'), 0o755);
  // Every system package reads as installed, so that the test needs no apt (and never calls it).
  writeFileSync(join(bin, 'dpkg-query'), "#!/bin/sh\nprintf 'install ok installed'\n");
  chmodSync(join(bin, 'dpkg-query'), 0o755);
  // The script runs npm-cli.js next to `npm` on its own Node: `-v`, then `ci`.
  writeFileSync(
    join(bin, 'npm-cli.js'),
    `if (process.argv.includes('-v')) { console.log('11.0.0'); process.exit(0); }
for (let i = 0; i < ${COMPILER_LINES}; i++) console.log('  CXX(target) Release/obj.target/pty/src/unix/pty' + i + '.o');
console.error('gyp ERR! build error');
console.error('npm error code 1');
process.exit(1);
`,
  );
  return bin;
}

describe('install-code-server.sh', () => {
  // The stand-in npm below would also fail the script's own install of that Node, which on a fresh clone (`npm ci &&
  // npm test`, before `npm start` ran) is not there yet: install it first with the real npm.
  beforeAll(() => {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts/node-runtime.mjs'), '24'], { encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
  }, 300_000);

  it('prints a line per stage, keeps the compiler output in its log and names the log when npm fails', () => {
    const dest = join(work, 'cs');
    const r = spawnSync('bash', [join(ROOT, 'scripts/install-code-server.sh'), '4.139.1'], {
      encoding: 'utf8',
      env: {
        ...process.env,
        PATH: `${fakeNpm()}:${process.env.PATH ?? ''}`,
        PERSONA_LAB_CODE_SERVER_DIR: dest,
        SKIP_APT: '1',
      },
      timeout: 300_000,
    });
    const log = join(dest, 'install.log');
    expect(r.status, r.stdout + r.stderr).toBe(1);
    const stages = r.stdout.split('\n').filter((l) => /^\[install-code-server 4\.139\.1\] \[\d\/5\] /.test(l));
    expect(stages.map((l) => /\[(\d)\/5\]/.exec(l)?.[1])).toEqual(['1', '2', '3']);
    expect(stages[2]).toContain(log);
    // The compiler's lines are in the log, not on the terminal.
    expect(r.stdout + r.stderr).not.toContain('CXX(target)');
    expect(existsSync(log)).toBe(true);
    expect(readFileSync(log, 'utf8').match(/CXX\(target\)/g)).toHaveLength(COMPILER_LINES);
    expect(r.stderr).toContain('gyp ERR! build error');
    expect(r.stderr).toContain(`npm ci failed (exit 1); full log: ${log}`);
    expect((r.stdout + r.stderr).split('\n').length).toBeLessThan(20);
  });
});
