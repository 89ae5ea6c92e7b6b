import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAuditCommand, type AuditCliOptions } from '../../src/cli/audit';
import type { CliIo } from '../../src/cli/labels';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { auditBenchmark } from '../../src/core/spb/pi/audit';
import type { StepAuditReport } from '../../src/core/spb/pi/audit';
import { VerdictStore } from '../../src/core/pi/verdicts';
import { SAMPLE } from '../support/committedSample';

const dir = mkdtempSync(join(tmpdir(), 'pl-pi-cli-'));

async function cli(args: string[], opts: AuditCliOptions = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { write: (t) => out.push(t), out: (t) => out.push(t + '\n'), err: (t) => err.push(t + '\n') };
  const code = await runAuditCommand(args, opts, io);
  return { code, out: out.join(''), err: err.join('') };
}

describe('persona-lab audit', () => {
  it('prints counts per platform and every finding as file:line field [category/confidence] text', async () => {
    const r = await cli([SAMPLE]);
    expect(r.code).toBe(1); // findings remain
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^sample: 7 finding\(s\)/);
    expect(r.out).toContain('tasks · weibo');
    expect(r.out).toContain(
      'data/weibo_inference_tasks.jsonl:4 prediction_tasks[1].posts_text [PHONE/high] 13800138000\n',
    );
    expect(r.out).toContain(
      'data/douban_inference_tasks.jsonl:3 prediction_tasks[0].posts_text [PLATE/high] 京A·3M7Q2\n',
    );
  });

  it('prints the JSON report and writes Markdown and JSON report files', async () => {
    const md = join(dir, 'report.md');
    const r = await cli([SAMPLE], { json: true, out: md });
    const report = JSON.parse(r.out) as StepAuditReport;
    expect(report.format).toBe('persona-lab-pi-audit');
    expect(report.findings).toHaveLength(7);
    expect(report.totals.placeholders.SELF).toBeGreaterThan(0);
    expect(r.err).toContain(`wrote ${md}`);
    const text = readFileSync(md, 'utf8');
    expect(text).toMatch(/^# PI audit: sample/);
    expect(text).toContain('## Confirmed leaks (0)');
    const json = join(dir, 'report.json');
    await cli([SAMPLE], { out: json, 'min-confidence': 'high', run: ['demo-llm'] });
    expect((JSON.parse(readFileSync(json, 'utf8')) as StepAuditReport).findings.length).toBe(7);
  });

  it('adds verdicts from --db: confirmed leaks, the trail, and exit 0 once all are false positives', async () => {
    const db = join(dir, 'verdicts.db');
    const bench = await loadBenchmark(SAMPLE, { runs: [] });
    const audit = await auditBenchmark(bench, { runs: [] });
    const store = VerdictStore.open(db);
    try {
      const [phone, ...rest] = audit.findings;
      store.record({
        benchmark: 'sample',
        target: phone,
        verdict: 'needs-review',
        author: 'alice',
        createdAt: '2025-01-01T00:00:00Z',
      });
      store.record({
        benchmark: 'sample',
        target: phone,
        verdict: 'confirmed-leak',
        author: 'bob',
        note: 'planted',
        createdAt: '2025-01-02T00:00:00Z',
      });
      for (const f of rest)
        store.record({ benchmark: 'sample', target: f, verdict: 'false-positive', author: 'alice' });
    } finally {
      store.close();
    }
    const out = join(dir, 'with-verdicts.md');
    const r = await cli([SAMPLE], { db, out });
    expect(r.code).toBe(1);
    expect(r.out).toContain('[PHONE/high] 13800138000 (confirmed-leak)');
    const md = readFileSync(out, 'utf8');
    expect(md).toContain('## Confirmed leaks (1)');
    expect(md).toContain(
      '| `data/weibo_inference_tasks.jsonl:4` | `prediction_tasks[1].posts_text` | PHONE | 13800138000 | bob |',
    );
    expect(md).toContain('## Verdict trail (8)');
    expect(md).toContain('| 2025-01-01T00:00:00Z | alice | needs-review |');

    const s2 = VerdictStore.open(db);
    try {
      s2.record({ benchmark: 'sample', target: audit.findings[0], verdict: 'false-positive', author: 'carol' });
    } finally {
      s2.close();
    }
    expect((await cli([SAMPLE], { db, run: [] })).code).toBe(0);
  });

  it('answers usage errors with 2 and unreadable input with 1, without throwing', async () => {
    expect((await cli([])).code).toBe(2);
    expect((await cli([SAMPLE, 'extra'])).code).toBe(2);
    expect((await cli([SAMPLE], { 'min-confidence': 'very' })).code).toBe(2);
    const missing = await cli([join(dir, 'nope')]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^persona-lab: /);
    const noDb = await cli([SAMPLE], { db: join(dir, 'absent.db') });
    expect(noDb.code).toBe(1);
    expect(existsSync(join(dir, 'absent.db'))).toBe(false);
    expect((await cli([SAMPLE], { run: ['no-such-run'] })).code).toBe(1);
  });
});
