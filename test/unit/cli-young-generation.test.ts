// The CLI replaces itself once with a smaller young generation: the decision (never twice, never over the user's own
// heap flags, only where the process can be replaced), and the replaced process's output, exit status and signals.
import { readFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  forgetRestartTunables,
  MALLOC_ENV,
  MALLOC_TUNABLES,
  restartEnv,
  SEMI_SPACE_MIB,
  YOUNG_GENERATION_ENV,
  youngGenerationFlags,
} from '../../src/cli/youngGeneration';
import { SAMPLE } from '../support/committedSample';

const FLAG = `--max-semi-space-size=${SEMI_SPACE_MIB}`;
const CLI = resolve('dist/cli.js');

describe('youngGenerationFlags', () => {
  it('restarts a plain CLI with the smaller young generation', () => {
    expect(youngGenerationFlags([], {}, true)).toEqual([FLAG]);
    expect(youngGenerationFlags(['--enable-source-maps'], { NODE_OPTIONS: '--no-warnings' }, true)).toEqual([FLAG]);
  });

  it('never restarts the restarted process', () => {
    expect(youngGenerationFlags([], { [YOUNG_GENERATION_ENV]: FLAG }, true)).toBeUndefined();
  });

  it("keeps the user's own heap flags, on the command line or in NODE_OPTIONS", () => {
    for (const flag of [
      '--max-semi-space-size=32',
      '--min-semi-space-size=1',
      '--max_semi_space_size=2',
      '--semi-space-growth-factor=4',
      '--max-old-space-size=8192',
      '--max-young-generation-size=64',
      '--max-heap-size=512',
    ]) {
      expect(youngGenerationFlags([flag], {}, true), flag).toBeUndefined();
      expect(youngGenerationFlags([], { NODE_OPTIONS: `--no-warnings ${flag}` }, true), flag).toBeUndefined();
    }
  });

  it('runs in place under a debugger, whose session the new image would drop', () => {
    expect(youngGenerationFlags(['--inspect-brk'], {}, true)).toBeUndefined();
    expect(youngGenerationFlags([], { NODE_OPTIONS: '--inspect=9229' }, true)).toBeUndefined();
  });

  it('runs in place where the process cannot be replaced', () => {
    expect(youngGenerationFlags([], {}, false)).toBeUndefined();
  });
});

describe("the restart's malloc tunables", () => {
  it('are given to the new image unless the user set their own, and taken out of what its children inherit', () => {
    const env = restartEnv({ PATH: '/bin' }, [FLAG]);
    expect(env).toEqual({
      PATH: '/bin',
      [YOUNG_GENERATION_ENV]: FLAG,
      GLIBC_TUNABLES: MALLOC_TUNABLES,
      [MALLOC_ENV]: '1',
    });
    forgetRestartTunables(env);
    expect(env).toEqual({ PATH: '/bin', [YOUNG_GENERATION_ENV]: FLAG });

    const own = restartEnv({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=4' }, [FLAG]);
    expect(own.GLIBC_TUNABLES).toBe('glibc.malloc.arena_max=4');
    expect(own[MALLOC_ENV]).toBeUndefined();
    forgetRestartTunables(own);
    expect(own.GLIBC_TUNABLES).toBe('glibc.malloc.arena_max=4');
  });

  it('are never taken from a user who set the same ones in a restarted image', () => {
    const env: NodeJS.ProcessEnv = { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2', [MALLOC_ENV]: '1' };
    forgetRestartTunables(env);
    expect(env).toEqual({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' });
  });
});

describe('the restarted CLI', () => {
  const env = (restart: boolean) => {
    const e: NodeJS.ProcessEnv = { ...process.env };
    delete e[YOUNG_GENERATION_ENV];
    delete e.NODE_OPTIONS;
    delete e.GLIBC_TUNABLES;
    delete e[MALLOC_ENV];
    if (!restart) e[YOUNG_GENERATION_ENV] = 'off';
    return e;
  };

  it('prints the same bytes as the CLI run in place, with its exit status', () => {
    const run = (restart: boolean) =>
      spawnSync(process.execPath, [CLI, 'score', SAMPLE, '--json', '--no-cache'], { env: env(restart) });
    const restarted = run(true);
    const inPlace = run(false);
    expect(restarted.status).toBe(inPlace.status);
    expect(restarted.stdout.length).toBeGreaterThan(1000);
    expect(restarted.stdout.equals(inPlace.stdout)).toBe(true);
    expect(restarted.stderr.toString()).toBe(inPlace.stderr.toString());
    const usage = spawnSync(process.execPath, [CLI, 'no-such-command'], { env: env(true) });
    expect(usage.status).toBe(2);
  });

  it('runs under the flag in the same process, and Ctrl+C still stops it', async () => {
    // A demo endpoint runs until a signal: started restarted, it must print its URL and end on SIGINT.
    const child = spawn(process.execPath, [CLI, 'demo-endpoint'], { env: env(true) });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      child.on('exit', (code, signal) => done({ code, signal })),
    );
    const firstLine = await new Promise<string>((done) => child.stdout.once('data', (d: Buffer) => done(d.toString())));
    expect(firstLine).toMatch(/http:\/\/127\.0\.0\.1:\d+/);
    const pid = child.pid;
    expect(pid).toBeDefined();
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    expect(cmdline).toContain(FLAG);
    child.kill('SIGINT');
    const { code, signal } = await exited;
    expect(code === 0 || code === 130 || signal === 'SIGINT').toBe(true);
  });

  it('started as an executable (a plain first line, which every env reads), restarts itself under the flag', async () => {
    const firstLine = readFileSync(CLI, 'utf8').split('\n', 1)[0];
    expect(firstLine).toBe('#!/usr/bin/env node');
    const child = spawn(CLI, ['demo-endpoint'], {
      env: { ...env(true), PATH: `${dirname(process.execPath)}:${process.env.PATH}` },
    });
    const exited = new Promise<string>((done) => child.on('exit', (code, signal) => done(signal ?? String(code))));
    await new Promise((done) => child.stdout.once('data', done));
    const environ = readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0');
    expect(readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0')).toContain(FLAG);
    expect(environ).toContain(`${YOUNG_GENERATION_ENV}=${FLAG}`);
    // glibc 2.36 rewrites the variable in place as it reads it: /proc then shows only its first tunable.
    const shown = environ.find((e) => e.startsWith('GLIBC_TUNABLES='))?.slice('GLIBC_TUNABLES='.length);
    expect([MALLOC_TUNABLES, MALLOC_TUNABLES.split(':')[0]]).toContain(shown);
    expect(environ).toContain(`${MALLOC_ENV}=1`);
    child.kill('SIGINT');
    // The endpoint's own handler may already listen (a clean exit 0) or not yet (ended by the signal).
    expect(['0', '130', 'SIGINT']).toContain(await exited);
  });
});
