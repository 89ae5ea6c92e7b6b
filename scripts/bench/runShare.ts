// A platform run of the paper-scale folder against the scripted OpenAI-compatible server (no delay), through the
// real HTTP client: how much of its wall time is spent outside request handling (planning, prompts, the journal,
// results writes), measured as the time when no request is in flight. One user at a time, so that the runner's own
// work cannot hide behind another user's request.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createOpenAITransport, type ChatTransport } from '../../src/core/runner/client';
import { runBenchmark } from '../../src/core/spb/run/runner';
import { DEFAULT_TEMPLATE } from '../../src/core/spb/prompt/prompt';
import type { Benchmark, Platform } from '../../src/core/spb/types';
import { startScriptedServer } from '../../test/support/scriptedServer';

/** The transport, and the union of the intervals in which at least one request was in flight. */
function measured(inner: ChatTransport): { transport: ChatTransport; inFlightMs: () => number } {
  let active = 0;
  let since = 0n;
  let total = 0n;
  const transport: ChatTransport = async (system, prompt, signal) => {
    if (active++ === 0) since = process.hrtime.bigint();
    try {
      return await inner(system, prompt, signal);
    } finally {
      if (--active === 0) total += process.hrtime.bigint() - since;
    }
  };
  return { transport, inFlightMs: () => Number(total) / 1e6 };
}

export async function measureRunShare(bench: Benchmark): Promise<void> {
  const steps = (p: Platform) => [...(bench.users.get(p)?.values() ?? [])].reduce((n, u) => n + u.steps.length, 0);
  const platform = [...bench.users.keys()].sort((a, b) => steps(a) - steps(b))[0];
  const name = 'bench-run-share';
  const dir = join(bench.root, 'results', name);
  rmSync(dir, { recursive: true, force: true });
  const server = await startScriptedServer();
  try {
    const endpoint = { baseURL: server.baseURL, apiKey: 'bench', model: 'scripted' };
    const { transport, inFlightMs } = measured(createOpenAITransport(endpoint));
    const t0 = process.hrtime.bigint();
    const summary = await runBenchmark({
      bench,
      name,
      template: DEFAULT_TEMPLATE,
      endpoint,
      transport,
      platforms: [platform],
      concurrency: 1,
    });
    const wall = Number(process.hrtime.bigint() - t0) / 1e6;
    const outside = 1 - inFlightMs() / wall;
    const p = summary.progress;
    console.log(
      `platform run (${platform}, one user at a time, ${p.done} steps, ${p.requests} requests, ${summary.status}) against the scripted server: ${(wall / 1000).toFixed(1)} s, requests in flight ${(inFlightMs() / 1000).toFixed(1)} s; share outside request handling ${(100 * outside).toFixed(1)} %   (goal <= 10 %)`,
    );
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
