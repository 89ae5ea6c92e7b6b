// The items of a labelling project (core/labels/server/queue.ts hands them out as opaque keys): one step, one test
// action, or one item of another format (its label unit: a partition of its own, a user and a place) of one run, as a
// JSON array so that no separator can collide with an id, and a seeded sample of them. Which kind a unit is comes from
// the format whose labels carry its platform (its descriptor's `labels.item`).
import type { StepRef } from '../model';
import { itemKindOfPlatform } from '../platformRules';

export interface ProjectStep {
  /** one of the platforms of the format whose units are steps */
  platform: string;
  userId: string;
  stepId: number;
}

export interface ProjectTestAction {
  userId: string;
  index: number;
}

/** An item of a format other than those two, as its labels are kept (StepRef's columns; `platform` its own). */
export interface ProjectUnit {
  platform: string;
  userId: string;
  stepId: number;
}

export type ProjectItem =
  | { kind: 'step'; run: string; ref: ProjectStep }
  | { kind: 'testAction'; run: string; ref: ProjectTestAction }
  | { kind: 'item'; run: string; ref: ProjectUnit };

export type ItemKind = ProjectItem['kind'];

/** What one of a project's items is called. */
export function itemNoun(kind: ItemKind | undefined): string {
  return kind === 'step' ? 'step' : kind === 'testAction' ? 'test action' : 'item';
}

/** What a project's items are called, in the plural. */
export function itemNouns(kind: ItemKind | undefined): string {
  return `${itemNoun(kind)}s`;
}

/** A project item: one step of one run. */
export function itemOf(run: string, ref: ProjectStep): string {
  return JSON.stringify([run, ref.platform, ref.userId, ref.stepId]);
}

/** A project item: one item of another format in one run (the step's shape, on that format's own platform). */
export function unitItemOf(run: string, ref: ProjectUnit): string {
  return JSON.stringify([run, ref.platform, ref.userId, ref.stepId]);
}

/** A project item: one test action of one run (three fields, where a step has four). */
export function testActionItemOf(run: string, ref: ProjectTestAction): string {
  return JSON.stringify([run, ref.userId, ref.index]);
}

/** The project item a label unit is (its benchmark aside: a project is of one benchmark). */
export function unitItem(ref: StepRef): string {
  return itemKindOfPlatform(ref.platform) === 'testAction'
    ? testActionItemOf(ref.run, { userId: ref.userId, index: ref.stepId })
    : JSON.stringify([ref.run, ref.platform, ref.userId, ref.stepId]);
}

const wholeNumber = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

export function parseItem(item: string): ProjectItem | undefined {
  let v: unknown;
  try {
    v = JSON.parse(item);
  } catch {
    return undefined;
  }
  if (!Array.isArray(v) || typeof v[0] !== 'string') return undefined;
  if (v.length === 4) {
    const [run, platform, userId, stepId] = v as [string, unknown, unknown, unknown];
    if (typeof platform !== 'string' || platform === '') return undefined;
    const kind = itemKindOfPlatform(platform);
    if (kind === 'testAction' || typeof userId !== 'string' || !wholeNumber(stepId)) return undefined;
    return kind === 'step'
      ? { kind: 'step', run, ref: { platform, userId, stepId } }
      : { kind: 'item', run, ref: { platform, userId, stepId } };
  }
  if (v.length === 3) {
    const [run, userId, index] = v as [string, unknown, unknown];
    if (typeof userId !== 'string' || !wholeNumber(index)) return undefined;
    return { kind: 'testAction', run, ref: { userId, index } };
  }
  return undefined;
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
