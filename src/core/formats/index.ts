// One adapter per benchmark format. Features ask the registry which format a folder holds, then load through it.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { loadBenchmark, type LoadOptions } from '../load';
import type { Benchmark } from '../types';

export type FormatId = 'streamprofilebench';

/** A loaded benchmark, tagged with its format so that callers can switch on it exhaustively. */
export type Loaded = { format: 'streamprofilebench'; bench: Benchmark };

export interface FormatAdapter {
  id: FormatId;
  label: string;
  /** Cheap check on names only: no file is parsed. */
  detect(target: string): boolean;
  load(target: string, opts?: LoadOptions): Promise<Loaded>;
}

const TASKS = /^(weibo|xiaohongshu|toutiao|zhihu|douban)_inference_tasks\.jsonl$/;

export const streamProfileBench: FormatAdapter = {
  id: 'streamprofilebench',
  label: 'StreamProfileBench',
  detect(target) {
    if (!existsSync(target)) return false;
    if (statSync(target).isFile()) return TASKS.test(basename(target));
    const data = existsSync(join(target, 'data')) ? join(target, 'data') : target;
    return readdirSync(data).some((name) => TASKS.test(name));
  },
  async load(target, opts) {
    return { format: 'streamprofilebench', bench: await loadBenchmark(target, opts) };
  },
};

export const FORMATS: readonly FormatAdapter[] = [streamProfileBench];

export function detectFormat(target: string): FormatAdapter | undefined {
  return FORMATS.find((f) => f.detect(target));
}
