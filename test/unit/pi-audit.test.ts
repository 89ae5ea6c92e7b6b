import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { auditBenchmark } from '../../src/core/spb/pi/audit';
import { findingKey } from '../../src/core/pi/tally';
import { hasPlaceholder } from '../../src/core/pi/placeholders';
import { buildReport, formatFindingLine, mdCell, redactText, renderMarkdown } from '../../src/core/pi/report';
import { SAMPLE } from '../support/committedSample';

interface Planted {
  category: string;
  text: string;
  file: string;
  line: number;
  userId: string;
  stepId: number | null;
  field: string;
}

const manifest = JSON.parse(readFileSync(join(SAMPLE, 'pi-manifest.json'), 'utf8')) as { planted: Planted[] };

describe('audit of sample/', async () => {
  const bench = await loadBenchmark(SAMPLE);
  const audit = await auditBenchmark(bench);

  it('finds every planted string of the manifest at its category, file, line, user, step and field', () => {
    expect(manifest.planted.length).toBeGreaterThanOrEqual(7);
    for (const p of manifest.planted) {
      const hit = audit.findings.find(
        (f) => f.category === p.category && f.file === p.file && f.line === p.line && f.text === p.text,
      );
      expect(hit, `${p.category} ${p.text}`).toBeDefined();
      expect(hit?.userId).toBe(p.userId);
      expect(hit?.stepId).toBe(p.stepId);
      expect(hit?.run).toBeNull();
      if (p.stepId === null) expect(hit?.field).toBe(p.field);
      else expect(hit?.field).toMatch(new RegExp(`^prediction_tasks\\[\\d+\\]\\.${p.field}$`));
      expect(hit?.confidence).not.toBe('low');
    }
  });

  it('reports nothing else at medium or high confidence, and never a placeholder', () => {
    const planted = new Set(manifest.planted.map((p) => `${p.file}:${p.line}:${p.text}`));
    const extra = audit.findings.filter((f) => f.confidence !== 'low' && !planted.has(`${f.file}:${f.line}:${f.text}`));
    expect(extra).toEqual([]);
    for (const f of audit.findings) expect(hasPlaceholder(f.text)).toBe(false);
  });

  it('counts all ten placeholders and the findings per platform', () => {
    const used = new Set(audit.counts.filter((r) => r.placeholders > 0).map((r) => r.category));
    expect([...used].sort()).toEqual([
      'BANK',
      'CONTACT',
      'DEVICE',
      'EMAIL',
      'GEO',
      'ID',
      'IP',
      'PHONE',
      'PLATE',
      'SELF',
    ]);
    const row = audit.counts.find((r) => r.source === 'tasks' && r.platform === 'douban' && r.category === 'PLATE');
    expect(row?.findings).toBe(1);
    const total = audit.counts.reduce((s, r) => s + r.findings, 0);
    expect(total).toBe(audit.findings.length);
    expect(audit.problems).toEqual([]);
    expect(audit.scanned.files).toBe(
      bench.taskFiles.size + [...bench.runs.values()].reduce((s, r) => s + r.files.size, 0),
    );
  });

  it('gives each finding a stable key', () => {
    const keys = audit.findings.map((f) => f.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const f of audit.findings) expect(f.key).toBe(findingKey(f));
  });
});

describe('audit of results and odd lines', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pl-pi-audit-'));
  mkdirSync(join(dir, 'data'));
  mkdirSync(join(dir, 'results', 'r1'), { recursive: true });
  const tasksLines = readFileSync(join(SAMPLE, 'data/zhihu_inference_tasks.jsonl'), 'utf8').trimEnd().split('\n');
  const first = JSON.parse(tasksLines[0]) as {
    user_id: string;
    username: string;
    prediction_tasks: { step_id: number; candidate_pool: string[] }[];
  };
  // A tag that is in the pool and in meta is reported once, from the pool.
  const task0 = JSON.parse(tasksLines[0]) as Record<string, unknown> & { prediction_tasks: Record<string, unknown>[] };
  const pool = task0.prediction_tasks[0].candidate_pool as string[];
  pool[0] = '#联系13800138000#';
  (task0.prediction_tasks[0].meta as Record<string, string[]>).D_random.push(pool[0]);
  writeFileSync(
    join(dir, 'data/zhihu_inference_tasks.jsonl'),
    [JSON.stringify(task0), 'not json', ...tasksLines.slice(1)].join('\n') + '\n',
  );
  const step = {
    step_id: first.prediction_tasks[0].step_id,
    prediction: ['#a#', 'mail me: someone@example.org'],
    ground_truth: [],
    metrics: null,
    reasoning: '用户的手机号 <PHONE> 已经打码',
    persona_summary: '用户住在北京，服务器地址 203.0.113.9',
  };
  writeFileSync(
    join(dir, 'results/r1/inference_results_zhihu.jsonl'),
    JSON.stringify({ user_id: first.user_id, platform: 'zhihu', username: first.username, steps: [step] }) + '\n',
  );

  it('scans personas, reasoning and predicted tags of runs, pool tags once, and lists unreadable lines', async () => {
    const bench = await loadBenchmark(dir);
    const audit = await auditBenchmark(bench);
    const fromRun = audit.findings.filter((f) => f.run === 'r1');
    expect(fromRun.map((f) => [f.field, f.category, f.text, f.line, f.stepId])).toEqual([
      ['steps[0].persona_summary', 'IP', '203.0.113.9', 1, step.step_id],
      ['steps[0].prediction[1]', 'EMAIL', 'someone@example.org', 1, step.step_id],
    ]);
    const tag = audit.findings.filter((f) => f.text === '13800138000');
    expect(tag.map((f) => f.field)).toEqual(['prediction_tasks[0].candidate_pool[0]']);
    expect(audit.counts.find((r) => r.source === 'r1' && r.category === 'PHONE')).toMatchObject({
      placeholders: 1,
      findings: 0,
    });
    expect(audit.problems).toEqual([expect.stringMatching(/^data\/zhihu_inference_tasks\.jsonl:2: invalid JSON/)]);
    const noRuns = await auditBenchmark(bench, { runs: [] });
    expect(noRuns.findings.some((f) => f.run !== null)).toBe(false);
  });

  it('stops when cancelled and says so', async () => {
    const bench = await loadBenchmark(dir);
    const ctl = new AbortController();
    ctl.abort();
    const audit = await auditBenchmark(bench, { signal: ctl.signal });
    expect(audit.cancelled).toBe(true);
    expect(audit.findings).toEqual([]);
  });
});

describe('report rendering', () => {
  it('formats a finding line, escapes Markdown and redacts', async () => {
    expect(
      formatFindingLine({
        file: 'data/a.jsonl',
        line: 4,
        field: 'bio',
        category: 'PHONE',
        confidence: 'high',
        text: '138\n0013',
        run: null,
      }),
    ).toBe('data/a.jsonl:4 bio [PHONE/high] 138 0013');
    expect(mdCell('a|b <PHONE> *x*')).toBe('a\\|b &lt;PHONE&gt; \\*x\\*');
    expect(redactText('13800138000')).toBe('13*******00');
    expect(redactText('huamao.studio@example.com')).toBe('hu****.******@*******.*om');
    const bench = await loadBenchmark(SAMPLE);
    const audit = await auditBenchmark(bench, { runs: [] });
    const md = renderMarkdown(buildReport(audit, { generatedAt: 'T', redact: true }));
    expect(md).toContain('## Counts per platform');
    expect(md).toContain('| tasks · douban |');
    expect(md).not.toContain('13800138000');
    expect(md).toContain('13\\*\\*\\*\\*\\*\\*\\*00');
  });
});
