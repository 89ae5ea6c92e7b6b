import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, detectFormats, streamProfileBench } from '../../src/core/formats';
import { SAMPLE } from '../support/committedSample';

describe('detectFormat', () => {
  it('recognises the StreamProfileBench layout, a bare tasks folder and a single tasks file', async () => {
    expect(detectFormat(SAMPLE)?.id).toBe('streamprofilebench');
    expect(detectFormat(join(SAMPLE, 'data'))?.id).toBe('streamprofilebench');
    expect(detectFormat(join(SAMPLE, 'data/zhihu_inference_tasks.jsonl'))?.id).toBe('streamprofilebench');
    expect(detectFormat(SAMPLE)).toBe(streamProfileBench);
    const loaded = await streamProfileBench.load(SAMPLE);
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
  it('recognises nothing, and never throws, where the entries it looks at are broken', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-fmt-broken-'));
    // data/ is a file, raw/ a dangling link, omnibehavior/ a link loop, and test_actions.jsonl is there.
    writeFileSync(join(dir, 'data'), 'not a folder');
    writeFileSync(join(dir, 'test_actions.jsonl'), '{}\n');
    symlinkSync(join(dir, 'nowhere'), join(dir, 'raw'));
    symlinkSync(join(dir, 'omnibehavior'), join(dir, 'omnibehavior'));
    expect(() => detectFormats(dir)).not.toThrow();
    expect(detectFormats(dir)).toEqual([]);
    const loop = join(dir, 'loop');
    mkdirSync(join(dir, 'sub'));
    symlinkSync(loop, loop);
    expect(detectFormats(loop)).toEqual([]);
  });
});
