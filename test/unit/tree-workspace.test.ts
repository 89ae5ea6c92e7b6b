import { describe, expect, it } from 'vitest';
import { runPickRows } from '../../src/extension/benchmarks/spb/runPick';
import { findWorkspaceBenchmark, resolveSettingPath } from '../../src/extension/workspace/target';
import type { PlatformScore, RunScore } from '../../src/core/spb/score/run';
import { wholeCoverage } from '../support/coverage';

describe('resolveSettingPath', () => {
  const folders = ['/ws/a', '/ws/b'];
  it('expands ~ and ${workspaceFolder}, takes relative paths from the first folder', () => {
    expect(resolveSettingPath('', folders, '/home/u')).toBeUndefined();
    expect(resolveSettingPath('   ', folders, '/home/u')).toBeUndefined();
    expect(resolveSettingPath('/data/spb', folders, '/home/u')).toBe('/data/spb');
    expect(resolveSettingPath('~/spb', folders, '/home/u')).toBe('/home/u/spb');
    expect(resolveSettingPath('${workspaceFolder}/bench', folders, '/home/u')).toBe('/ws/a/bench');
    expect(resolveSettingPath('sample', folders, '/home/u')).toBe('/ws/a/sample');
    expect(resolveSettingPath('../x/', folders, '/home/u')).toBe('/ws/x');
  });
  it('gives up on relative paths without a workspace folder', () => {
    expect(resolveSettingPath('sample', [], '/home/u')).toBeUndefined();
    expect(resolveSettingPath('${workspaceFolder}/x', [], '/home/u')).toBeUndefined();
  });
});

describe('findWorkspaceBenchmark', () => {
  const fs: Record<string, string[]> = {
    '/ws/a/data': ['readme.md', 'weibo_tasks.jsonl'],
    '/ws/b/data': ['zhihu_inference_tasks.jsonl'],
    '/ws/c/data': ['douban_inference_tasks.jsonl'],
  };
  const list = (dir: string) => {
    const names = fs[dir];
    if (!names) throw new Error('ENOENT');
    return names;
  };
  it('returns the first folder whose data/ holds a tasks file', () => {
    expect(findWorkspaceBenchmark(['/ws/none', '/ws/a', '/ws/b', '/ws/c'], list)).toBe('/ws/b');
    expect(findWorkspaceBenchmark(['/ws/a'], list)).toBeUndefined();
    expect(findWorkspaceBenchmark([], list)).toBeUndefined();
  });
});

describe('runPickRows', () => {
  const score = (name: string, recall: number, f1: number, steps: number[]): RunScore => ({
    name,
    platforms: new Map(steps.map((n, i) => [(['weibo', 'zhihu'] as const)[i], { steps: n } as PlatformScore])),
    avg: { Recall: recall, F1NS: f1 } as RunScore['avg'],
    coverage: wholeCoverage((['weibo', 'zhihu'] as const).slice(0, steps.length)),
  });
  it('labels each run with its Avg. Recall and F1^NS and marks the selected one', () => {
    const rows = runPickRows([score('gpt', 0.4567, 0.3, [10, 2000]), score('qwen', NaN, NaN, [])], 'qwen');
    expect(rows.map((r) => [r.label, r.description, r.detail, r.current])).toEqual([
      ['gpt', 'Avg. Recall 45.7% · F1^NS 30.0%', '2 platforms, 2,010 scored steps', false],
      ['qwen', 'Avg. Recall — · F1^NS — · selected', '0 platforms, 0 scored steps', true],
    ]);
  });
  it('says what a run over part of the benchmark covers, after its figures', () => {
    const partial = score('one-user', 0.5375, 0.4, [2]);
    partial.coverage = {
      platforms: new Map(),
      total: { users: { covered: 1, total: 10 }, items: { covered: 2, total: 17 }, itemNoun: 'step' },
    };
    expect(runPickRows([partial], undefined)[0].description).toBe(
      'Avg. Recall 53.8% · F1^NS 40.0% over 1 of 10 users, 2 of 17 steps',
    );
  });
});
