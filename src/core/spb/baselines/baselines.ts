// Deterministic baselines: each picks exactly k distinct in-pool tags per step and yields official result records.
import { join } from 'node:path';
import { readPostsText } from '../format/load';
import { parsePosts } from '../format/posts';
import { writeResultsFile, type ResultStepRecord, type ResultUserRecord } from '../format/resultsFile';
import { hashString, mulberry32 } from '../../stats/random';
import { kForPool, scoreStep } from '../score/step';
import type { Benchmark, Platform, Step, User } from '../types';

export const BASELINES = {
  random: {
    label: 'Random',
    description: 'k distinct pool tags drawn uniformly by a seeded PRNG (mulberry32 per user and step).',
  },
  'history-frequency': {
    label: 'History frequency',
    description:
      "Pool tags ranked by how often the user's earlier batches (steps 1..n-1) used them; ties by pool order.",
  },
  'recent-batch': {
    label: 'Recent batch',
    description: 'Pool tags used in the current batch B_n first (most used first), then the rest in pool order.',
  },
} as const;

export type BaselineMethod = keyof typeof BASELINES;

export function isBaselineMethod(name: unknown): name is BaselineMethod {
  return typeof name === 'string' && Object.hasOwn(BASELINES, name);
}

export interface BaselineOptions {
  /** Seed of the random baseline (default '0'). */
  seed?: string | number;
  /** Reads a step's posts_text; defaults to the loader's on-demand reader. */
  readPosts?: (user: User, step: Step) => string;
}

/**
 * Tags in posts and tags in the pool are compared without surrounding whitespace and '#' marks, so that
 * `#话题#` in a `Tags:` line still matches `#话题` in a pool should a release mix the two spellings.
 */
export function tagKey(tag: string): string {
  return tag
    .trim()
    .replace(/^#+|#+$/g, '')
    .trim();
}

function distinct(pool: readonly string[]): string[] {
  return [...new Set(pool.filter((t): t is string => typeof t === 'string'))];
}

/** Tag use counts (by tagKey) over the `Tags:` lines of some batches. */
export function countTags(postsTexts: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of postsTexts) {
    for (const post of parsePosts(text).posts) {
      for (const tag of post.tags) {
        const key = tagKey(tag);
        if (key !== '') counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
  }
  return counts;
}

/** Pool tags by count (descending), ties in pool order (a stable sort keeps it). */
export function rankByCounts(pool: readonly string[], counts: ReadonlyMap<string, number>): string[] {
  return distinct(pool)
    .map((tag, i) => ({ tag, i, n: counts.get(tagKey(tag)) ?? 0 }))
    .sort((a, b) => b.n - a.n || a.i - b.i)
    .map((x) => x.tag);
}

interface Pick {
  tags: string[];
  persona: string;
  reasoning: string;
}

function describeCounts(ranked: readonly string[], counts: ReadonlyMap<string, number>, k: number): string {
  const used = ranked.filter((t) => (counts.get(tagKey(t)) ?? 0) > 0);
  if (used.length === 0) return 'no pool tag occurs there, so the first k tags of the pool were taken.';
  const list = used.map((t) => `${t} x${counts.get(tagKey(t))}`).join(', ');
  const fill = used.length < k ? ` The remaining ${k - used.length} came from the pool in its order.` : '';
  return `pool tags found: ${list}.${fill}`;
}

function pickStep(
  method: BaselineMethod,
  user: User,
  index: number,
  seed: string,
  readPosts: (user: User, step: Step) => string,
): Pick {
  const step = user.steps[index];
  const pool = Array.isArray(step.pool) ? step.pool : [];
  const k = kForPool(pool.length);
  const tags = distinct(pool);
  if (method === 'random') {
    const rand = mulberry32(hashString(`${seed}\u0000${user.platform}\u0000${user.userId}\u0000${step.stepId}`));
    for (let i = 0; i < tags.length - 1; i++) {
      const j = i + Math.floor(rand() * (tags.length - i));
      [tags[i], tags[j]] = [tags[j], tags[i]];
    }
    const picked = tags.slice(0, k);
    return {
      tags: picked,
      persona:
        `Baseline random (seed ${seed}): no profile; ` +
        `picked ${picked.length} of ${pool.length} pool tags at random.`,
      reasoning: `Seeded uniform draw of ${picked.length} distinct tags (k = ${k}) from the candidate pool.`,
    };
  }
  if (method === 'history-frequency') {
    const earlier = user.steps.slice(0, index).map((s) => readPosts(user, s));
    const counts = countTags(earlier);
    const ranked = rankByCounts(tags, counts);
    const picked = ranked.slice(0, k);
    return {
      tags: picked,
      persona:
        `Baseline history-frequency: ranked ${tags.length} pool tags by use in ${earlier.length} earlier ` +
        `batch${earlier.length === 1 ? '' : 'es'}; top ${picked.length} taken.`,
      reasoning: `Tag counts in the Tags: lines of steps 1..${step.stepId - 1}: ${describeCounts(ranked, counts, k)}`,
    };
  }
  const counts = countTags([readPosts(user, step)]);
  const ranked = rankByCounts(tags, counts);
  const picked = ranked.slice(0, k);
  return {
    tags: picked,
    persona:
      'Baseline recent-batch: pool tags of the current batch first, then pool order; ' + `top ${picked.length} taken.`,
    reasoning: `Tag counts in the Tags: lines of batch ${step.stepId}: ${describeCounts(ranked, counts, k)}`,
  };
}

/** Result records of one baseline for every user, per platform, in file order. Unknown methods give an empty map. */
export function runBaseline(
  bench: Benchmark,
  method: BaselineMethod,
  opts: BaselineOptions = {},
): Map<Platform, ResultUserRecord[]> {
  const out = new Map<Platform, ResultUserRecord[]>();
  if (!isBaselineMethod(method)) return out;
  const seed = String(opts.seed ?? '0');
  const readPosts = opts.readPosts ?? readPostsText;
  const safeRead = (user: User, step: Step): string => {
    try {
      return readPosts(user, step);
    } catch {
      return '';
    }
  };
  for (const [platform, users] of bench.users) {
    const records: ResultUserRecord[] = [];
    for (const user of users.values()) {
      // history-frequency reads every earlier batch at every step: read each batch once per user.
      const cache = new Map<Step, string>();
      const cachedRead = (u: User, s: Step): string => {
        let text = cache.get(s);
        if (text === undefined) cache.set(s, (text = safeRead(u, s)));
        return text;
      };
      const steps: ResultStepRecord[] = user.steps.map((step, index) => {
        const pick = pickStep(method, user, index, seed, cachedRead);
        return {
          step_id: step.stepId,
          prediction: pick.tags,
          ground_truth: [...step.split.tNew, ...step.split.tKeep],
          metrics: scoreStep(step.split, pick.tags),
          reasoning: pick.reasoning,
          persona_summary: pick.persona,
        };
      });
      records.push({ user_id: user.userId, platform: user.platform, username: user.username, steps });
    }
    out.set(platform, records);
  }
  return out;
}

/** A run folder name that stays inside results/: anything but [A-Za-z0-9._-] becomes '_'. */
export function safeRunName(name: string, method: string): string {
  const clean = String(name ?? '').replace(/[^A-Za-z0-9._-]/g, '_');
  return clean === '' || /^\.+$/.test(clean) ? `baseline-${method}` : clean;
}

/** Writes results/<outName>/inference_results_<platform>.jsonl under bench.root; returns the paths written. */
export async function writeBaselineRun(
  bench: Benchmark,
  method: BaselineMethod,
  outName: string,
  opts: BaselineOptions = {},
): Promise<string[]> {
  const dir = join(bench.root, 'results', safeRunName(outName, method));
  const written: string[] = [];
  for (const [platform, records] of runBaseline(bench, method, opts)) {
    const path = join(dir, `inference_results_${platform}.jsonl`);
    await writeResultsFile(path, records, bench.root);
    written.push(path);
  }
  return written;
}
