// `run`'s limits on the CLI and in the settings: timeouts above a day are refused, --max-reply-mb is
// passed on, and the exit status tells a run whose steps all failed, or some, from a clean one.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRunCommand, type RunCliIo } from '../../src/cli/run';
import { EXIT_ALL_STEPS_FAILED, EXIT_SOME_STEPS_FAILED } from '../../src/cli/formats/spb/run';
import { endpointProblems, readEndpointSettings, type Inspected } from '../../src/extension/endpoint/settings';
import {
  MARKER_TEMPLATE,
  readResultRows,
  reply,
  startScriptedServer,
  writeTinyBench,
  type ScriptedServer,
} from '../support/scriptedServer';

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
});

const io = () => {
  const out = { stdout: '', stderr: '' };
  const sink: RunCliIo = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), env: {} };
  return { out, sink };
};

function bench(): { root: string; base: Record<string, string> } {
  const root = writeTinyBench({}, 'runner-cli-limits-');
  writeFileSync(join(root, 't.txt'), MARKER_TEMPLATE);
  return {
    root,
    base: { template: join(root, 't.txt'), 'base-url': server.baseURL, model: 'm', user: 'we_0000000000' },
  };
}

describe('run: limits on the command line', () => {
  it('refuses a timeout of more than a day, and a reply cap that is no size, as usage errors', async () => {
    const { root, base } = bench();
    server.requests.length = 0;
    for (const timeout of ['2147484', '86401']) {
      const { out, sink } = io();
      expect(await runRunCommand([root], { ...base, out: 'x', timeout }, sink)).toBe(2);
      expect(out.stderr).toContain(`--timeout ${timeout} is more than a day (86400 s)`);
    }
    const { out, sink } = io();
    expect(await runRunCommand([root], { ...base, out: 'x', 'max-reply-mb': '0' }, sink)).toBe(2);
    expect(out.stderr).toContain('--max-reply-mb: invalid value "0"');
    expect(server.requests).toHaveLength(0);
  });

  it('cuts off a reply over --max-reply-mb', async () => {
    const { root, base } = bench();
    server.setScript((req) => (req.info.step === 2 ? reply.oversize(4 * 1024 * 1024) : reply.smart()));
    const { out, sink } = io();
    const code = await runRunCommand([root], { ...base, out: 'cap', 'max-reply-mb': '1' }, sink);
    expect(code, out.stderr).toBe(EXIT_SOME_STEPS_FAILED);
    expect(out.stdout).toContain('4/4 steps (1 with the error record)');
    const [row] = readResultRows(join(root, 'results/cap/inference_results_weibo.jsonl'));
    expect(row.steps[1].reasoning).toMatch(/^Error: The reply passed the 1 MiB size limit/);
  });

  it('exits with its own statuses when every step failed and when some did', async () => {
    const { root, base } = bench();
    server.setScript(() => reply.status(401, undefined, { error: { message: 'Incorrect API key provided' } }));
    server.requests.length = 0;
    const all = io();
    expect(await runRunCommand([root], { ...base, out: 'all' }, all.sink), all.out.stderr).toBe(EXIT_ALL_STEPS_FAILED);
    expect(all.out.stdout).toContain('4/4 steps (4 with the error record)');
    // One request per step: a 401 is not retried.
    expect(server.requests).toHaveLength(4);
    server.setScript((req) => (req.info.step === 3 ? reply.status(403) : reply.smart()));
    const some = io();
    expect(await runRunCommand([root], { ...base, out: 'some' }, some.sink), some.out.stderr).toBe(
      EXIT_SOME_STEPS_FAILED,
    );
    server.setScript(undefined);
    const none = io();
    expect(await runRunCommand([root], { ...base, out: 'none' }, none.sink), none.out.stderr).toBe(0);
    expect([EXIT_ALL_STEPS_FAILED, EXIT_SOME_STEPS_FAILED]).toEqual([5, 6]);
  });
});

describe('the endpoint settings', () => {
  const inspect =
    (values: Record<string, unknown>) =>
    (key: string): Inspected<unknown> | undefined =>
      key in values ? { defaultValue: values[key] } : undefined;
  const base = { baseURL: 'http://127.0.0.1:8000/v1', model: 'm' };

  it('name a timeout of more than a day as a problem, and read the reply cap', () => {
    const s = readEndpointSettings(inspect({ ...base, timeoutSeconds: 2147484, maxReplyMB: 2 }), true);
    expect(s.maxReplyMB).toBe(2);
    expect(endpointProblems(s)).toEqual([
      'personaLab.endpoint.timeoutSeconds 2147484 is more than a day (86400 s), the longest timeout allowed',
    ]);
    const ok = readEndpointSettings(inspect({ ...base, timeoutSeconds: 86400 }), true);
    expect(endpointProblems(ok)).toEqual([]);
    expect(ok.maxReplyMB).toBe(8);
  });
});
