// PI carried through the chain: a phone number a model copied from a post into its personas
// entered at step 2 from the post and was carried to step 3 (written there in another spacing, and received there);
// an e-mail address only the model wrote is its own, and is received past a failed request. audit --json gives the
// chains and the per-run counts, the text and Markdown reports list them, and a clean sample has none.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditBenchmark } from '../../src/core/spb/pi/audit';
import { chainCounts, chainShort, chainText, piChains, stepRanges, valueKey } from '../../src/core/spb/pi/chains';
import { writeMemoryChain } from '../fixtures/memoryChain';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { MODEL_EMAIL, MODEL_USER, PHONE_USER, writePersonaPi } from '../fixtures/personaPi';
import { SAMPLE } from '../support/committedSample';

const CLI = resolve('dist/cli.js');
/** The audit's stdout; it exits 1 when it finds something. */
const audit = (...args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, 'audit', ...args], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(1);
  return r.stdout;
};
const tmp = mkdtempSync(join(tmpdir(), 'pl-chains-'));
const root = join(tmp, 'sample');
beforeAll(() => writePersonaPi(SAMPLE, root));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('PI chains', () => {
  it('finds where each value entered and where it was carried', async () => {
    const bench = await loadBenchmark(root, { runs: ['demo-llm'] });
    const audit = await auditBenchmark(bench, { runs: ['demo-llm'] });
    const chains = audit.chains.map(({ findings, ...c }) => ({ ...c, findings: findings.length }));
    expect(chains).toEqual([
      {
        run: 'demo-llm',
        platform: 'weibo',
        userId: PHONE_USER,
        category: 'PHONE',
        text: '13800138000',
        enteredAt: 2,
        source: 'post',
        sourceStep: 2,
        written: [2, 3],
        received: [3],
        findings: 2,
      },
      {
        run: 'demo-llm',
        platform: 'douban',
        userId: MODEL_USER,
        category: 'EMAIL',
        text: MODEL_EMAIL,
        enteredAt: 2,
        source: 'model',
        sourceStep: null,
        written: [2],
        received: [3],
        findings: 1,
      },
    ]);
    expect(chainText(audit.chains[0])).toBe('entered at step 2 from a post of step 2, carried to step 3');
    expect(chainShort(audit.chains[0])).toBe('step 2 (post) → 3');
    expect(chainShort(audit.chains[1])).toBe('step 2 (model) → 3');
    expect(chainText(audit.chains[1])).toBe(
      "entered at step 2 from the model (not in the user's bio, posts or tags), carried to step 3",
    );
  });

  it('audit --json gives the chains and per-run counts; the text report lists them; a clean sample has none', () => {
    const report = JSON.parse(audit(root, '--json')) as {
      chains: { description: string; findings: string[] }[];
      carried: Record<string, { values: number; steps: number }>;
      findings: { key: string; field: string; run: string | null }[];
    };
    expect(report.carried).toEqual({ 'demo-llm': { values: 2, steps: 4 } });
    expect(report.chains.map((c) => c.description)).toEqual([
      'entered at step 2 from a post of step 2, carried to step 3',
      "entered at step 2 from the model (not in the user's bio, posts or tags), carried to step 3",
    ]);
    const keys = new Set(report.findings.map((f) => f.key));
    for (const c of report.chains) for (const k of c.findings) expect(keys.has(k)).toBe(true);
    const text = audit(root);
    expect(text).toContain('demo-llm: 2 value(s), in the personas of 4 step(s)');
    const clean = JSON.parse(audit(SAMPLE, '--json')) as { chains: unknown[]; carried: object };
    expect(clean.chains).toEqual([]);
    expect(clean.carried).toEqual({});
  });

  it('carries a value past a failed request: received by every step until a persona without it is written', async () => {
    const dir = join(tmp, 'chain');
    writeMemoryChain(dir);
    const bench = await loadBenchmark(dir);
    const f = (run: string | null, stepId: number | null, field: string) => ({
      run,
      platform: 'weibo' as const,
      userId: 'we_a',
      stepId,
      field,
      category: 'PHONE' as const,
      text: '13800138000',
      key: `${run}/${field}`,
    });
    // we_a: the value in step 2's post and in the personas of steps 2 and 3; step 4 failed (no persona), so step 5
    // still receives step 3's; step 5 writes a persona without it, so step 6 does not receive it.
    const [chain] = piChains(bench, [
      f(null, 2, 'prediction_tasks[1].posts_text'),
      f('m', 2, 'steps[1].persona_summary'),
      f('m', 3, 'steps[2].persona_summary'),
    ]);
    expect(chain).toMatchObject({ enteredAt: 2, source: 'post', sourceStep: 2, written: [2, 3], received: [3, 4, 5] });
    expect(chainText(chain)).toBe('entered at step 2 from a post of step 2, carried to steps 3–5');
    expect(chainCounts([chain])).toEqual({ m: { values: 1, steps: 4 } });
  });

  it('compares values whatever their spacing, and writes step ranges', () => {
    expect(valueKey('PHONE', '138 0013 8000')).toBe(valueKey('PHONE', '13800138000'));
    expect(valueKey('PHONE', '13800138001')).not.toBe(valueKey('PHONE', '13800138000'));
    expect(stepRanges([3, 4, 5, 7, 9, 10])).toBe('3–5, 7, 9–10');
  });
});
