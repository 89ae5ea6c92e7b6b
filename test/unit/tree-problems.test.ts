import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/core/spb/format/load';
import type { Diagnostic } from '../../src/core/io/diagnostics';
import { locateDiagnostics, summarize } from '../../src/extension/benchmarks/locate';

describe('locateDiagnostics', () => {
  it('turns 1-based lines into 0-based ones, keeps whole-file problems on line 0, groups by absolute path', () => {
    const diags: Diagnostic[] = [
      { severity: 'error', file: 'data/weibo_inference_tasks.jsonl', line: 3, field: '', message: 'invalid JSON' },
      { severity: 'warning', file: 'data/weibo_inference_tasks.jsonl', line: 1, field: 'meta', message: 'overlap' },
      {
        severity: 'error',
        file: 'results/m1/inference_results_weibo.jsonl',
        line: 0,
        field: '',
        message: 'empty file',
      },
    ];
    const located = locateDiagnostics('/bench', diags);
    expect([...located.keys()]).toEqual([
      '/bench/data/weibo_inference_tasks.jsonl',
      '/bench/results/m1/inference_results_weibo.jsonl',
    ]);
    expect(located.get('/bench/data/weibo_inference_tasks.jsonl')).toEqual([
      { line: 2, severity: 'error', message: 'invalid JSON', code: undefined },
      { line: 0, severity: 'warning', message: 'meta: overlap', code: 'meta' },
    ]);
    expect(located.get('/bench/results/m1/inference_results_weibo.jsonl')?.[0].line).toBe(0);
  });

  it('points at the broken line of a file the loader read', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pl-tree-problems-'));
    mkdirSync(join(root, 'data'));
    const good = JSON.stringify({
      user_id: 'we_0000000001',
      platform: 'weibo',
      username: 'U_1',
      bio: '',
      total_steps: 0,
      prediction_tasks: [],
    });
    writeFileSync(join(root, 'data', 'weibo_inference_tasks.jsonl'), `${good}\n{"user_id": \n`);
    const bench = await loadBenchmark(root);
    const located = locateDiagnostics(bench.root, bench.diagnostics);
    const problems = located.get(join(root, 'data', 'weibo_inference_tasks.jsonl')) ?? [];
    expect(problems.some((p) => p.severity === 'error' && p.line === 1)).toBe(true);
  });
});

describe('summarize', () => {
  it('counts by severity', () => {
    const d = (severity: Diagnostic['severity']): Diagnostic => ({
      severity,
      file: 'f',
      line: 1,
      field: '',
      message: 'm',
    });
    expect(summarize([])).toBeUndefined();
    expect(summarize([d('error')])).toBe('1 error');
    expect(summarize([d('error'), d('error'), d('warning'), d('info')])).toBe('2 errors, 1 warning, 1 note');
  });
});
