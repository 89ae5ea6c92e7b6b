// One adapter per benchmark format. Features ask the registry which format a folder holds, then load through it.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { loadBenchmark, type LoadOptions } from '../spb/load';
import { loadOmniBenchmark, TEST_ACTIONS } from '../omni/load';
import type { OmniBenchmark } from '../omni/types';
import type { Benchmark } from '../spb/types';

export type FormatId = 'streamprofilebench' | 'omnibehavior';

/** A loaded benchmark, tagged with its format so that callers can switch on it exhaustively. */
export type Loaded =
  { format: 'streamprofilebench'; bench: Benchmark } | { format: 'omnibehavior'; bench: OmniBenchmark };

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

const isOmniFolder = (dir: string): boolean =>
  existsSync(join(dir, TEST_ACTIONS)) &&
  existsSync(join(dir, 'raw')) &&
  statSync(join(dir, 'raw')).isDirectory() &&
  readdirSync(join(dir, 'raw')).some((name) => name.endsWith('.json'));

/** The OmniBehavior root a target names: the folder itself, its test_actions.jsonl, or `<target>/omnibehavior`. */
export function omniRoot(target: string): string | undefined {
  if (!existsSync(target)) return undefined;
  if (statSync(target).isFile())
    return basename(target) === TEST_ACTIONS && isOmniFolder(dirname(target)) ? dirname(target) : undefined;
  if (isOmniFolder(target)) return target;
  const nested = join(target, 'omnibehavior');
  return existsSync(nested) && statSync(nested).isDirectory() && isOmniFolder(nested) ? nested : undefined;
}

export const omniBehavior: FormatAdapter = {
  id: 'omnibehavior',
  label: 'OmniBehavior',
  detect: (target) => omniRoot(target) !== undefined,
  async load(target, opts) {
    const root = omniRoot(target);
    if (!root) throw new Error(`${target}: no OmniBehavior folder (test_actions.jsonl and raw/*.json)`);
    return { format: 'omnibehavior', bench: await loadOmniBenchmark(root, opts) };
  },
};

// Order matters for detectFormat: a folder holding both (like sample/, with data/ and omnibehavior/) opens as
// StreamProfileBench, the format Persona Lab served first; detectFormats lists both.
export const FORMATS: readonly FormatAdapter[] = [streamProfileBench, omniBehavior];

export function detectFormat(target: string): FormatAdapter | undefined {
  return FORMATS.find((f) => f.detect(target));
}

/** Every format the target holds, in FORMATS order. */
export function detectFormats(target: string): FormatAdapter[] {
  return FORMATS.filter((f) => f.detect(target));
}
