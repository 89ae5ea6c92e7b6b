// A StreamProfileBench sample on disk (core/experiments/sampleFile.ts keeps the file's place and shared fields): the
// users drawn per platform, the strata, and the fingerprints of the tasks files they were drawn from, so that a
// changed benchmark is noticed when the sample is used again.
import { join } from 'node:path';
import { stampOf } from '../../cache/store';
import { readSampleRecord, samplePath, type TasksFingerprint } from '../../experiments/sampleFile';
import { isRecord } from '../../guards';
import { isPlatform, PLATFORMS, type Benchmark, type Platform } from '../types';
import { SAMPLE_BY, SIGNATURES, type SampleDraw, type SampleStratum, type Signature } from './sample';

export interface Sample extends SampleDraw {
  format: 'persona-lab-sample';
  version: 1;
  name: string;
  createdAt: string;
  tasks: Partial<Record<Platform, TasksFingerprint>>;
}

function fingerprints(bench: Benchmark, platforms: Iterable<Platform>): Partial<Record<Platform, TasksFingerprint>> {
  const out: Partial<Record<Platform, TasksFingerprint>> = {};
  for (const platform of platforms) {
    const file = bench.taskFiles.get(platform);
    if (!file) continue;
    const { size, fingerprint } = stampOf(join(bench.root, file));
    out[platform] = { file, size, fingerprint };
  }
  return out;
}

export function newSample(bench: Benchmark, name: string, draw: SampleDraw, now = new Date()): Sample {
  return {
    format: 'persona-lab-sample',
    version: 1,
    name,
    createdAt: now.toISOString(),
    ...draw,
    tasks: fingerprints(bench, Object.keys(draw.users) as Platform[]),
  };
}

/** Reads and checks a sample file; throws with "<path>: <field>: <reason>" on anything it cannot use. */
export function readSample(root: string, name: string): Sample {
  const { v, fail, int } = readSampleRecord(root, name, 'persona-lab-sample');
  const by = SAMPLE_BY.find((b) => b === v.by) ?? fail('by', `expected one of ${SAMPLE_BY.join(', ')}`);
  if (v.baseRun !== null && typeof v.baseRun !== 'string') fail('baseRun', 'expected a run name or null');
  if (!isRecord(v.users)) return fail('users', 'expected an object of user id lists per platform');
  const users: Partial<Record<Platform, string[]>> = {};
  for (const [platform, ids] of Object.entries(v.users)) {
    if (!isPlatform(platform)) fail(`users.${platform}`, `unknown platform (known: ${PLATFORMS.join(', ')})`);
    if (!Array.isArray(ids)) return fail(`users.${platform}`, 'expected a list of user ids');
    ids.forEach((id, i) => typeof id === 'string' || fail(`users.${platform}[${i}]`, 'expected a string'));
    users[platform as Platform] = ids as string[];
  }
  if (!Array.isArray(v.strata)) return fail('strata', 'expected a list');
  const strata: SampleStratum[] = v.strata.map((s, i) => {
    const f = `strata[${i}]`;
    if (!isRecord(s)) return fail(f, 'expected an object');
    if (typeof s.key !== 'string') fail(`${f}.key`, 'expected a string');
    if (!isPlatform(s.platform)) return fail(`${f}.platform`, 'unknown platform');
    const sig = s.signature === undefined ? undefined : SIGNATURES.find((x) => x === s.signature);
    if (s.signature !== undefined && !sig) fail(`${f}.signature`, `expected one of ${SIGNATURES.join(', ')}`);
    return {
      key: s.key as string,
      platform: s.platform,
      ...(sig ? { signature: sig as Signature } : {}),
      population: int(`${f}.population`, s.population),
      drawn: int(`${f}.drawn`, s.drawn),
    };
  });
  const tasks: Partial<Record<Platform, TasksFingerprint>> = {};
  for (const [platform, t] of Object.entries(isRecord(v.tasks) ? v.tasks : fail('tasks', 'expected an object'))) {
    const f = `tasks.${platform}`;
    if (!isPlatform(platform)) fail(f, 'unknown platform');
    if (!isRecord(t) || typeof t.file !== 'string' || typeof t.fingerprint !== 'string')
      return fail(f, 'expected { file, size, fingerprint }');
    tasks[platform as Platform] = { file: t.file, size: int(`${f}.size`, t.size), fingerprint: t.fingerprint };
  }
  return {
    format: 'persona-lab-sample',
    version: 1,
    name: typeof v.name === 'string' ? v.name : name,
    createdAt: typeof v.createdAt === 'string' ? v.createdAt : '',
    seed: int('seed', v.seed),
    by,
    requested: int('requested', v.requested),
    baseRun: typeof v.baseRun === 'string' ? v.baseRun : null,
    strata,
    users,
    tasks,
  };
}

export interface SampleCheck {
  /** the sample cannot be used on this benchmark (users missing) */
  errors: string[];
  /** it can, but the tasks files changed since it was drawn */
  warnings: string[];
}

/** Checks a sample against the loaded benchmark: every user there, every tasks file as fingerprinted. */
export function checkSample(bench: Benchmark, sample: Sample): SampleCheck {
  const path = samplePath(bench.root, sample.name);
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const [platform, ids] of Object.entries(sample.users) as [Platform, string[]][]) {
    const loaded = bench.users.get(platform);
    const file = bench.taskFiles.get(platform) ?? `the ${platform} tasks file`;
    const missing = ids.filter((id) => !loaded?.has(id));
    if (missing.length) {
      const shown = missing.slice(0, 5).join(', ') + (missing.length > 5 ? `, … (${missing.length - 5} more)` : '');
      errors.push(`${path}: users.${platform}: ${missing.length} user(s) not in ${file}: ${shown}`);
    }
  }
  const now = fingerprints(bench, Object.keys(sample.tasks) as Platform[]);
  for (const [platform, was] of Object.entries(sample.tasks) as [Platform, TasksFingerprint][]) {
    const is = now[platform];
    if (!is) warnings.push(`${path}: tasks.${platform}: ${was.file} is not loaded now`);
    else if (is.size !== was.size || is.fingerprint !== was.fingerprint)
      warnings.push(
        `${path}: tasks.${platform}: ${is.file} changed since the sample was drawn (${was.size} → ${is.size} bytes); its steps may differ from earlier tries`,
      );
  }
  return { errors, warnings };
}
