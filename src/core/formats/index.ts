// One adapter per benchmark format. Features ask the registry which format a folder holds, then load through it.
import { basename, dirname, join } from 'node:path';
import { listFolder, probeEntry } from '../io/safeFs';
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
    const entry = probeEntry(target);
    if (!entry.ok) return false;
    if (entry.kind === 'file') return TASKS.test(basename(target));
    const data = kindOf(join(target, 'data')) === 'dir' ? join(target, 'data') : target;
    const listed = listFolder(data);
    return listed.ok && listed.names.some((name) => TASKS.test(name));
  },
  async load(target, opts) {
    return { format: 'streamprofilebench', bench: await loadBenchmark(target, opts) };
  },
};

// Detection looks at names only and never throws: a broken entry is the loader's to report, with its location.
const kindOf = (path: string) => {
  const entry = probeEntry(path);
  return entry.ok ? entry.kind : undefined;
};

const isOmniFolder = (dir: string): boolean => {
  if (kindOf(join(dir, TEST_ACTIONS)) === undefined) return false;
  const raw = listFolder(join(dir, 'raw'));
  return raw.ok && raw.names.some((name) => name.endsWith('.json'));
};

/** The OmniBehavior root a target names: the folder itself, its test_actions.jsonl, or `<target>/omnibehavior`. */
export function omniRoot(target: string): string | undefined {
  const kind = kindOf(target);
  if (kind === undefined) return undefined;
  if (kind === 'file')
    return basename(target) === TEST_ACTIONS && isOmniFolder(dirname(target)) ? dirname(target) : undefined;
  if (isOmniFolder(target)) return target;
  const nested = join(target, 'omnibehavior');
  return kindOf(nested) === 'dir' && isOmniFolder(nested) ? nested : undefined;
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
