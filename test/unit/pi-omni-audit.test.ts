import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import { findingKey } from '../../src/core/pi/tally';
import {
  auditOmni,
  findingTraceTarget,
  recordTexts,
  testActionFor,
  type OmniAuditFinding,
} from '../../src/core/omni/piAudit';
import { hasPlaceholder } from '../../src/core/pi/placeholders';
import { buildReport, formatTextReport, renderMarkdown } from '../../src/core/pi/report';
import { VerdictStore } from '../../src/core/pi/verdicts';
import { rawText } from './omni-folder';
import { folder, u1 } from './pi-omni-fixture';
import { BROKEN_OMNI_SAMPLE, OMNI_SAMPLE } from '../support/committedSample';

/** The 1-based line of the first occurrence of `needle` in the file at or after line `from`: an oracle independent of the audit. */
const lineIn = (root: string, file: string, needle: string, from = 1) => {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const i = lines.findIndex((l, n) => n + 1 >= from && l.includes(JSON.stringify(needle).slice(1, -1)));
  if (i < 0) throw new Error(`${needle} not in ${file}`);
  return i + 1;
};

const brief = (f: OmniAuditFinding) => [
  f.category,
  f.text,
  f.file,
  f.field,
  f.part,
  f.userId,
  f.run,
  f.recordIndex,
  f.testAction,
  f.historyIndex,
];

describe('auditOmni', async () => {
  const root = folder();
  const bench = await loadOmniBenchmark(root);
  const audit = await auditOmni(bench);

  it('finds each planted value with its file, JSON path, part, run, test action and history item', () => {
    expect(audit.findings.map(brief)).toEqual([
      ['EMAIL', 'huamao.studio@example.com', 'raw/u1.json', 'user_profile', 'profile', 'u1', null, null, 7, null],
      ['PHONE', '13800138000', 'raw/u1.json', 'action_history[0].context.caption', 'context', 'u1', null, 0, 7, 0],
      ['IP', '203.0.113.57', 'raw/u1.json', 'action_history[1].context.asr', 'ocr-asr', 'u1', null, 1, 7, 1],
      ['ID', '110105198805122136', 'raw/u1.json', 'action_history[2].context.ocr_text', 'ocr-asr', 'u1', null, 2, 7, 2],
      ['PLATE', '沪AD12345', 'raw/u1.json', 'action_history[3].context.live_title', 'context', 'u1', null, 3, 7, 3],
      [
        'BANK',
        '6222 0202 0012 3456 788',
        'raw/u1.json',
        'action_history[4].context.item_desc',
        'context',
        'u1',
        null,
        4,
        7,
        4,
      ],
      ['PHONE', '13800138000', 'raw/u1.json', 'action_history[5].action[0].keyword', 'search', 'u1', null, 5, 7, 5],
      [
        'EMAIL',
        'lin.wei@example.com',
        'raw/u1.json',
        'action_history[6].action[0].content[0].text',
        'dialogue',
        'u1',
        null,
        6,
        7,
        6,
      ],
      ['PLATE', '京A·3M7Q2', 'raw/u1.json', 'action_history[8].context.asr', 'ocr-asr', 'u1', null, 8, 9, 8],
      [
        'PHONE',
        '13912345678',
        'raw/u1.json',
        'action_history[10].context.caption',
        'context',
        'u1',
        null,
        10,
        null,
        null,
      ],
      [
        'PHONE',
        '13912345678',
        'raw/u2.json',
        'action_history[1].action[0].content[1].text',
        'dialogue',
        'u2',
        null,
        1,
        2,
        1,
      ],
      [
        'PHONE',
        '13800138000',
        'results/sim/predictions.jsonl',
        'questions[0].raw_output',
        'prediction',
        'u1',
        'sim',
        null,
        7,
        null,
      ],
    ]);
  });

  it('locates each finding at the line of its text and the span of its value', () => {
    for (const f of audit.findings) {
      const from = f.recordIndex === null ? 1 : (bench.users.get(f.userId)?.index.lines[f.recordIndex] ?? 1);
      expect(f.line, `${f.file} ${f.field}`).toBe(lineIn(root, f.file, f.text, from));
      expect(f.key).toBe(findingKey(f));
      expect(f.stepId).toBe(f.testAction);
      expect(f.platform).toBe('omnibehavior');
    }
    const caption = audit.findings[1];
    expect('联系电话 13800138000 home cooking'.slice(caption.start, caption.end)).toBe('13800138000');
    // Pretty-printed: the dialogue turn sits several lines below the record's first line.
    const turn = audit.findings[10];
    expect(turn.line).toBeGreaterThan(bench.users.get('u2')?.index.lines[1] ?? Infinity);
  });

  it('never reports a placeholder, a count, a timestamp, an order number or a version string', () => {
    for (const f of audit.findings) expect(hasPlaceholder(f.text)).toBe(false);
    expect(audit.findings.some((f) => f.field.includes('play_cnt') || f.field.includes('upload_timestamp'))).toBe(
      false,
    );
    expect(audit.findings.some((f) => f.recordIndex === 1 && f.field.endsWith('caption'))).toBe(false);
    expect(audit.findings.some((f) => f.recordIndex === 2 && f.field.endsWith('caption'))).toBe(false);
  });

  it('counts placeholders and findings per source, part and category', () => {
    const row = (source: string, part: string, category: string) =>
      audit.counts.find((r) => r.source === source && r.part === part && r.category === category);
    expect(row('raw', 'ocr-asr', 'PHONE')).toMatchObject({ placeholders: 1, findings: 0 });
    expect(row('raw', 'context', 'EMAIL')).toMatchObject({ placeholders: 1, findings: 0 });
    expect(row('raw', 'dialogue', 'CONTACT')).toMatchObject({ placeholders: 1, findings: 0 });
    expect(row('raw', 'dialogue', 'EMAIL')).toMatchObject({ placeholders: 0, findings: 1 });
    expect(row('raw', 'context', 'PHONE')).toMatchObject({ placeholders: 0, findings: 2 });
    expect(row('sim', 'prediction', 'PHONE')).toMatchObject({ placeholders: 1, findings: 1 });
    expect(audit.counts.reduce((s, r) => s + r.findings, 0)).toBe(audit.findings.length);
    expect(audit.scanned.files).toBe(3);
    expect(audit.problems).toEqual([]);
    expect(audit.cancelled).toBe(false);
  });

  it('only the chosen runs, and a minimum confidence', async () => {
    const none = await auditOmni(bench, { runs: [] });
    expect(none.findings.filter((f) => f.run !== null)).toEqual([]);
    expect(none.scanned.files).toBe(2);
    const high = await auditOmni(bench, { minConfidence: 'high' });
    expect(high.findings.every((f) => f.confidence === 'high')).toBe(true);
    expect(high.findings.some((f) => f.field === 'action_history[5].action[0].keyword')).toBe(false);
  });

  it('feeds the same report and verdict store as StreamProfileBench', () => {
    const store = VerdictStore.open(':memory:');
    const leak = audit.findings[7];
    store.record({
      benchmark: audit.benchmark,
      target: leak,
      verdict: 'confirmed-leak',
      author: 'ann',
      createdAt: '2025-01-01T00:00:00Z',
    });
    const report = buildReport(audit, { trail: store.trail(), generatedAt: 'now' });
    store.close();
    expect(report.benchmarkFormat).toBe('omnibehavior');
    expect(report.confirmedLeaks.map((f) => [f.key, f.testAction, f.historyIndex])).toEqual([[leak.key, 7, 6]]);
    expect(report.byVerdict).toMatchObject({ 'confirmed-leak': 1, none: audit.findings.length - 1 });
    const md = renderMarkdown(report);
    expect(md).toContain('## Counts per source and part');
    expect(md).toContain('| run sim · prediction |');
    expect(md).toContain('`u1 #7`');
    expect(formatTextReport(report)).toContain(
      'raw/u1.json:' +
        leak.line +
        ' action_history[6].action[0].content[0].text [EMAIL/high] lin.wei@example.com (confirmed-leak)',
    );
  });
});

describe('auditOmni on damaged files', () => {
  it('scans the records before a broken tail, and reports unreadable prediction lines', async () => {
    const root = folder();
    const text = rawText(u1);
    // Cut the file inside record 2: records 0 and 1 are still scanned, one by one.
    writeFileSync(join(root, 'raw/u1.json'), text.slice(0, text.indexOf('"Advertisement"') + 20));
    appendFileSync(join(root, 'results/sim/predictions.jsonl'), '{"user_id": "u1", "index": 9, "questions": [\n');
    const bench = await loadOmniBenchmark(root);
    const audit = await auditOmni(bench, { runs: ['sim'] });
    expect(audit.findings.filter((f) => f.file === 'raw/u1.json').map((f) => f.field)).toEqual([
      'user_profile',
      'action_history[0].context.caption',
      'action_history[1].context.asr',
    ]);
    expect(audit.problems).toEqual([expect.stringMatching(/^results\/sim\/predictions\.jsonl:4: invalid JSON/)]);
  });

  it('stops when cancelled and says so', async () => {
    const bench = await loadOmniBenchmark(folder());
    const ctl = new AbortController();
    ctl.abort();
    const audit = await auditOmni(bench, { signal: ctl.signal });
    expect(audit.cancelled).toBe(true);
    expect(audit.findings).toEqual([]);
  });
});

describe('parts and test actions', () => {
  it('recordTexts assigns each string to its part and skips counts and flags', () => {
    const texts = recordTexts({
      context: {
        caption: 'a',
        ocr: 'b',
        asr_text: 'c',
        like_cnt: '12',
        is_shop_live: '1',
        upload_timestamp: 't',
        tags: ['d'],
      },
      action: [
        { type: 'search', keyword: 'e' },
        { type: 'dialogue', content: [{ role: 'user', text: 'f' }] },
        { type: 'comment', comment_text: 'g', comment_cnt: '3' },
      ],
    });
    expect(texts.map((t) => [t.rel, t.part, t.value])).toEqual([
      ['context.caption', 'context', 'a'],
      ['context.ocr', 'ocr-asr', 'b'],
      ['context.asr_text', 'ocr-asr', 'c'],
      ['context.tags[0]', 'context', 'd'],
      ['action[0].keyword', 'search', 'e'],
      ['action[1].content[0].text', 'dialogue', 'f'],
      ['action[2].comment_text', 'action', 'g'],
    ]);
  });

  it('findingTraceTarget: the history item inside its test action, the test action itself, or nothing', () => {
    expect(findingTraceTarget({ userId: 'u', testAction: 7, historyIndex: 3 })).toEqual({
      userId: 'u',
      index: 7,
      target: { kind: 'history', historyIndex: 3 },
    });
    expect(findingTraceTarget({ userId: 'u', testAction: 7, historyIndex: null })).toEqual({
      userId: 'u',
      index: 7,
      target: { kind: 'action' },
    });
    expect(findingTraceTarget({ userId: 'u', testAction: null, historyIndex: null })).toBeNull();
  });

  it('testActionFor picks the first test action at or after a record', () => {
    const user = { testActions: [{ index: 4 }, { index: 9 }, { index: 12 }] as never[] };
    expect([0, 4, 5, 9, 12, 13].map((k) => testActionFor(user, k))).toEqual([4, 4, 9, 9, 12, null]);
  });
});

describe('auditOmni of sample/omnibehavior', () => {
  it.each([
    ['sample/omnibehavior', OMNI_SAMPLE, 0],
    ['sample/broken/omnibehavior', BROKEN_OMNI_SAMPLE, 1],
  ])('%s: reads every user file and run, skipping only the lines cut short (%i)', async (_name, folder, cutLines) => {
    const bench = await loadOmniBenchmark(folder);
    const audit = await auditOmni(bench);
    expect(audit.scanned.files).toBe(bench.users.size + bench.runs.size);
    expect(audit.scanned.texts).toBeGreaterThan(bench.users.size * 100);
    const cut = bench.diagnostics.filter((d) => d.file.endsWith('predictions.jsonl') && /invalid JSON/.test(d.message));
    expect(cut).toHaveLength(cutLines);
    expect(audit.problems).toEqual(cut.map((d) => expect.stringContaining(`${d.file}:${d.line}: invalid JSON`)));
    for (const f of audit.findings) expect(hasPlaceholder(f.text)).toBe(false);
    expect(audit.counts.reduce((s, r) => s + r.findings, 0)).toBe(audit.findings.length);
  });
});
