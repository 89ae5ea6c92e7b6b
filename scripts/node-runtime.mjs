#!/usr/bin/env node
// Puts a given Node release from the npm registry (the `node` package, which installs its platform package with
// the binary and the headers) under .cache/node/<version>/ and prints the path of its `node` binary.
// Used for what runs on a Node other than the toolchain's: the ABI test (Node 20, 22, 24), code-server's floor line
// (Node 22). The toolchain's own Node 24 is the `node` devDependency, in node_modules/.bin.
//
//   node scripts/node-runtime.mjs 22          -> .../.cache/node/22.23.3/node_modules/node/bin/node
//   node scripts/node-runtime.mjs 22 --headers  -> the folder to give npm_config_nodedir (has include/node)
//
// A second call is a no-op. Exit 1 with a message when the registry cannot be reached.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The release of each line that the repository pins (the toolchain's 24 is package.json's devDependency). */
export const NODE_RELEASES = { 20: '20.20.2', 22: '22.23.3', 24: '24.21.0' };

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Installs (once) and returns { bin, headers } of the pinned release of `line` (20, 22 or 24). */
export function nodeRuntime(line) {
  const version = NODE_RELEASES[line] ?? (/^\d+\.\d+\.\d+$/.test(String(line)) ? String(line) : undefined);
  if (!version)
    throw new Error(`no pinned Node release for "${line}" (known: ${Object.keys(NODE_RELEASES).join(', ')})`);
  const dir = join(repo, '.cache/node', version);
  const pkg = join(dir, 'node_modules/node');
  const bin = join(pkg, process.platform === 'win32' ? 'bin/node.exe' : 'bin/node');
  const stamp = join(dir, '.installed');
  if (!existsSync(stamp) || !existsSync(bin)) {
    // Installed beside its place and renamed into it, so that two installs of one line at the same time (the ABI test
    // and the floor's code-server install, which CI runs together) never write into one folder: the first rename
    // wins and the other install is thrown away.
    const tmp = `${dir}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    writeFileSync(join(tmp, 'package.json'), JSON.stringify({ name: `node-runtime-${version}`, private: true }));
    const r = spawnSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--no-save', '--loglevel=error', `node@${version}`],
      {
        cwd: tmp,
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
        shell: process.platform === 'win32',
        env: { ...process.env, npm_config_update_notifier: 'false' },
      },
    );
    const tmpBin = join(tmp, relative(dir, bin));
    if (r.status !== 0 || !existsSync(tmpBin)) {
      rmSync(tmp, { recursive: true, force: true });
      throw new Error(`npm install node@${version} failed (exit ${r.status ?? r.signal}):\n${r.stderr || r.stdout}`);
    }
    writeFileSync(join(tmp, '.installed'), version);
    if (!(existsSync(stamp) && existsSync(bin))) rmSync(dir, { recursive: true, force: true });
    try {
      renameSync(tmp, dir);
    } catch (e) {
      rmSync(tmp, { recursive: true, force: true });
      if (!(existsSync(stamp) && existsSync(bin))) throw e;
    }
  }
  const platformPkgs = join(pkg, 'node_modules');
  const platformDir = readdirSync(platformPkgs)
    .map((n) => join(platformPkgs, n))
    .find((p) => existsSync(join(p, 'include/node/node_api.h')));
  return { version, bin, headers: platformDir };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const line = process.argv[2];
  if (!line) {
    console.error('usage: node scripts/node-runtime.mjs <20|22|24|x.y.z> [--headers]');
    process.exit(1);
  }
  try {
    const rt = nodeRuntime(line);
    if (process.argv.includes('--headers')) {
      if (!rt.headers) throw new Error(`node@${rt.version} has no include/node headers`);
      console.log(rt.headers);
    } else {
      console.log(rt.bin);
    }
  } catch (err) {
    console.error(`[node-runtime] ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
