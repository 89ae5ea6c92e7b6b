import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/core/formats';

describe('detectFormat', () => {
  it('recognises the StreamProfileBench layout, a bare tasks folder and a single tasks file', async () => {
    expect(detectFormat('sample')?.id).toBe('streamprofilebench');
    expect(detectFormat('sample/data')?.id).toBe('streamprofilebench');
    expect(detectFormat('sample/data/zhihu_inference_tasks.jsonl')?.id).toBe('streamprofilebench');
    const loaded = await detectFormat('sample')!.load('sample');
    expect(loaded.format).toBe('streamprofilebench');
    expect(loaded.bench.users.size).toBe(5);
  });
  it('recognises nothing in an unrelated folder or file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-fmt-'));
    writeFileSync(join(dir, 'notes.jsonl'), '{}\n');
    expect(detectFormat(dir)).toBeUndefined();
    expect(detectFormat(join(dir, 'notes.jsonl'))).toBeUndefined();
    expect(detectFormat(join(dir, 'missing'))).toBeUndefined();
  });
});
