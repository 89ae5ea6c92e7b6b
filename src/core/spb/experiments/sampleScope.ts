// A sample as a scope of the Benchmarks tree, the dashboard and `persona-lab score --sample`: the users of its file
// that the loaded benchmark holds, and what is wrong with it as located messages (users not in the benchmark, tasks
// files changed since it was drawn). The figures of a scope are the core's scoring over its users (userSubset.ts),
// always named as the sample's, never as the whole benchmark's.
import { subsetSize, userSubset, type UserSubset } from '../score/userSubset';
import { PLATFORMS, type Benchmark, type Platform } from '../types';
import { listSamples } from '../../experiments/sampleFile';
import { checkSample, readSample, type Sample } from './sampleFile';

export interface SampleScope {
  name: string;
  /** the sample's users that the benchmark holds */
  users: UserSubset;
  /** how many of them */
  size: number;
  /** "sample s5 (5 users)" */
  label: string;
  /** located problems: "<path>: users.weibo: 2 user(s) not in data/…: …", changed tasks files */
  problems: string[];
}

const plural = (n: number, one: string) => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;

/** "sample NAME (12 users)": how a sample's figures are named wherever they show. */
export function sampleLabel(name: string, users: number): string {
  return `sample ${name} (${plural(users, 'user')})`;
}

export function sampleScope(bench: Benchmark, sample: Sample): SampleScope {
  const check = checkSample(bench, sample);
  const present: Partial<Record<Platform, string[]>> = {};
  for (const platform of PLATFORMS) {
    const loaded = bench.users.get(platform);
    const ids = (sample.users[platform] ?? []).filter((id) => loaded?.has(id));
    if (ids.length) present[platform] = ids;
  }
  const users = userSubset(present);
  const size = subsetSize(users);
  return {
    name: sample.name,
    users,
    size,
    label: sampleLabel(sample.name, size),
    problems: [...check.errors, ...check.warnings],
  };
}

/** Reads <root>/.personalab/samples/NAME.json and scopes it to the benchmark; throws a located message. */
export function loadSampleScope(bench: Benchmark, name: string): SampleScope {
  return sampleScope(bench, readSample(bench.root, name));
}

/** The benchmark folder's samples that can be read, with the number of users each file names. */
export function sampleSummaries(root: string): { name: string; users: number }[] {
  return listSamples(root).flatMap((name) => {
    try {
      const users = Object.values(readSample(root, name).users).reduce((n, ids) => n + (ids?.length ?? 0), 0);
      return [{ name, users }];
    } catch {
      return [];
    }
  });
}
