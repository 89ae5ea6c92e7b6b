// Which `platform` a label of each target kind may carry, from what the formats' descriptors declare (their label
// targets and, where fixed, their labels' platforms): a platform a format declares is kept for the target kinds it
// takes, and where every format taking a kind declares its platforms, that kind's labels carry one of them. The
// registry's own modules (model.ts and what a format imports) never reach this file: it reads the registry.
import { FORMATS, type Format } from '../formats';
import { keyProblem, type LabelKey, type TargetKind } from './model';

/** Why `platform` cannot be on a label of `kind`. */
export interface PlatformProblem {
  /** The platforms `kind` needs, when every format taking it declares them and `platform` is none of them. */
  needs?: { formats: readonly Format[]; platforms: readonly string[] };
  /** The format that declares `platform` and does not take `kind`. */
  claimedBy?: Format;
}

/** The problem of a `kind` label on `platform`, or null when the formats allow it. */
export function platformProblem(
  kind: TargetKind,
  platform: string,
  formats: readonly Format[] = FORMATS,
): PlatformProblem | null {
  const takers = formats.filter((f) => f.labelTargets.includes(kind));
  const declared = takers.length > 0 && takers.every((f) => f.labelPlatforms.length > 0);
  const platforms = declared ? [...new Set(takers.flatMap((f) => f.labelPlatforms))] : [];
  const needs = declared && !platforms.includes(platform) ? { formats: takers, platforms } : undefined;
  const claimedBy = formats.find((f) => f.labelPlatforms.includes(platform) && !f.labelTargets.includes(kind));
  return needs || claimedBy ? { needs, claimedBy } : null;
}

const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');
const quoted = (values: readonly string[]) => values.map((v) => `"${v}"`).join(', ');
const labelsOf = (formats: readonly Format[]) => formats.map((f) => f.label).join(', ');

/**
 * The one platform a kind needs, when its formats fix a single one ("an action target (<format>) needs platform …"):
 * that says more than which format claims the platform given.
 */
function onlyPlatform(p: PlatformProblem): string | undefined {
  return p.needs?.platforms.length === 1 ? p.needs.platforms[0] : undefined;
}

/** Why a `kind` target cannot carry `platform`, worded for the store's refusals; null when it can. */
export function targetPlatformProblem(kind: TargetKind, platform: string, formats?: readonly Format[]): string | null {
  const p = platformProblem(kind, platform, formats);
  if (!p) return null;
  const only = onlyPlatform(p);
  if (only !== undefined && p.needs)
    return `${article(kind)} ${kind} target (${labelsOf(p.needs.formats)}) needs platform "${only}"`;
  if (p.claimedBy) return `platform "${platform}" takes ${p.claimedBy.labelTargets.join(' or ')} targets only`;
  const needs = p.needs?.platforms ?? [];
  return `${article(kind)} ${kind} target (${labelsOf(p.needs?.formats ?? [])}) needs one of the platforms ${quoted(needs)}`;
}

/** Why an imported label of `kind` cannot carry `platform` (the file's `platform` field); null when it can. */
export function importedPlatformProblem(
  kind: TargetKind,
  platform: string,
  formats?: readonly Format[],
): string | null {
  const p = platformProblem(kind, platform, formats);
  if (!p) return null;
  const only = onlyPlatform(p);
  return only !== undefined && p.needs
    ? `${article(kind)} ${kind} label (${labelsOf(p.needs.formats)}) needs platform "${only}", got "${platform}"`
    : `unknown platform "${platform}"`;
}

/** Checks a key's shape and its platform against its target's kind; returns a reason or null. */
export function labelKeyProblem(k: LabelKey): string | null {
  return keyProblem(k, (kind, platform) => targetPlatformProblem(kind, platform));
}

/** The format whose labels carry `platform` (it declares it), if any. */
export function formatOfPlatform(platform: string, formats: readonly Format[] = FORMATS): Format | undefined {
  return formats.find((f) => f.labelPlatforms.includes(platform));
}

/** The item kind of a unit on `platform` (its format's `labels.item`): 'item' when no format declares it. */
export function itemKindOfPlatform(platform: string): Format['labelItem'] {
  return formatOfPlatform(platform)?.labelItem ?? 'item';
}

/** Every dimension people may score a judge's answers on, over the formats that have a judge. */
export function judgeDimensions(formats: readonly Format[] = FORMATS): string[] {
  return [...new Set(formats.flatMap((f) => f.judgeDimensions))];
}
