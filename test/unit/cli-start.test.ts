// What the CLI does before its job (src/cli/launch.ts, compileCache.ts): Node keeps the bundle's compiled code in the
// user's own cache folder, private, and the next run reads it back with the same output; NODE_DISABLE_COMPILE_CACHE
// and a user's NODE_COMPILE_CACHE are theirs. The official OpenAI client and pg are evaluated only by what sends a
// request or opens a server: the source may import them as values in one place each, lazily. Node's own modules that
// only some jobs use (crypto, zlib, http, net, child_process) are loaded on first use, and a cold `score` loads none.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileCacheDir } from '../../src/cli/compileCache';

const CLI = resolve('dist/cli.js');
const SAMPLE = resolve('sample');

function run(args: string[], env: NodeJS.ProcessEnv) {
  const base = { ...process.env };
  delete base.NODE_COMPILE_CACHE;
  delete base.NODE_DISABLE_COMPILE_CACHE;
  const r = spawnSync(process.execPath, [CLI, ...args], { env: { ...base, ...env }, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
}

describe("the CLI's compile cache", () => {
  it("is kept in the user's cache folder, private, and read back with the same output", () => {
    const home = mkdtempSync(join(tmpdir(), 'cli-cache-'));
    const env = { PERSONA_LAB_CACHE_DIR: home };
    const first = run(['score', SAMPLE, '--json', '--no-cache'], env);
    const dir = join(home, 'node-compile-cache');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const entries = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(entries.length).toBeGreaterThan(0);
    const second = run(['score', SAMPLE, '--json', '--no-cache'], env);
    expect(second).toBe(first);
    expect(JSON.parse(second)).toHaveProperty('runs');
  });

  it('follows XDG_CACHE_HOME, and PERSONA_LAB_CACHE_DIR over it', () => {
    expect(compileCacheDir({ XDG_CACHE_HOME: '/x' })).toBe('/x/persona-lab/node-compile-cache');
    expect(compileCacheDir({ XDG_CACHE_HOME: '/x', PERSONA_LAB_CACHE_DIR: '/y' })).toBe('/y/node-compile-cache');
  });

  it("is not made when the user turned Node's compile cache off, or chose their own", () => {
    const home = mkdtempSync(join(tmpdir(), 'cli-cache-'));
    run(['glossary', '--json'], { PERSONA_LAB_CACHE_DIR: home, NODE_DISABLE_COMPILE_CACHE: '1' });
    const own = mkdtempSync(join(tmpdir(), 'cli-own-cache-'));
    run(['glossary', '--json'], { PERSONA_LAB_CACHE_DIR: home, NODE_COMPILE_CACHE: own });
    expect(existsSync(join(home, 'node-compile-cache'))).toBe(false);
    expect(readdirSync(own).length).toBeGreaterThan(0);
  });
});

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));
}

describe('the clients evaluated only by what needs them', () => {
  const LAZY: Record<string, string> = { openai: 'src/core/runner/client.ts', pg: 'src/core/storage/postgres.ts' };

  it.each(Object.keys(LAZY))('%s is imported as a value nowhere; loaded by import() in one file', (pkg) => {
    const valueImport = new RegExp(`^\\s*import\\s+(?!type\\b)[^;]*?from\\s+'${pkg}'`, 'm');
    const dynamic = new RegExp(`import\\('${pkg}'\\)`);
    const found = { value: [] as string[], dynamic: [] as string[] };
    for (const file of [...sources(resolve('src')), ...sources(resolve('webview'))]) {
      const text = readFileSync(file, 'utf8');
      const where = relative(resolve('.'), file);
      if (valueImport.test(text)) found.value.push(where);
      if (dynamic.test(text)) found.dynamic.push(where);
    }
    expect(found).toEqual({ value: [], dynamic: [LAZY[pkg]] });
  });
});

describe("Node's modules a job may not use", () => {
  // node:net is left out: Node itself loads it for a standard stream that is a pipe, as a test's is.
  const LAZY = ['node:crypto', 'node:zlib', 'node:http', 'node:child_process'];
  const EVERY = [...LAZY, 'node:net'];

  it('are imported as values nowhere: src/core/io/builtins.ts loads each on first use', () => {
    const valueImport = new RegExp(`^\\s*import\\s+(?!type\\b)[^;]*?from\\s+'(${EVERY.join('|')})'`, 'm');
    const found = [...sources(resolve('src')), ...sources(resolve('webview'))]
      .filter((file) => valueImport.test(readFileSync(file, 'utf8')))
      .map((file) => relative(resolve('.'), file));
    expect(found).toEqual([]);
  });

  /** The Node modules a run of the CLI's bundle loaded, read from process.moduleLoadList as it exits. */
  function loaded(args: string[]): string[] {
    const dir = mkdtempSync(join(tmpdir(), 'cli-modules-'));
    const preload = join(dir, 'list.cjs');
    const out = join(dir, 'modules.json');
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.moduleLoadList)));\n`,
    );
    const r = spawnSync(process.execPath, ['--require', preload, resolve('dist/cliMain.js'), ...args], {
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const list = JSON.parse(readFileSync(out, 'utf8')) as string[];
    return LAZY.filter((m) => list.includes(`NativeModule ${m.slice('node:'.length)}`));
  }

  it('are not loaded by a cold score, and crypto and zlib are by one that reads and writes the index', () => {
    const root = mkdtempSync(join(tmpdir(), 'cli-modules-sample-'));
    cpSync(SAMPLE, root, { recursive: true });
    rmSync(join(root, '.personalab'), { recursive: true, force: true });
    expect(loaded(['score', root, '--json', '--no-cache'])).toEqual([]);
    expect(loaded(['score', root, '--json'])).toEqual(['node:crypto', 'node:zlib']);
  });
});
