// The items of a StreamProfileBench labelling project (core/labels/server/queue.ts hands them out as opaque keys):
// one step of one run, as a JSON array so that no separator can collide with an id, and a seeded sample of them.
import { isPlatform, type Platform } from '../../spb/types';

export interface ProjectStep {
  platform: Platform;
  userId: string;
  stepId: number;
}

/** A project item: one step of one run. */
export function itemOf(run: string, ref: ProjectStep): string {
  return JSON.stringify([run, ref.platform, ref.userId, ref.stepId]);
}

export function parseItem(item: string): { run: string; ref: ProjectStep } | undefined {
  try {
    const v: unknown = JSON.parse(item);
    if (!Array.isArray(v) || v.length !== 4) return undefined;
    const [run, platform, userId, stepId] = v as unknown[];
    if (typeof run !== 'string' || !isPlatform(platform) || typeof userId !== 'string' || !Number.isInteger(stepId))
      return undefined;
    return { run, ref: { platform, userId, stepId: stepId as number } };
  } catch {
    return undefined;
  }
}

/** `n` of `items` chosen by a shuffle seeded with `seed` (the same project name picks the same sample), in order. */
export function seededSample<T>(items: readonly T[], n: number, seed: string): T[] {
  let h = 2166136261;
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  const random = () => {
    h = (h + 0x6d2b79f5) >>> 0;
    let t = h;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const idx = items.map((_, i) => i);
  for (let i = idx.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx
    .slice(0, Math.min(n, idx.length))
    .sort((a, b) => a - b)
    .map((i) => items[i]);
}
