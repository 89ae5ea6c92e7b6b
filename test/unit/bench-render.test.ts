// The bench's render stage: it reports a figure only when the e2e test ran now and wrote one for this benchmark.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  RENDER_RESULT,
  RENDER_TEST,
  describeRender,
  measureRender,
  renderPrerequisite,
  type ExecResult,
} from '../../scripts/bench/render';
import { STEP_PAINTED, stepPaintedMs } from '../e2e/support/stepFirstOpen';

let repo: string;
const benchmark = '/data/bench-paper';
const savedBin = process.env.PERSONA_LAB_CODE_SERVER;

function touch(path: string, text = ''): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function figures(over: Record<string, unknown> = {}): string {
  return JSON.stringify({
    benchmark,
    runs: 14,
    clicks: 20,
    medianMs: 61.2,
    p95Ms: 97.9,
    samplesMs: [55, 61.2, 97.9],
    measuredAt: new Date().toISOString(),
    ...over,
  });
}

const MIB = 2 ** 20;
const heap = (heapUsed: number, collected = true) => ({
  heapUsed: heapUsed * MIB,
  heapTotal: 2 * heapUsed * MIB,
  external: 20 * MIB,
  arrayBuffers: 5 * MIB,
  rss: 3 * heapUsed * MIB,
  collected,
});
const cliHeapOutput = JSON.stringify({ runs: 14, idle: heap(4), loaded: heap(200) });

/**
 * An exec that records the commands and, for the vitest run, writes `result` (if any) where the test would; the
 * CLI's heap worker prints `heapOutput`.
 */
function fakeExec(result: string | null, status = 0, heapOutput = cliHeapOutput) {
  const calls: string[][] = [];
  const exec = (cmd: string, args: string[], env: NodeJS.ProcessEnv): ExecResult => {
    calls.push([cmd, ...args, `PERSONA_LAB_RENDER_BENCH=${env.PERSONA_LAB_RENDER_BENCH ?? ''}`]);
    if (cmd === 'npx' && result !== null) touch(join(repo, RENDER_RESULT), result);
    if (args.includes('--cli-heap')) return { status: 0, output: heapOutput };
    return { status: cmd === 'npx' ? status : 0, output: 'line 1\nboom at the end' };
  };
  return { exec, calls };
}

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), 'pl-bench-render-'));
  process.env.PERSONA_LAB_CODE_SERVER = join(repo, 'code-server');
});
afterEach(() => {
  if (savedBin === undefined) delete process.env.PERSONA_LAB_CODE_SERVER;
  else process.env.PERSONA_LAB_CODE_SERVER = savedBin;
});

describe('bench render stage', () => {
  it('says the figure was not measured, and how to measure it, when the e2e test is not in the checkout', () => {
    touch(join(repo, 'code-server'));
    const { exec, calls } = fakeExec(figures());
    const outcome = measureRender({ repo, benchmark, exec });
    expect(outcome).toEqual({ measured: false, reason: `${RENDER_TEST} is not in this checkout` });
    expect(calls).toEqual([]);
    const text = describeRender(outcome, benchmark);
    expect(text).toMatch(/NOT MEASURED/);
    expect(text).toContain(`PERSONA_LAB_RENDER_BENCH=${benchmark}`);
    expect(text).toContain(RENDER_TEST);
  });

  it('says so when code-server is missing', () => {
    touch(join(repo, RENDER_TEST));
    expect(renderPrerequisite(repo)).toMatch(/code-server is not installed/);
    expect(measureRender({ repo, benchmark, exec: fakeExec(figures()).exec }).measured).toBe(false);
  });

  it('packages the extension, runs the test against the benchmark and reports its median and p95', () => {
    touch(join(repo, RENDER_TEST));
    touch(join(repo, 'code-server'));
    const { exec, calls } = fakeExec(figures());
    const outcome = measureRender({ repo, benchmark, exec });
    expect(outcome.measured).toBe(true);
    expect(calls[0][1]).toBe('scripts/package.mjs');
    expect(calls[1]).toEqual([
      'npx',
      'vitest',
      'run',
      '--config',
      'vitest.e2e.config.mts',
      RENDER_TEST,
      `PERSONA_LAB_RENDER_BENCH=${benchmark}`,
    ]);
    expect(describeRender(outcome, benchmark)).toMatch(/14 run\(s\), 20 clicks\): median 61 ms, p95 98 ms/);
  });

  it("takes the step's paint as the later of the page's mark and a first contentful paint after the step showed", () => {
    const frame = (marks: Record<string, number>) =>
      Object.entries(marks).map(([name, ms]) => ({ what: `content frame: ${name}`, ms }));
    // A placeholder painted while the step was awaited: the mark after the render is the step's paint.
    expect(
      stepPaintedMs(
        frame({ 'first-contentful-paint': 337, 'persona-lab:first-show': 376, 'persona-lab:first-show-painted': 420 }),
      ),
    ).toBe(420);
    // The step rendered from the page's HTML: the page's first paint, later than the mark, is the step's.
    expect(
      stepPaintedMs(
        frame({ 'persona-lab:first-show': 404, 'persona-lab:first-show-painted': 453, 'first-contentful-paint': 474 }),
      ),
    ).toBe(474);
    expect(stepPaintedMs(frame({ 'persona-lab:first-show': 404 }))).toBeUndefined();
  });

  it('times the CLI cold job after the test, and reports the cold open and the first step view against it', () => {
    touch(join(repo, RENDER_TEST));
    touch(join(repo, 'code-server'));
    const milestones = (sw: number, frame: number, painted: number) => [
      { what: 'webview host page: content/started', ms: 200 },
      { what: 'webview host page: content/workerReady', ms: 200 + sw },
      { what: 'content frame: navigation start', ms: frame },
      { what: 'content frame: persona-lab:first-show-painted', ms: painted - 40 },
      { what: STEP_PAINTED, ms: painted },
    ];
    const result = figures({
      coldToFiguresMs: 9000,
      pageToFiguresMs: 20000,
      extensionHostRss: 700 * 2 ** 20,
      extensionHostPeakRss: 900 * 2 ** 20,
      firstOpenMs: 3000,
      firstOpen: { milestones: milestones(2500, 2710, 3000) },
      reopenMs: 350,
      reopen: { milestones: milestones(5, 190, 350) },
    });
    const { exec, calls } = fakeExec(result);
    const outcome = measureRender({ repo, benchmark, exec });
    expect(calls[2].slice(1, 6)).toEqual(['dist/cli.js', 'score', benchmark, '--json', '--no-cache']);
    expect(outcome.measured && outcome.figures.cliColdMs).toBeTypeOf('number');
    const text = describeRender(
      outcome.measured ? { measured: true, figures: { ...outcome.figures, cliColdMs: 6000 } } : outcome,
      benchmark,
    );
    expect(text).toContain('until the tree shows figures (from the start of the load): 9000 ms = 1.50x');
    expect(text).toContain('RSS 700 MiB, peak 900 MiB');
    expect(text).toContain('3000 ms in a new browser profile, of which 2500 ms');
    expect(text).toContain('290 ms our page');
    expect(text).toContain('same browser 350 ms (service worker 5 ms, our page 160 ms)');
    expect(text).toMatch(
      /heap after the cold open, extension host \/ the CLI's: NOT MEASURED \(the extension host logged no heap line/,
    );
  });

  it("reads the CLI's heap after the same load in a fresh process, and prints the extension host's over it", () => {
    touch(join(repo, RENDER_TEST));
    touch(join(repo, 'code-server'));
    const { exec, calls } = fakeExec(
      figures({ coldToFiguresMs: 9000, extensionHostHeap: heap(300), extensionHostHeapAtActivation: heap(60) }),
    );
    const outcome = measureRender({ repo, benchmark, exec });
    expect(calls[3].slice(1, 5)).toEqual(['--expose-gc', 'dist/bench.js', '--cli-heap', benchmark]);
    const text = describeRender(outcome, benchmark);
    expect(text).toContain(
      "extension host 300.0 MiB (after a full collection, its index written) / the CLI's after the same load 200.0 MiB (after a full collection, a fresh process) = 1.50x   (goal <= 1.5x)",
    );
    expect(text).toContain(
      "before: the extension host at the extension's activation 60.0 MiB, the CLI's process before its load 4.0 MiB",
    );

    const uncollected = fakeExec(figures({ coldToFiguresMs: 9000, extensionHostHeap: heap(300, false) })).exec;
    expect(describeRender(measureRender({ repo, benchmark, exec: uncollected }), benchmark)).toContain(
      'extension host 300.0 MiB (no collection forced, its index written)',
    );
    const failed = fakeExec(figures({ coldToFiguresMs: 9000, extensionHostHeap: heap(300) }), 0, 'Error: boom').exec;
    const failedOutcome = measureRender({ repo, benchmark, exec: failed });
    expect(failedOutcome.measured && failedOutcome.figures.cliHeap).toBe(undefined);
    expect(describeRender(failedOutcome, benchmark)).toContain("NOT MEASURED (the CLI's heap worker failed)");
  });

  it('never reports a file left by an earlier run, for another benchmark, incomplete, or from a failed test', () => {
    touch(join(repo, RENDER_TEST));
    touch(join(repo, 'code-server'));
    touch(join(repo, RENDER_RESULT), figures());
    expect(measureRender({ repo, benchmark, exec: fakeExec(null).exec })).toMatchObject({
      measured: false,
      reason: expect.stringMatching(/wrote no/),
    });
    const old = figures({ measuredAt: '2020-01-01T00:00:00Z' });
    expect(measureRender({ repo, benchmark, exec: fakeExec(old).exec })).toMatchObject({
      reason: expect.stringMatching(/older than this run/),
    });
    const other = figures({ benchmark: '/elsewhere' });
    expect(measureRender({ repo, benchmark, exec: fakeExec(other).exec })).toMatchObject({
      reason: expect.stringMatching(/not \/data\/bench-paper/),
    });
    const partial = figures({ p95Ms: 'fast' });
    expect(measureRender({ repo, benchmark, exec: fakeExec(partial).exec })).toMatchObject({
      reason: expect.stringMatching(/lacks p95Ms/),
    });
    const failed = measureRender({ repo, benchmark, exec: fakeExec(figures(), 1).exec });
    expect(failed).toMatchObject({
      measured: false,
      reason: expect.stringMatching(/e2e render test failed \(exit 1\)[\s\S]*boom at the end/),
    });
  });
});
