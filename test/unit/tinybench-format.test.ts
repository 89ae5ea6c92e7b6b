// A third format, registered by one line, is served by the CLI's score, validate, labels and audit and by the demo
// endpoint through the registry, with no edit to the CLI or the core (test/fixtures/tinybench/ is the whole format).
import { appendFileSync, cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runAuditCommand } from '../../src/cli/audit';
import { runCommand, type CliOptions } from '../../src/cli/commands';
import { runLabelsCommand, type CliIo } from '../../src/cli/labels';
import { detectFormat, detectFormats, formatById, FORMATS, registerFormat } from '../../src/core/formats';
import { labelFreshness } from '../../src/core/labels/freshness';
import { LabelStore } from '../../src/core/labels/store';
import { benchmarkId } from '../../src/core/labels/model';
import { TINY_PLATFORM, TINY_SAMPLE, tinyBench, tinyItemHash } from '../fixtures/tinybench/format';
import { tinyAccuracyTable, tinyAnswer, tinyPrompt } from '../fixtures/tinybench/parts';
import { startDemoServer } from '../../src/core/demo/server';
import { DEMO_MODEL_ID } from '../../src/core/demo/model';
import { labelRow } from './labelStore-fixture';
import { OMNI_SAMPLE, SAMPLE } from '../support/committedSample';
import { generatePersonaMem } from '../../scripts/gen-personamem/generate.mjs';

// The registration line: the only place the fixture format is named outside its own folder.
registerFormat(tinyBench);

async function cli(command: string, args: string[], opts: CliOptions = {}) {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((t) => out.push(String(t)) > 0);
  vi.spyOn(process.stderr, 'write').mockImplementation((t) => err.push(String(t)) > 0);
  try {
    const code = await runCommand(command, args, opts);
    return { code, out: out.join(''), err: err.join('') };
  } finally {
    vi.restoreAllMocks();
  }
}

function copy(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'pl-tiny-')), 'tiny');
  cpSync(TINY_SAMPLE, dir, { recursive: true });
  return dir;
}

afterEach(() => vi.restoreAllMocks());

describe('the registry with a registered third format', () => {
  it('lists it after the built-in formats and detects it on its files only', () => {
    expect(FORMATS.map((f) => f.id)).toEqual(['streamprofilebench', 'omnibehavior', 'personamem', 'tinybench']);
    expect(detectFormat(TINY_SAMPLE)).toBe(tinyBench);
    expect(detectFormat(join(TINY_SAMPLE, 'items.tinybench.jsonl'))).toBe(tinyBench);
    expect(detectFormats(SAMPLE).map((f) => f.id)).toEqual(['streamprofilebench', 'omnibehavior', 'personamem']);
    expect(tinyBench.capabilities).toEqual(['rerun', 'audit', 'labels']);
    expect(tinyBench.labelTargets).toEqual(['step']);
  });

  it('refuses another format under a taken id, and accepts the same one again', () => {
    expect(FORMATS).toContain(tinyBench);
    expect(() => registerFormat(tinyBench)).not.toThrow();
    expect(() => registerFormat({ ...tinyBench })).toThrow(/already registered/);
    expect(FORMATS.filter((f) => f.id === 'tinybench')).toHaveLength(1);
  });
});

describe('persona-lab on a tinybench folder', () => {
  it('score --json prints the format contract: the keys it declares, one run with two of three right', async () => {
    const r = await cli('score', [TINY_SAMPLE], { json: true });
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual([...tinyBench.scoreContract.keys]);
    expect(json).toEqual({
      format: 'tinybench',
      runs: [{ name: 'guess', items: 3, correct: 2, accuracy: 2 / 3 }],
    });
  });

  it('score prints the text report; an unknown run and --sample are refused, --write-reports is left out', async () => {
    expect((await cli('score', [TINY_SAMPLE])).out).toBe('guess: 2 of 3 right\n');
    await expect(cli('score', [TINY_SAMPLE], { run: ['nope'] })).rejects.toThrow(/no run "nope"/);
    await expect(runCommand('score', [TINY_SAMPLE], { sample: 'x' })).rejects.toThrow(/score --sample/);
    expect((await cli('score', [TINY_SAMPLE], { 'write-reports': true })).out).toBe('guess: 2 of 3 right\n');
  });

  it('validate counts users and items, and reports a broken line with exit 1', async () => {
    const clean = await cli('validate', [TINY_SAMPLE], { json: true });
    expect(clean.code).toBe(0);
    expect(JSON.parse(clean.out)).toEqual({ format: 'tinybench', users: 2, items: 3, diagnostics: [] });
    const dir = copy();
    appendFileSync(join(dir, 'items.tinybench.jsonl'), 'not json\n');
    const broken = await cli('validate', [dir]);
    expect(broken.code).toBe(1);
    expect(broken.out).toContain('items.tinybench.jsonl:4');
    expect(broken.out).toContain('2 users, 3 items, 1 runs; 1 error(s), 0 warning(s)');
  });

  it('labels summary counts fresh, stale, unknown and missing labels through the format', async () => {
    const dir = copy();
    mkdirSync(join(dir, '.personalab'));
    const store = LabelStore.open(join(dir, '.personalab', 'labels.db'));
    const key = { benchmark: benchmarkId(dir), platform: TINY_PLATFORM, run: '', author: 'a', label: 'x' };
    const ann1 = { user: 'ann', item: 1, text: 'likes cats', truth: 'yes' };
    store.add({ ...key, userId: 'ann', stepId: 1, target: { kind: 'step' }, contentHash: tinyItemHash(ann1) });
    store.add({ ...key, userId: 'ann', stepId: 2, target: { kind: 'step' }, contentHash: 'f'.repeat(64) });
    store.add({ ...key, userId: 'bob', stepId: 1, target: { kind: 'step' } });
    store.add({ ...key, userId: 'eve', stepId: 1, target: { kind: 'step' }, contentHash: 'f'.repeat(64) });
    store.close();
    const out: string[] = [];
    const io: CliIo = { write: (t) => out.push(t), out: (t) => out.push(t), err: (t) => out.push(t) };
    expect(await runLabelsCommand(['summary', dir], { json: true }, io)).toBe(0);
    const summary = JSON.parse(out.join('')) as { total: number; freshness: Record<string, number> };
    expect(summary.total).toBe(4);
    expect(summary.freshness).toEqual({ fresh: 1, stale: 1, unknown: 1, missing: 1 });
  });

  it('labelFreshness reads through the loaded format', async () => {
    const { opened } = await tinyBench.load(TINY_SAMPLE);
    const row = labelRow({
      benchmark: 'bench',
      platform: TINY_PLATFORM,
      userId: 'bob',
      run: '',
      author: 'a',
      label: 'x',
      createdAt: '',
      contentHash: tinyItemHash({ user: 'bob', item: 1, text: 'plays chess', truth: 'yes' }),
    });
    expect((await labelFreshness(opened, 'bench', [row])).get(row)).toBe('fresh');
  });

  it('audits its items through the descriptor: the planted address, at its file and line', async () => {
    const dir = copy();
    appendFileSync(
      join(dir, 'items.tinybench.jsonl'),
      JSON.stringify({ user: 'bob', item: 2, text: 'mail bob.jones@example.org', truth: 'no' }) + '\n',
    );
    const out: string[] = [];
    const io: CliIo = { write: (t) => out.push(t), out: (t) => out.push(t), err: () => {} };
    // 1: an open finding.
    expect(await runAuditCommand([dir], { json: true }, io)).toBe(1);
    const report = JSON.parse(out.join('')) as { findings: { category: string; file: string; line: number }[] };
    expect(report.findings.map((f) => [f.category, f.file, f.line])).toEqual([['EMAIL', 'items.tinybench.jsonl', 4]]);
    // The fixture as committed holds none: exit 0.
    expect(await runAuditCommand([TINY_SAMPLE], { json: true }, { ...io, out: () => {}, write: () => {} })).toBe(0);
  });
});

describe('each built-in format keeps its score --json contract', () => {
  it.each([
    ['sample', 'streamprofilebench', SAMPLE],
    ['sample/omnibehavior', 'omnibehavior', OMNI_SAMPLE],
  ])('%s prints exactly the keys %s declares', async (_name, id, dir) => {
    const format = FORMATS.find((f) => f.id === id);
    const r = await cli('score', [dir], { json: true });
    expect(Object.keys(JSON.parse(r.out) as object)).toEqual(format?.scoreContract.keys);
  });

  it('a generated PersonaMem folder prints exactly the keys personamem declares', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-pmem-contract-'));
    generatePersonaMem(dir, { seed: 3, models: [{ name: 'm', skill: 0.5, answered: 1 }] });
    const r = await cli('score', [dir], { json: true });
    expect(Object.keys(JSON.parse(r.out) as object)).toEqual(formatById('personamem')?.scoreContract.keys);
  });
});

describe('its re-runs and dashboard pieces', () => {
  it('the demo endpoint answers a tinybench request by the descriptor’s rule, through the registry', async () => {
    const server = await startDemoServer();
    try {
      const ask = async (text: string) => {
        const res = await fetch(`${server.baseURL}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            model: DEMO_MODEL_ID,
            messages: [{ role: 'user', content: tinyPrompt({ user: 'ann', item: 1, text }) }],
          }),
        });
        const body = (await res.json()) as { choices: { message: { content: string } }[] };
        return body.choices[0].message.content;
      };
      expect([await ask('likes cats'), await ask('dislikes rain')]).toEqual(['yes', 'no']);
      expect(tinyAnswer('Yes, it does.')).toBe('yes');
    } finally {
      await server.close();
    }
  });

  it('the dashboard table gives each run’s accuracy and marks the best of several', () => {
    const t = tinyAccuracyTable([
      { name: 'a', items: 3, correct: 2 },
      { name: 'b', items: 3, correct: 1 },
    ]);
    expect(t.rows.map((r) => [r.run, r.cells[0].text, r.cells[0].rank])).toEqual([
      ['a', '66.67', 1],
      ['b', '33.33', 0],
    ]);
  });
});
