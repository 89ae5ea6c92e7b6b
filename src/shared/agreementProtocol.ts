// The Label Summary's agreement table (extension: src/extension/labels/agreement/, webview: webview/agreement). The
// webview posts `ready`; the extension answers `show` with the whole model, and again whenever the label database
// changes. `open` shows one disagreeing unit (of a pair's label row or of the Disagreements list among all
// authors: a step in the step view, a test action in the trace view);
// `copyMarkdown` puts the summary on the clipboard as Markdown and `openMarkdown` opens it as a Markdown preview.
import { array, count, type Infer, message, messages, nullable, object, safeInt, shapeOf, str } from '../core/guards';
import { hoverText } from '../core/glossary';
import type { StepRef } from '../core/labels/model';
import type { WhyRunsFailTable } from './whyRunsFailProtocol';

export const AGREEMENT_VIEW_TYPE = 'personaLab.labelAgreement';

/** The gold section without a settled unit, in the page and in its Markdown copy. */
export const NO_GOLD_TEXT = 'No gold yet: no unit is adjudicated or unanimous between two annotators.';

/** Header tooltips: the columns defined in words, the glossary's terms first. */
export const COLUMN_HELP = {
  label: 'The label; per label, each author’s rating of a shared unit is “present” or “absent”.',
  kappa: `${hoverText('κ')} 1 is full agreement, 0 what chance gives, below 0 worse than chance; n/a† below ten shared units, where one disagreement swings it across the scale.`,
  n: 'Shared units: the steps (or test actions) both authors labelled. Only these are compared.',
  po: `${hoverText('po')} Both gave the label, or both did not.`,
  pe: `${hoverText('pe')} pA·pB + (1 − pA)(1 − pB), with pA and pB the shares of shared units each author gave it.`,
  disagreements:
    'Shared units where one author gave the label and the other did not (only A · only B). Open a row to walk them.',
} as const;

/** Header tooltips of the table per label among all authors. */
export const ALL_AUTHORS_HELP = {
  label: 'The label; each author’s rating of a unit is “present” or “absent”.',
  kappa: `${hoverText('Cohen’s κ')} ${hoverText('Fleiss’ κ')}`,
  kind: 'Cohen: exactly two authors labelled the units compared. Fleiss: three or more (not all of them on every unit).',
  n: 'The units compared: the steps (or test actions) at least two authors labelled.',
  raters: hoverText('raters'),
  po: `${hoverText('po')} For Fleiss’ κ it is ${hoverText('P̄')}`,
  pe: `${hoverText('pe')} For Fleiss’ κ it is ${hoverText('P_e')}`,
  disagreements: 'Units compared where some of their authors gave the label and others did not.',
} as const;

export interface LabelKappaRow {
  label: string;
  name: string;
  kind: 'Cohen' | 'Fleiss';
  /** κ as computed; null when undefined (chance agreement 1). */
  kappa: number | null;
  /** "0.412", "n/a†" (too few units) or "n/a" (undefined); kappaNote says why. */
  kappaText: string;
  kappaNote: string | null;
  n: number;
  raters: number;
  poText: string;
  peText: string;
  disagreements: number;
}

/** One label an author gave a disagreeing unit; `disputed` when some of the unit's authors did not give it. */
export interface SaidLabel {
  name: string;
  disputed: boolean;
}

export interface UnitDisagreementRow {
  /** The unit's stepKey: unique in its benchmark. */
  id: string;
  ref: StepRef;
  where: string;
  /** One cell per author of the table, in its `authors` order; null where the author did not label the unit. */
  said: (SaidLabel[] | null)[];
}

/** Per label among every author of a benchmark, and the units where their labels differ. */
export interface AllAuthorsTable {
  authors: string[];
  /** "4 steps done by at least two of 3 authors" */
  unitsText: string;
  rows: LabelKappaRow[];
  /** The † note under the table, null when κ is given. */
  note: string | null;
  disagreements: UnitDisagreementRow[];
}

export interface DisagreementItem {
  ref: StepRef;
  /** "weibo · we_123 · step 3 · run demo-llm" */
  where: string;
  /** "only alice gave D_decay pick" */
  givenBy: string;
  /** What each author gave the unit, A first: label names joined, "(none)" never (both labelled it). */
  said: { author: string; labels: string }[];
}

export interface KappaCells {
  /** κ as computed; null when undefined (pe = 1). */
  kappa: number | null;
  /** The cell: "0.412", "n/a†" (too few shared units) or "n/a" (undefined); kappaNote says why. */
  kappaText: string;
  /** Why the cell says n/a; null when it gives a value. */
  kappaNote: string | null;
  n: number;
  poText: string;
  peText: string;
  onlyA: number;
  onlyB: number;
  disagreements: number;
}

export interface LabelAgreementRow extends KappaCells {
  /** The label id. */
  label: string;
  name: string;
  items: DisagreementItem[];
}

export interface PairTable {
  /** "sample\u0000alice\u0000bob": unique in the model. */
  id: string;
  authorA: string;
  authorB: string;
  /** "2 shared steps" */
  unitsText: string;
  overall: KappaCells;
  rows: LabelAgreementRow[];
  /** The † note under the table, null when κ is given. */
  note: string | null;
}

export interface BenchmarkTables {
  benchmark: string;
  /** "sample: " and the format's units ("steps", "questions") */
  title: string;
  allAuthors: AllAuthorsTable;
  pairs: PairTable[];
}

export interface LabelCounts {
  platforms: string[];
  rows: { label: string; name: string; counts: number[]; total: number }[];
  totals: number[];
  total: number;
}

/** One annotator against gold on one label (or every label pooled: label ''), as text cells. */
export interface GoldFigureRow {
  label: string;
  name: string;
  precision: string;
  recall: string;
  kappa: string;
  /** The 95 % bootstrap interval of κ over the settled units: "[0.21, 0.80]" or "[n/a]". */
  interval: string;
}

/** The gold set of one benchmark: its units' status, each annotator against gold, and why its runs fail. */
export interface GoldTables {
  benchmark: string;
  /** "4 steps: 1 adjudicated, 2 unanimous, 1 open, 0 by one annotator only" */
  countsText: string;
  counts: { units: number; adjudicated: number; unanimous: number; open: number; single: number };
  annotators: { author: string; units: number; adjudicated: number; rows: GoldFigureRow[] }[];
  /** The why-runs-fail table (every label some run's gold has, a column per run). */
  whyRunsFail: WhyRunsFailTable;
}

export interface AgreementModel {
  /** The label database. */
  source: string;
  /** "14 label(s) by 2 author(s)" */
  summary: string;
  authors: { name: string; labels: number }[];
  /** Why the database could not be read; null when it could (or does not exist yet). */
  error: string | null;
  benchmarks: BenchmarkTables[];
  counts: LabelCounts;
  /** Per benchmark with gold (a decision, or a unit two annotators labelled alike); [] before any. */
  gold: GoldTables[];
  /** Why the adjudicators' decisions could not be read; null when they could. */
  goldError: string | null;
  /** What is being read before the label server's decisions first answer (`gold` is then []); null once read. */
  goldReading: string | null;
}

const agreementModel = shapeOf<AgreementModel>()({
  source: str,
  summary: str,
  authors: array,
  error: nullable(str),
  benchmarks: array,
  counts: object({ platforms: array, rows: array, totals: array, total: count }),
  gold: array,
  goldError: nullable(str),
  goldReading: nullable(str),
});

export const isExtensionToWebview = messages(message('show', { model: agreementModel }));
export type ExtensionToWebview = Infer<typeof isExtensionToWebview>;

const stepRef = object({ benchmark: str, platform: str, userId: str, stepId: safeInt, run: str });

export const isWebviewToExtension = messages(
  message('ready'),
  message('open', { ref: stepRef }),
  message('copyMarkdown'),
  message('openMarkdown'),
  /** Start the adjudication pass over the Disagreements list. */
  message('adjudicate'),
);
export type WebviewToExtension = Infer<typeof isWebviewToExtension>;
