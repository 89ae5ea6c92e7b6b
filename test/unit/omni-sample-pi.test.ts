// The residual PI planted in sample/omnibehavior (scripts/gen-omni-sample/pi.mjs): the audit finds exactly what
// pi-manifest.json lists, where it says, and nothing else; placeholders and near misses are never findings.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import { auditOmni, findingTraceTarget, type OmniAuditFinding } from '../../src/core/omni/piAudit';
import { hasPlaceholder, type PiCategory } from '../../src/core/pi/placeholders';
import type { Confidence } from '../../src/core/pi/types';
import { OMNI_SAMPLE } from '../support/committedSample';

const ROOT = OMNI_SAMPLE;

interface Where {
  value: string;
  file: string;
  line: number;
  field: string;
  userId: string;
  recordIndex: number | null;
}
interface Planted extends Where {
  category: PiCategory;
  confidence: Confidence;
  text: string;
  testAction: number;
}
interface PiManifest {
  planted: Planted[];
  placeholders: (Where & { category: PiCategory })[];
  nearMisses: (Where & { looksLike: PiCategory })[];
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'pi-manifest.json'), 'utf8')) as PiManifest;
const at = (x: Pick<Where, 'file' | 'field'>) => `${x.file} ${x.field}`;
const row = (x: {
  category: PiCategory;
  confidence: Confidence;
  file: string;
  line: number;
  field: string;
  text: string;
}) => [x.category, x.confidence, x.file, x.line, x.field, x.text].join(' | ');

describe('sample/omnibehavior/pi-manifest.json', () => {
  it('plants what the sample promises: who, where and how sure', () => {
    expect(manifest.planted.map((e) => [e.userId, e.category, e.confidence, e.value])).toEqual([
      ['u_1001', 'PHONE', 'high', '联系电话 13800138000'],
      ['u_1002', 'PLATE', 'high', '沪AD12345 挪车'],
      ['u_1003', 'ID', 'high', '身份证 110105198805122136'],
      ['u_1004', 'EMAIL', 'high', 'my email is lin.wei@example.com'],
      ['u_1005', 'PHONE', 'medium', '13912345678'],
      ['u_1006', 'BANK', 'high', '卡号 6222 0202 0012 3456 788'],
      ['u_1001', 'PHONE', 'high', 'I cannot determine this. Call 13912345678.'],
    ]);
    expect(manifest.planted.map((e) => e.field.replace(/\[\d+\]/, '[k]'))).toEqual([
      'action_history[k].context.caption',
      'action_history[k].context.live_cover_content',
      'action_history[k].context.ocr_text',
      'action_history[k].action[0].content[2].content',
      'action_history[k].action[0].keyword',
      'action_history[k].context.item_desc',
      'questions[k].raw_output',
    ]);
    expect(manifest.placeholders.map((e) => e.value)).toEqual(['<PHONE> call me', 'ok <CONTACT>']);
    expect(manifest.nearMisses.map((e) => e.value)).toEqual(['订单号 13800138000', 'version 10.0.0.1']);
  });

  it('each value sits on its line of its file', () => {
    for (const e of [...manifest.planted, ...manifest.placeholders, ...manifest.nearMisses]) {
      const lines = readFileSync(join(ROOT, e.file), 'utf8').split('\n');
      expect(lines[e.line - 1], `${e.file}:${e.line}`).toContain(JSON.stringify(e.value).slice(1, -1));
      if ('text' in e) expect(e.value).toContain(e.text);
    }
  });
});

describe('auditOmni on sample/omnibehavior', async () => {
  const bench = await loadOmniBenchmark(ROOT);
  const audit = await auditOmni(bench);
  const sure = audit.findings.filter((f) => f.confidence !== 'low');

  it('finds exactly every planted string at medium and high confidence: category, confidence, file, line, field, text', () => {
    expect(sure.map(row).sort()).toEqual(manifest.planted.map(row).sort());
  });

  it('each finding opens the test action whose history holds it (a prediction: its own test action)', () => {
    for (const e of manifest.planted) {
      const f = sure.find((x) => at(x) === at(e)) as OmniAuditFinding;
      expect([f.userId, f.recordIndex, f.testAction], at(e)).toEqual([e.userId, e.recordIndex, e.testAction]);
      const target = e.recordIndex === null ? { kind: 'action' } : { kind: 'history', historyIndex: e.recordIndex };
      expect(findingTraceTarget(f)).toEqual({ userId: e.userId, index: e.testAction, target });
      if (e.recordIndex !== null) expect(e.recordIndex).toBeLessThan(e.testAction);
      expect(bench.users.get(e.userId)?.testActions.some((t) => t.index === e.testAction)).toBe(true);
    }
  });

  it('never reports a placeholder or a near miss, at any confidence, and counts the placeholders', () => {
    for (const f of audit.findings) expect(hasPlaceholder(f.text), at(f)).toBe(false);
    const silent = new Set([...manifest.placeholders, ...manifest.nearMisses].map(at));
    expect(audit.findings.filter((f) => silent.has(at(f))).map(at)).toEqual([]);
    const count = (part: string, category: PiCategory) =>
      audit.counts.find((r) => r.source === 'raw' && r.part === part && r.category === category);
    expect(count('ocr-asr', 'PHONE')).toMatchObject({ placeholders: 1 });
    expect(count('dialogue', 'CONTACT')).toMatchObject({ placeholders: 1, findings: 0 });
    expect(audit.counts.reduce((s, r) => s + r.placeholders, 0)).toBe(manifest.placeholders.length);
  });
});
