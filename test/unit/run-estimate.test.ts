// "Cost before you spend": the token estimator, the estimate of a run (skipping what a resume skips), its line, and
// `run` / `experiment` printing it before anything is sent (--dry-run sends nothing); an experiment goes through the
// PI guard as `run` does.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExperimentCommand } from '../../src/cli/formats/spb/experiment';
import { EXIT_PI_REFUSED, runRunCommand, type RunCliIo } from '../../src/cli/run';
import { writeSample } from '../../src/core/experiments/sampleFile';
import { newSample } from '../../src/core/spb/experiments/sampleFile';
import { estimateLine, estimateTokens } from '../../src/core/runner/estimate';
import { stepKey } from '../../src/core/runner/journal';
import { estimateRun, type PlannedPrompt } from '../../src/core/spb/run/preflight';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { DEFAULT_TEMPLATE } from '../../src/core/spb/prompt/prompt';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { SAMPLE } from '../support/committedSample';

let server: ScriptedServer;
const dirs: string[] = [];
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function io(): { out: { stdout: string; stderr: string }; sink: RunCliIo } {
  const out = { stdout: '', stderr: '' };
  return { out, sink: { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), env: {} } };
}

const prompt = (userId: string, index: number, text: string): PlannedPrompt => ({
  label: `weibo/${userId} step ${index + 1}`,
  platform: 'weibo',
  userId,
  index,
  system: 'abcd',
  prompt: text,
});

describe('the estimator', () => {
  it('counts a CJK character as a token and other text as a token per 4 characters', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('用户的第')).toBe(4);
    expect(estimateTokens('ab用户cdefg，')).toBe(1 + 2 + 2 + 1);
  });

  it('estimates the requests still to make, their tokens and the cost', () => {
    const prompts = [prompt('u1', 0, 'x'.repeat(400)), prompt('u1', 1, '字'.repeat(100)), prompt('u2', 0, 'y')];
    const e = estimateRun(prompts, {
      done: new Set([stepKey('weibo', 'u2', 0)]),
      maxTokens: 500,
      prices: { inputPerMTok: 1000, outputPerMTok: 2000 },
    });
    // (1 + 100 + 8) + (1 + 100 + 8)
    expect(e).toEqual({
      requests: 2,
      done: 1,
      promptTokens: 218,
      maxCompletionTokens: 1000,
      inputCost: 0.218,
      maxOutputCost: 2,
    });
    expect(estimateLine(e)).toBe(
      'estimate: 2 requests (1 step already done), ~218 prompt tokens, at most 1,000 completion tokens, ' +
        'input cost ~0.22, output cost at most 2.00 (tokens estimated from the rendered prompts; retries add more)',
    );
    expect(estimateRun(prompts).inputCost).toBeNull();
  });
});

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'run-estimate-'));
  dirs.push(root);
  cpSync(SAMPLE, root, { recursive: true });
  rmSync(join(root, '.personalab'), { recursive: true, force: true });
  writeFileSync(join(root, 't.plprompt'), DEFAULT_TEMPLATE);
  return root;
}

describe('run and experiment print the estimate first', () => {
  it('run --dry-run prints it and sends nothing', async () => {
    const root = workspace();
    const { out, sink } = io();
    const before = server.requests.length;
    const opts = { out: 'dry', 'base-url': server.baseURL, model: 'm', platform: 'weibo', 'dry-run': true };
    expect(await runRunCommand([root], { ...opts, 'input-per-mtok': '3' }, sink)).toBe(0);
    expect(server.requests.length).toBe(before);
    const bench = await loadBenchmark(root);
    const steps = [...bench.users.get('weibo')!.values()].reduce((n, u) => n + u.steps.length, 0);
    expect(out.stderr.split('\n')[0]).toBe("prompt: Persona Lab's template, not the benchmark's prompt");
    expect(out.stderr.split('\n')[1]).toMatch(
      new RegExp(`^dry: estimate: ${steps} requests, ~[\\d,]+ prompt tokens, input cost ~`),
    );
    expect(out.stdout).toBe('');
  });

  it("an experiment's prompts go through the PI guard", async () => {
    const root = workspace();
    const bench = await loadBenchmark(root);
    // The user whose step 2 posts hold the planted phone number (sample/pi-manifest.json).
    const draw = { seed: 1, by: 'platform' as const, requested: 1, baseRun: null, strata: [] };
    writeSample(root, newSample(bench, 'pi', { ...draw, users: { weibo: ['we_b5ce11fb65'] } }));
    const { out, sink } = io();
    const before = server.requests.length;
    const opts = {
      template: join(root, 't.plprompt'),
      sample: 'pi',
      'base-url': server.baseURL,
      model: 'm',
      'pi-guard-loopback': true,
    };
    expect(await runExperimentCommand([root], opts, sink, false)).toBe(EXIT_PI_REFUSED);
    expect(server.requests.length).toBe(before);
    expect(out.stderr).toContain('PHONE (high) "13800138000" in the prompt of weibo/we_b5ce11fb65 step 2');
  });
});
