// What a benchmark's label units are called in the label summaries and the gold report: the noun its format names
// (its descriptor's `unit`: a step, a test action, a question…), with the format's name for headings. Where the
// format of a benchmark's rows is not known (a label database read without its folder), the rows' platforms decide:
// a row's unit is the noun of the format whose labels carry its platform (a step when none declares it), rows of two
// nouns together are units, with no format named in the heading.
import { FORMATS } from '../formats';
import { formatOfPlatform } from './platformRules';

export interface UnitNoun {
  /** The `unit` of the JSON reports: the singular noun, or "mixed" for rows of two kinds of unit. */
  key: string;
  singular: string;
  plural: string;
  /** The benchmark's units in a heading: the format's name and its plural noun. */
  title: string;
}

/** What a format says of its units (its descriptor's `unit`). */
export interface FormatUnit {
  label: string;
  unit: { singular: string; plural: string };
}

/** The noun of `benchmark`'s units, from the platforms its rows (or decisions) carry. */
export type UnitNamer = (benchmark: string, refs: readonly { platform: string }[]) => UnitNoun;

export function formatUnitNoun(format: FormatUnit): UnitNoun {
  const { singular, plural } = format.unit;
  return { key: singular, singular, plural, title: `${format.label} ${plural}` };
}

/** The unit of a row whose platform no format declares: a step, the whole unit a label is put on. */
const STEP = { singular: 'step', plural: 'steps' };

/** The fallback namer: by the rows' platforms, for a benchmark whose format is not known. */
export const platformUnitNoun: UnitNamer = (_benchmark, refs) => {
  // in the registry's order (an undeclared platform's step first), one noun each
  const units = new Map<string, { order: number; plural: string }>();
  for (const r of refs.length ? refs : [{ platform: '' }]) {
    const format = formatOfPlatform(r.platform);
    const { singular, plural } = format?.unit ?? STEP;
    const order = format ? FORMATS.indexOf(format) : -1;
    const seen = units.get(singular);
    if (!seen || order < seen.order) units.set(singular, { order, plural });
  }
  const nouns = [...units].sort(([, a], [, b]) => a.order - b.order);
  if (nouns.length === 1) {
    const [[singular, { plural }]] = nouns;
    return { key: singular, singular, plural, title: plural };
  }
  const title = nouns.map(([, { plural }]) => plural).join(' and ');
  return { key: 'mixed', singular: 'unit', plural: 'units', title };
};

/** A namer that gives the format's noun to the benchmarks `formatOf` knows, and the platforms' guess to the rest. */
export function unitNamer(formatOf: (benchmark: string) => FormatUnit | undefined): UnitNamer {
  return (benchmark, refs) => {
    const format = formatOf(benchmark);
    return format ? formatUnitNoun(format) : platformUnitNoun(benchmark, refs);
  };
}

/** "3 steps", "1 question". */
export function countOf(n: number, noun: UnitNoun): string {
  return `${n} ${n === 1 ? noun.singular : noun.plural}`;
}

/** "step(s)": a count's noun where the count is printed apart. */
export function nounOrNouns(noun: UnitNoun): string {
  return `${noun.singular}(s)`;
}
