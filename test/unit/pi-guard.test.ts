// The re-run guard's pure logic: when it applies, what the scan finds, what it decides, what masking sends.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/core/spb/format/load';
import {
  decideGuard,
  DEFAULT_GUARD,
  REMOTE_GUARD_MODES,
  guardApplies,
  guardQuestion,
  maskingTransport,
  maskOutgoing,
  parseGuardSettings,
  scanOutgoing,
  scanOutgoingAsync,
  type GuardSettings,
} from '../../src/core/pi/guard';
import type { ChatTransport, TransportResult } from '../../src/core/runner/client';
import { plannedPrompts } from '../../src/core/spb/run/preflight';
import { renderStepRequest } from '../../src/core/spb/run/step';
import { DEFAULT_TEMPLATE } from '../../src/core/spb/prompt/prompt';
import { SAMPLE } from '../support/committedSample';

const PHONE = '13800138000';
const ask: GuardSettings = { mode: 'ask', guardLoopback: false };
const clean = {
  label: 'a',
  system: 'You are a profiler.',
  prompt: 'Posts: <PHONE> 今天天气不错 v1.2.3 2024-05-01 ￥199',
};
const dirty = { label: 'b', system: 'sys', prompt: `Posts: call me at ${PHONE} or mail li.lei@example.com` };

describe('guard settings', () => {
  it('falls back to ask / false for anything unknown', () => {
    expect(parseGuardSettings(undefined, undefined)).toEqual({ mode: 'ask', guardLoopback: false });
    expect(parseGuardSettings('nonsense', 'true')).toEqual({ mode: 'ask', guardLoopback: false });
    expect(parseGuardSettings('mask', true)).toEqual({ mode: 'mask', guardLoopback: true });
    expect(parseGuardSettings('off', false)).toEqual({ mode: 'off', guardLoopback: false });
  });

  it('applies to remote endpoints; loopback only with guardLoopback; never when off', () => {
    expect(guardApplies('https://api.example.com/v1', ask)).toBe(true);
    expect(guardApplies('http://10.0.0.5:8000/v1', ask)).toBe(true);
    expect(guardApplies('http://127.0.0.1:8000/v1', ask)).toBe(false);
    expect(guardApplies('http://localhost:11434/v1', ask)).toBe(false);
    expect(guardApplies('http://[::1]:8000/v1', ask)).toBe(false);
    expect(guardApplies('http://127.0.0.1:8000/v1', { ...ask, guardLoopback: true })).toBe(true);
    expect(guardApplies('https://api.example.com/v1', { mode: 'off', guardLoopback: true })).toBe(false);
    // Unparseable: not known to be loopback, so guarded.
    expect(guardApplies('not a url', ask)).toBe(true);
  });
});

describe('the settings in package.json', () => {
  it('declares both with the core defaults, and an untrusted workspace cannot set them', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8'));
    const props = manifest.contributes.configuration.properties;
    expect(props['personaLab.privacy.remoteGuard']).toMatchObject({
      type: 'string',
      enum: [...REMOTE_GUARD_MODES],
      default: DEFAULT_GUARD.mode,
    });
    expect(props['personaLab.privacy.guardLoopback']).toMatchObject({
      type: 'boolean',
      default: DEFAULT_GUARD.guardLoopback,
    });
    expect(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations).toEqual(
      expect.arrayContaining(['personaLab.privacy.remoteGuard', 'personaLab.privacy.guardLoopback']),
    );
  });
});

describe('scan and decision', () => {
  it('finds nothing in a clean prompt (placeholders, dates, prices, versions) and sends it', () => {
    const scan = scanOutgoing([clean]);
    expect(scan).toMatchObject({ prompts: 1, affected: 0, findings: [] });
    expect(decideGuard(ask, scan)).toBe('send');
  });

  it('lists each finding with category, text and where; asks in "ask", masks in "mask"', () => {
    const scan = scanOutgoing([clean, dirty, { label: 'c', system: `reach ${PHONE}`, prompt: 'ok' }]);
    expect(scan.prompts).toBe(3);
    expect(scan.affected).toBe(2);
    expect(scan.findings.map((f) => [f.label, f.part, f.category, f.text])).toEqual([
      ['b', 'prompt', 'PHONE', PHONE],
      ['b', 'prompt', 'EMAIL', 'li.lei@example.com'],
      ['c', 'system', 'PHONE', PHONE],
    ]);
    expect(scan.byCategory).toEqual({ PHONE: 2, EMAIL: 1 });
    expect(decideGuard(ask, scan)).toBe('ask');
    expect(decideGuard({ mode: 'mask', guardLoopback: false }, scan)).toBe('mask');
    expect(decideGuard({ mode: 'off', guardLoopback: false }, scan)).toBe('send');
  });

  it('words the question with counts and the findings, and caps the list', () => {
    const one = guardQuestion(scanOutgoing([dirty]), 'm at api.example.com');
    expect(one.message).toBe(
      'The prompt to m at api.example.com holds 2 unredacted PI findings (PHONE ×1, EMAIL ×1). Send them?',
    );
    expect(one.detail).toContain(`PHONE (high) "${PHONE}" in the prompt of b`);
    const many = guardQuestion(
      scanOutgoing(Array.from({ length: 5 }, (_, i) => ({ ...dirty, label: `s${i}` }))),
      'x',
      3,
    );
    expect(many.message).toMatch(/^5 of 5 prompts to x hold 10 unredacted PI findings/);
    expect(many.detail).toContain('… and 7 more');
    expect(many.detail.split('\n').filter((l) => l.includes('" in the prompt of'))).toHaveLength(3);
  });
});

describe('scanOutgoingAsync', () => {
  it('gives the same scan as scanOutgoing, in slices with progress', async () => {
    const prompts = Array.from({ length: 7 }, (_, i) =>
      i % 3 === 1 ? { ...dirty, label: `p${i}` } : { ...clean, label: `p${i}` },
    );
    const seen: [number, number][] = [];
    const scan = await scanOutgoingAsync(prompts, { slice: 3, onProgress: (done, total) => seen.push([done, total]) });
    expect(scan).toEqual(scanOutgoing(prompts));
    expect(seen).toEqual([
      [3, 7],
      [6, 7],
      [7, 7],
    ]);
  });

  it('resolves to null when aborted between slices', async () => {
    const ctl = new AbortController();
    const prompts = Array.from({ length: 6 }, (_, i) => ({ ...dirty, label: `p${i}` }));
    const scan = await scanOutgoingAsync(prompts, {
      slice: 2,
      signal: ctl.signal,
      onProgress: (done) => done === 2 && ctl.abort(),
    });
    expect(scan).toBeNull();
  });
});

describe('masking', () => {
  it('replaces each finding with its placeholder and keeps the rest', () => {
    const m = maskOutgoing({ ...dirty, system: `sys ${PHONE}` });
    expect(m.prompt).toBe('Posts: call me at <PHONE> or mail <EMAIL>');
    expect(m.system).toBe('sys <PHONE>');
    expect(m.label).toBe('b');
    expect(maskOutgoing(clean)).toEqual(clean);
  });

  it('a masking transport hands the inner one masked text only', async () => {
    const seen: [string, string][] = [];
    const ok: TransportResult = {
      ok: true,
      raw: '{}',
      error: '',
      transient: false,
      aborted: false,
      latencyMs: 0,
      usage: null,
    };
    const inner: ChatTransport = async (system, prompt) => {
      seen.push([system, prompt]);
      return ok;
    };
    await maskingTransport(inner)(`s ${PHONE}`, dirty.prompt);
    expect(seen).toEqual([['s <PHONE>', 'Posts: call me at <PHONE> or mail <EMAIL>']]);
    expect(JSON.stringify(seen)).not.toContain(PHONE);
  });
});

describe('prompts of the sample', () => {
  it('the planted phone of we_b5ce11fb65 step 2 is in its rendered prompt, and masking removes it', async () => {
    const bench = await loadBenchmark(SAMPLE);
    const user = bench.users.get('weibo')!.get('we_b5ce11fb65')!;
    const step = user.steps.find((s) => s.stepId === 2)!;
    const req = { label: 'x', ...renderStepRequest({ user, step, personaIn: null, template: DEFAULT_TEMPLATE }) };
    const scan = scanOutgoing([req]);
    expect(scan.findings.map((f) => [f.category, f.text])).toContainEqual(['PHONE', PHONE]);
    const masked = maskOutgoing(req);
    expect(masked.prompt).not.toContain(PHONE);
    expect(masked.prompt).toContain('<PHONE>');
    expect(scanOutgoing([masked]).findings).toEqual([]);
  });

  it('plans every prompt of a selection: a chain from step 2, a platform', async () => {
    const bench = await loadBenchmark(SAMPLE);
    const chain = plannedPrompts(bench, {
      template: DEFAULT_TEMPLATE,
      platforms: ['weibo'],
      userId: 'we_b5ce11fb65',
      fromStep: 2,
      startPersona: { kind: 'text', text: `call ${PHONE}` },
    });
    expect(chain.map((p) => p.label)).toEqual(['weibo/we_b5ce11fb65 step 2', 'weibo/we_b5ce11fb65 step 3']);
    // The start persona goes into the first prompt of the chain only.
    expect(chain[0].prompt.split(PHONE).length - 1).toBe(2);
    const weibo = plannedPrompts(bench, { template: DEFAULT_TEMPLATE, platforms: ['weibo'] });
    const steps = [...bench.users.get('weibo')!.values()].reduce((n, u) => n + u.steps.length, 0);
    expect(weibo).toHaveLength(steps);
    const scan = scanOutgoing(weibo);
    expect(scan.findings.some((f) => f.label === 'weibo/we_b5ce11fb65 step 2' && f.text === PHONE)).toBe(true);
  });
});

describe('what a masked attempt says', () => {
  it('counts what masking replaces per category, and the attempt reads it back from its meta', async () => {
    const { maskedCounts, maskedText } = await import('../../src/core/pi/guard');
    const { readRerunMeta } = await import('../../src/core/spb/rerun/attemptCompare');
    const counts = maskedCounts({ system: 'sys', prompt: 'call 13812345678 or 13987654321 today' });
    expect(counts).toEqual({ PHONE: 2 });
    expect(maskedText(counts)).toBe('masked 2 PHONE');
    expect(maskedText({})).toBe('');
    const meta = { kind: 'rerun', personaMode: 'none', baseRun: null, templateName: 't', masked: counts };
    expect(readRerunMeta(meta)?.masked).toEqual({ PHONE: 2 });
    expect(readRerunMeta({ ...meta, masked: { PHONE: -1 } })?.masked).toBeUndefined();
  });
});
