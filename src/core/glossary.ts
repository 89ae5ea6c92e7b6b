// The one glossary of every benchmark: every metric and term a view, the CLI or an export prints, with its short name
// (as printed), long name, one sentence in our words and its unit. Each format brings its own terms
// (formats/glossaries.ts); the topics every format shares are here. Hovers and tooltips take their text from here
// (`hoverText`), `persona-lab glossary` prints it, and test/unit/glossary.test.ts fails when a view prints a
// metric-like name (`metricTokens`) that is not a short name here. The README's Glossary section says the same.
import { FORMAT_GLOSSARIES } from './formats/glossaries';
import { termsOf, type GlossaryTerm } from './glossaryTerm';

export type { GlossaryTerm } from './glossaryTerm';

/** A missing value (nothing to show: no result, no prediction, no normaliser) in a table cell, tile or row. */
export const MISSING = '—';
/** A figure the data cannot define, in prose, always with its reason: "n/a (T_keep is empty)". */
export const notAvailable = (reason: string): string => `n/a (${reason})`;
/** The one phrasing of an empty persona (a cold start, the runner's error record, a persona-free run). */
export const NO_PERSONA = 'No persona';
/** NO_PERSONA with why: "No persona (cold start, step 1)". */
export const noPersona = (why: string): string => `${NO_PERSONA} (${why})`;

const cmp = termsOf('comparisons');
const ann = termsOf('annotation');
const view = (short: string, long: string, definition: string): GlossaryTerm => ({
  short,
  long,
  definition,
  topic: 'views',
});

export const GLOSSARY: readonly GlossaryTerm[] = [
  ...FORMAT_GLOSSARIES.flatMap((g) => g.terms),
  cmp('Δ', 'difference', 'a figure of the experiment (run B) minus the same figure of its base run (run A).', 'pp'),
  cmp('pp', 'percentage points', 'the difference of two percentages.'),
  cmp('95 % CI', '95 % confidence interval', 'a bootstrap interval that resamples users within platforms.', 'pp'),
  cmp('n.s.', 'not significant', 'the 95 % interval includes 0.'),
  cmp(
    'W/T/L',
    'wins, ties, losses',
    'the users (or steps) where run B does better than, the same as, or worse than run A.',
  ),
  ann(
    'κ',
    'Cohen’s kappa',
    'agreement of two annotators beyond chance, (po − pe) / (1 − pe); n/a below 10 shared steps.',
  ),
  ann('po', 'observed agreement', 'the share of the shared steps where the two annotators agree.'),
  ann(
    'pe',
    'chance agreement',
    'the agreement two annotators would reach by chance, from how often each uses the label.',
  ),
  ann(
    'Cohen’s κ',
    'Cohen’s kappa, per label',
    'κ of a label when exactly two annotators labelled the shared steps; the same figure as their pair’s row.',
  ),
  ann(
    'Fleiss’ κ',
    'Fleiss’ kappa, per label',
    'agreement of three or more annotators beyond chance, (P̄ − P_e) / (1 − P_e), on the steps at least two of them labelled; n/a below 10 such steps.',
  ),
  ann(
    'P̄',
    'observed agreement (Fleiss)',
    'the mean, over the steps, of the share of pairs of their annotators who agree.',
  ),
  ann(
    'P_e',
    'chance agreement (Fleiss)',
    'the sum over present and absent of the squared share of all ratings that say so.',
  ),
  ann('raters', 'annotators compared', 'the annotators who labelled at least one of the steps compared.'),
  ann(
    'Disagreements',
    'steps the annotators disagree on',
    'steps labelled by at least two annotators whose sets of labels differ; each lists everyone’s labels side by side.',
  ),
  ann('Spearman’s ρ', 'rank correlation', 'how closely the judge’s ranking of answers follows a person’s.'),
  view('Tasks line', 'the user’s line in the tasks file', 'opens the benchmark’s tasks file at this user’s line.'),
  view('Result line', 'the step’s line in the results file', 'opens the run’s results file at this step’s line.'),
  view(
    MISSING,
    'no value',
    'a cell, tile or row with nothing to show: no result, no prediction, no normaliser, or a rate whose denominator is empty (its hover says which).',
  ),
  view(
    'n/a',
    'not available',
    'in a sentence, a figure that cannot be given, always followed by its reason: “CI n/a: 5 users”, “n/a (n = 2 < 10 steps)”.',
  ),
];

const BY_NAME = new Map<string, GlossaryTerm>();
for (const t of GLOSSARY) for (const name of [t.short, ...(t.aliases ?? [])]) BY_NAME.set(name, t);

export function glossaryTerm(short: string): GlossaryTerm | undefined {
  return BY_NAME.get(short);
}

/** "R_stab (Stability recall): the share of … (in %)", the hover of a term; throws on a name not in the glossary. */
export function hoverText(short: string): string {
  const t = BY_NAME.get(short);
  if (!t) throw new Error(`"${short}" is not in the glossary`);
  const unit = t.unit ? ` In ${t.unit}.` : '';
  return `${short} (${t.long}): ${t.definition}${unit}`;
}

// Names that look like a metric: the paper's symbols (R_x, Err_x, T_x, D_x, F1^x), the reference's keys
// (Recall_x, Error_x) and a delta of any of them. Bare R, F1 and Greek letters are known by themselves.
const TOKEN =
  /(?<![\p{L}\p{N}_^])Δ?(?:(?:R|Err|Error|E|T|D)_\p{L}+|Recall\p{L}*(?:_\p{L}+)?|F1\^?\p{L}*|R)(?![\p{L}\p{N}_^])/gu;

/** Every metric-like name in a text, as printed. */
export function metricTokens(text: string): string[] {
  return [...text.matchAll(TOKEN)].map((m) => m[0]);
}

const WORDS = new Set(FORMAT_GLOSSARIES.flatMap((g) => g.words ?? []));

/**
 * The metric-like names of a text that are not in the glossary: a short name (or its alias), a delta of one (ΔR,
 * ΔF1^NS), or a name a format says in words ("Recall"). "ΔRecall", "Recall_Novelty" or "R_fake" are unknown.
 */
export function unknownMetricNames(text: string): string[] {
  const out = new Set<string>();
  for (const token of metricTokens(text)) {
    const name = token.startsWith('Δ') ? token.slice(1) : token;
    if (BY_NAME.has(name)) continue;
    if (WORDS.has(token)) continue;
    out.add(token);
  }
  return [...out];
}

const TOPICS: readonly string[] = [...FORMAT_GLOSSARIES.map((g) => g.topic), 'comparisons', 'annotation', 'views'];

/** `persona-lab glossary`: every term by topic, "short  long: definition (in unit)". */
export function glossaryText(): string {
  const width = Math.max(...GLOSSARY.map((t) => [...t.short].length));
  const lines: string[] = [];
  for (const topic of TOPICS) {
    lines.push(lines.length ? `\n${topic}` : topic);
    for (const t of GLOSSARY.filter((x) => x.topic === topic)) {
      const pad = ' '.repeat(width - [...t.short].length);
      lines.push(`  ${t.short}${pad}  ${t.long}: ${t.definition}${t.unit ? ` In ${t.unit}.` : ''}`);
    }
  }
  return lines.join('\n');
}
