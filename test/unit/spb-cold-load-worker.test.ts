// StreamProfileBench's cold open in a worker thread: the worker (built here as scripts/build.mjs builds it) reads the
// folder and writes its whole index, and the open from that index gives what an in-process cold read gives, figures
// and problems alike. A worker that cannot start, throws, exits or says nonsense leaves the open to the extension
// host's thread, which says why in the log; a newer open stops the worker and its thread ends.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { LogOutputChannel } from 'vscode';
import { INDEX_DIR } from '../../src/core/cache/store';
import { coldLoadInWorker } from '../../src/extension/benchmarks/spb/coldLoad/inWorker';
import { EARLY_FIGURES_FROM } from '../../src/extension/benchmarks/spb/coldLoad/indexFirst';
import { SpbStore } from '../../src/extension/benchmarks/spb/store';
import type { LoadHost } from '../../src/extension/benchmarks/types';
import { setLogChannel } from '../../src/extension/log';
import { loadView } from '../support/loadView';
import { cacheFiles, copySample, fileCount, open } from '../support/indexFolder';
import { buildColdLoadWorker } from '../support/coldLoadWorker';

vi.mock('vscode', async () => ({
  ...(await import('../support/vscodeEvents')).vscodeEvents(),
  commands: { executeCommand: async () => undefined },
}));

let dir = '';
let script = '';

beforeAll(async () => {
  ({ dir, script } = await buildColdLoadWorker('pl-cold-worker-'));
});

const lines: string[] = [];
const say = (level: string) => (m: string) => void lines.push(`${level} ${m}`);
setLogChannel({
  trace: say('trace'),
  debug: say('debug'),
  info: say('info'),
  warn: say('warn'),
  error: say('error'),
} as unknown as LogOutputChannel);

function memento() {
  const kept = new Map<string, unknown>();
  return {
    keys: () => [...kept.keys()],
    get: <T>(key: string, fallback?: T) => (kept.has(key) ? (kept.get(key) as T) : fallback),
    update: async (key: string, value: unknown) => void kept.set(key, value),
  };
}

/** A store as the extension makes it, with the index in the folder (or none) and the given worker bundle. */
function store(worker: string, index = true, onReport: (done: number, total: number) => void = () => {}) {
  const host: LoadHost = {
    progress: (_title, task) => task(onReport),
    preferredRun: () => undefined,
    cacheDir: (root) => (index ? join(root, INDEX_DIR) : undefined),
  };
  return new SpbStore(memento() as never, host, worker);
}

describe('the cold load in a worker thread', () => {
  it('writes the whole index, from which the open equals an in-process cold read, problems included', async () => {
    const root = copySample();
    const n = fileCount(root);
    const cold = await open(root, false);
    const progress: [number, number][] = [];
    const load = coldLoadInWorker(
      script,
      { target: root, cacheDir: join(root, INDEX_DIR), earlyFrom: EARLY_FIGURES_FROM },
      (done, total) => progress.push([done, total]),
    );
    const { report } = await load.done;
    expect(report).toEqual({ hits: 0, appended: 0, read: n });
    expect(progress.length).toBeGreaterThan(0);
    const [done, total] = progress[progress.length - 1];
    expect(total).toBeGreaterThan(0);
    expect(done).toBe(total);
    expect(cacheFiles(root, 'spb-tasks').length + cacheFiles(root, 'spb-results').length).toBe(n);
    const warm = await open(root);
    expect(warm.report).toEqual({ hits: n, appended: 0, read: 0 });
    expect(cold.bench.diagnostics.length).toBeGreaterThanOrEqual(3);
    expect(loadView(warm.bench)).toEqual(loadView(cold.bench));
    // A second worker load finds the index whole and reads only its figures pages.
    expect(
      (
        await coldLoadInWorker(
          script,
          { target: root, cacheDir: join(root, INDEX_DIR), earlyFrom: EARLY_FIGURES_FROM },
          () => {},
        ).done
      ).report,
    ).toEqual({ hits: n, appended: 0, read: 0 });
  });

  it('opens the store from the index the worker wrote, with the figures and problems of a cold read', async () => {
    const root = copySample();
    const n = fileCount(root);
    const cold = await open(root, false);
    lines.length = 0;
    const s = store(script);
    await s.open(root);
    expect(
      lines.some(
        (l) => l.startsWith(`info the index worker wrote the index in `) && l.includes(`${n} file(s) read in full`),
      ),
    ).toBe(true);
    expect(lines).toContain(
      `info index ${join(root, INDEX_DIR)}: ${n} file(s) from the index, 0 read from their old end, 0 read in full`,
    );
    expect(loadView(s.bench!)).toEqual(loadView(cold.bench));
    expect(s.diagnostics).toEqual(cold.bench.diagnostics);
    // Once the open is over (nothing left to write), its longest event-loop delay is logged for the bench.
    const delay = /^info event loop: longest delay \d+ ms during the open of .* \(99th percentile \d+ ms\)$/;
    await vi.waitFor(() => expect(lines.some((l) => delay.test(l))).toBe(true));
  });

  const failing: [string, () => string, RegExp][] = [
    ['cannot start', () => join(dir, 'no-such-worker.js'), /the index worker failed \(.*no-such-worker/],
    [
      'throws',
      () => bundle('throws.js', "throw new Error('broken worker');"),
      /the index worker failed \(broken worker\)/,
    ],
    ['exits', () => bundle('exits.js', 'process.exit(3);'), /the index worker failed \(the worker exited \(code 3\)/],
    [
      'says nonsense',
      () => bundle('nonsense.js', "require('node:worker_threads').parentPort.postMessage({ type: 'done' });"),
      /the index worker failed \(the worker sent a message of no known shape\)/,
    ],
  ];
  const bundle = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  for (const [what, worker, said] of failing) {
    it(`opens on the extension host's thread when the worker ${what}, and says why`, async () => {
      const root = copySample();
      const n = fileCount(root);
      const cold = await open(root, false);
      lines.length = 0;
      const s = store(worker());
      await s.open(root);
      const warned = lines.filter((l) => l.startsWith('warn '));
      expect(warned).toHaveLength(1);
      expect(warned[0]).toMatch(said);
      expect(warned[0]).toMatch(/: reading the files on the extension host$/);
      expect(lines).toContain(
        `info index ${join(root, INDEX_DIR)}: 0 file(s) from the index, 0 read from their old end, ${n} read in full`,
      );
      expect(loadView(s.bench!)).toEqual(loadView(cold.bench));
      // It writes the index after the open, as before; once written, a reload reads every file from it.
      await vi.waitFor(() => expect(lines.some((l) => l.startsWith('info heap after the open of '))).toBe(true));
      lines.length = 0;
      await s.reload();
      expect(lines).toContain(
        `info index ${join(root, INDEX_DIR)}: ${n} file(s) from the index, 0 read from their old end, 0 read in full`,
      );
    });
  }

  it('opens on the extension host when the index is off, writing none', async () => {
    const root = copySample();
    const cold = await open(root, false);
    lines.length = 0;
    const s = store(script, false);
    await s.open(root);
    expect(lines[0]).toBe(
      'info no index worker: no index folder (personaLab.index.enabled is off, or the folder cannot be written): reading the files on the extension host',
    );
    expect(existsSync(join(root, INDEX_DIR))).toBe(false);
    expect(loadView(s.bench!)).toEqual(loadView(cold.bench));
  });

  it('stops the worker of a load that a newer open supersedes: its thread is terminated', async () => {
    const root = copySample();
    // A worker that reports once and never ends: only terminate() ends its thread.
    const endless = bundle(
      'endless.js',
      "require('node:worker_threads').parentPort.postMessage({ type: 'progress', done: 0, total: 1 });\n" +
        'setInterval(() => {}, 1000);',
    );
    const load = coldLoadInWorker(
      endless,
      { target: root, cacheDir: join(root, INDEX_DIR), earlyFrom: EARLY_FIGURES_FROM },
      () => load.stop('a newer open'),
    );
    await expect(load.done).rejects.toThrow('a newer open');
    expect(await load.ended).toBe(1);
  });

  it('ends a superseded load without a change, and opens the newer one', async () => {
    const root = copySample();
    const cold = await open(root, false);
    lines.length = 0;
    let second: Promise<void> | undefined;
    const s = store(script, true, () => {
      second ??= s.open(root); // while the first load's worker reports its first bytes
    });
    let changes = 0;
    s.onDidChange(() => changes++);
    await s.open(root);
    // The superseded open resolves only once the newer one has loaded: a caller that reloads and then reads the
    // benchmark (a persona ablation showing its new runs) reads the new one, never the one from before both.
    expect(changes).toBe(1);
    expect(s.bench).toBeDefined();
    await second;
    expect(lines).toContain(`info the load of ${root} was stopped: a newer open of ${root}`);
    expect(changes).toBe(1);
    expect(loadView(s.bench!)).toEqual(loadView(cold.bench));
  });
});
