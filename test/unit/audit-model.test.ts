// What the PI Audit tree shows: grouping category → platform → user, placeholder and finding counts per platform,
// open counts without false positives, descriptions, labels of invisible characters, auto-run, db path and author.
import { describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { auditBenchmark, type AuditFinding } from '../../src/core/spb/pi/audit';
import { findingKey } from '../../src/core/pi/tally';
import { PI_CATEGORIES } from '../../src/core/pi/placeholders';
import type { Verdict } from '../../src/core/pi/verdicts';
import {
  categoryDescription,
  contextAround,
  displayText,
  fieldName,
  hasInvisible,
  shouldAutoRun,
  summaryFacts,
  ranAtText,
  tally,
} from '../../src/extension/audit/model';
import {
  findingDescription,
  groupAudit,
  platformDescription,
  userDescription,
} from '../../src/extension/benchmarks/spb/audit/model';
import { auditAuthor, auditDbPath, reportFileName } from '../../src/extension/audit/paths';
import { SAMPLE } from '../support/committedSample';

function mk(p: Partial<AuditFinding>): AuditFinding {
  const f = {
    category: 'PHONE',
    confidence: 'high',
    start: 0,
    end: 11,
    text: '13800138000',
    reason: 'mobile',
    file: 'data/weibo_inference_tasks.jsonl',
    line: 1,
    field: 'prediction_tasks[0].posts_text',
    platform: 'weibo',
    userId: 'we_1',
    stepId: 1,
    run: null,
    ...p,
  } as Omit<AuditFinding, 'key'>;
  return { ...f, key: findingKey(f) };
}

const verdicts = (m: Record<string, Verdict>) => (key: string) => m[key];

describe('groupAudit', () => {
  const a = mk({ userId: 'we_1', line: 1 });
  const b = mk({ userId: 'we_2', line: 2 });
  const c = mk({ userId: 'we_2', line: 2, start: 20, end: 31 });
  const d = mk({ platform: 'zhihu', file: 'data/zhihu_inference_tasks.jsonl', userId: 'zh_1' });
  const e = mk({
    category: 'EMAIL',
    text: 'a@b.cn',
    run: 'demo',
    file: 'results/demo/inference_results_weibo.jsonl',
    field: 'steps[0].reasoning',
  });
  const counts = [
    { source: 'tasks', platform: 'weibo' as const, category: 'PHONE' as const, placeholders: 4, findings: 3 },
    { source: 'demo', platform: 'weibo' as const, category: 'PHONE' as const, placeholders: 1, findings: 0 },
    { source: 'tasks', platform: 'zhihu' as const, category: 'PHONE' as const, placeholders: 0, findings: 1 },
    { source: 'tasks', platform: 'douban' as const, category: 'PHONE' as const, placeholders: 2, findings: 0 },
    { source: 'demo', platform: 'weibo' as const, category: 'EMAIL' as const, placeholders: 0, findings: 1 },
  ];
  const groups = groupAudit({ findings: [d, c, a, e, b], counts });

  it('has all ten categories in order, with platforms that have placeholders or findings', () => {
    expect(groups.map((g) => g.category)).toEqual([...PI_CATEGORIES]);
    const phone = groups[0]!;
    expect(phone.platforms.map((p) => p.platform)).toEqual(['weibo', 'zhihu', 'douban']);
    expect(phone.placeholders).toBe(7);
    expect(phone.findings).toHaveLength(4);
    expect(groups.find((g) => g.category === 'ID')!.platforms).toEqual([]);
  });

  it('sums counts over the sources of a platform and keeps them per source', () => {
    const weibo = groups[0]!.platforms[0]!;
    expect(weibo.counts).toEqual({
      placeholders: 5,
      findings: 3,
      bySource: [
        { source: 'tasks', placeholders: 4, findings: 3 },
        { source: 'demo', placeholders: 1, findings: 0 },
      ],
    });
    expect(groups[0]!.platforms[2]!.users).toEqual([]);
  });

  it('puts users with the most findings first, findings in file order', () => {
    const weibo = groups[0]!.platforms[0]!;
    expect(weibo.users.map((u) => u.userId)).toEqual(['we_2', 'we_1']);
    expect(weibo.users[0]!.findings).toEqual([b, c]);
  });

  it('counts false positives out of the open findings', () => {
    const phone = groups[0]!;
    const v = verdicts({ [a.key]: 'false-positive', [b.key]: 'confirmed-leak', [c.key]: 'needs-review' });
    expect(tally(phone.findings, v)).toEqual({
      open: 3,
      confirmed: 1,
      falsePositive: 1,
      needsReview: 1,
      unreviewed: 1,
    });
    expect(categoryDescription(phone, v)).toBe(
      '1 open · 1 confirmed · 1 needs review · 1 false positive · 7 placeholders',
    );
    expect(categoryDescription(phone, verdicts({}))).toBe('4 open · 7 placeholders');
    expect(platformDescription(phone.platforms[0]!, v)).toBe(
      '0 open · 1 confirmed · 1 needs review · 1 false positive · 5 placeholders',
    );
    expect(platformDescription(phone.platforms[2]!, v)).toBe('0 open · 2 placeholders');
    const we1 = phone.platforms[0]!.users[1]!;
    expect(userDescription(we1, verdicts({}))).toBe('1 open');
    expect(userDescription(we1, v)).toBe('0 open · 1 false positive');
  });

  it('describes a finding by run, step, field, confidence and verdict', () => {
    expect(findingDescription(a, undefined)).toBe('step 1 · posts_text · high');
    expect(findingDescription(mk({ stepId: null, field: 'bio', confidence: 'medium' }), 'needs-review')).toBe(
      'profile · bio · medium · needs review',
    );
    expect(findingDescription(e, 'confirmed-leak')).toBe('run demo · step 1 · reasoning · high · confirmed leak');
    expect(fieldName('prediction_tasks[0].meta.T_keep[3]')).toBe('T_keep');
    expect(fieldName('steps[1].prediction[0]')).toBe('prediction');
  });

  it('summarises a run one fact per row, not as one run-on line', () => {
    const r = {
      findings: [a, b],
      counts,
      scanned: { files: 3, lines: 9, texts: 20, chars: 100 },
      problems: [],
      cancelled: false,
    };
    expect(summaryFacts(r, verdicts({ [a.key]: 'false-positive' }))).toEqual([
      { label: 'Findings', value: '2' },
      { label: 'Open', value: '1 (no verdict yet)' },
      { label: 'False positives', value: '1' },
      { label: 'Placeholders', value: '7' },
      { label: 'Files scanned', value: '3' },
    ]);
    expect(summaryFacts({ ...r, cancelled: true, problems: ['x'] }, verdicts({ [b.key]: 'confirmed-leak' }))).toEqual([
      { label: 'Cancelled', value: 'partial results' },
      { label: 'Findings', value: '2' },
      { label: 'Open', value: '1 (no verdict yet)' },
      { label: 'Confirmed leaks', value: '1' },
      { label: 'Placeholders', value: '7' },
      { label: 'Files scanned', value: '3' },
      { label: 'Unreadable lines or files skipped', value: '1' },
    ]);
  });

  it('says when the audit ran, in local time to the minute', () => {
    expect(ranAtText(new Date(2026, 11, 6, 2, 9, 59))).toBe('2026-12-06 02:09');
  });
});

describe('labels and context', () => {
  it('shows invisible and control characters', () => {
    expect(displayText('138\u200b0013\u20608000')).toBe('138␣0013␣8000');
    expect(displayText('a\nb\tc')).toBe('a b c');
    expect(displayText('x'.repeat(100), 10)).toBe('xxxxxxxxx…');
    expect(hasInvisible('a\u200bb')).toBe(true);
    expect(hasInvisible('ab')).toBe(false);
    expect(hasInvisible('a\u200bb')).toBe(true);
  });

  it('cuts the context around a span', () => {
    expect(contextAround('0123456789', 4, 6, 2)).toEqual({ before: '…23', match: '45', after: '67…' });
    expect(contextAround('0123456789', 0, 10, 2)).toEqual({ before: '', match: '0123456789', after: '' });
  });
});

describe('auto-run, database path, author, report name', () => {
  it('audits small benchmarks by itself', () => {
    expect(shouldAutoRun('small', 20 * 1024 * 1024, 20)).toBe(true);
    expect(shouldAutoRun('small', 20 * 1024 * 1024 + 1, 20)).toBe(false);
    expect(shouldAutoRun('always', 1e12, 20)).toBe(true);
    expect(shouldAutoRun('never', 1, 20)).toBe(false);
    expect(shouldAutoRun('small', 1, -5)).toBe(false);
  });

  it('keeps the verdicts in .personalab/audit.db of the workspace, the benchmark, or the global storage', () => {
    expect(auditDbPath('', ['/ws'], '/home/u', '/bench', '/global')).toBe('/ws/.personalab/audit.db');
    expect(auditDbPath(undefined, [], '/home/u', '/bench', '/global')).toBe('/bench/.personalab/audit.db');
    expect(auditDbPath(undefined, [], '/home/u', undefined, '/global')).toBe('/global/.personalab/audit.db');
    expect(auditDbPath('~/v.db', ['/ws'], '/home/u', '/bench', '/global')).toBe('/home/u/v.db');
    expect(auditDbPath('${workspaceFolder}/x/v.db', ['/ws'], '/home/u', undefined, '/g')).toBe('/ws/x/v.db');
    expect(auditDbPath('rel/v.db', ['/ws'], '/home/u', undefined, '/g')).toBe('/ws/rel/v.db');
  });

  it('takes the author from the setting, else the OS user', () => {
    expect(auditAuthor(' alice ', () => 'os')).toBe('alice');
    expect(auditAuthor('', () => 'os')).toBe('os');
    expect(auditAuthor(undefined, () => '')).toBe('auditor');
    expect(
      auditAuthor(undefined, () => {
        throw new Error('no passwd entry');
      }),
    ).toBe('auditor');
  });

  it('names the report after the benchmark', () => {
    expect(reportFileName('sample', 'md')).toBe('pi-audit-sample.md');
    expect(reportFileName('my bench/..', 'json')).toBe('pi-audit-benchmark.json');
    expect(reportFileName('.hidden', 'md')).toBe('pi-audit-hidden.md');
  });
});

describe('the tree of sample/', async () => {
  const audit = await auditBenchmark(await loadBenchmark(SAMPLE));
  const groups = groupAudit(audit);

  it('holds every finding once, and counts that agree with the audit', () => {
    const leaves = groups.flatMap((g) => g.platforms.flatMap((p) => p.users.flatMap((u) => u.findings)));
    expect(leaves.map((f) => f.key).sort()).toEqual(audit.findings.map((f) => f.key).sort());
    for (const g of groups) {
      for (const p of g.platforms)
        expect(p.counts.findings, `${g.category} ${p.platform}`).toBe(
          p.users.reduce((s, u) => s + u.findings.length, 0),
        );
    }
    const placeholders = audit.counts.reduce((s, r) => s + r.placeholders, 0);
    expect(groups.reduce((s, g) => s + g.placeholders, 0)).toBe(placeholders);
  });
});
