// "Why runs fail" as the run dashboards show it (each format's dashboard mounts the one section: webview/shared/
// whyRunsFail.ts) and as the Label Agreement's gold part shows it: the rows of core/labels/whyRunsFail.ts (the figures
// `labels gold --json` prints under `runs`) as text cells, and what the section covers. The extension posts
// `whyRunsFail` after each `show` of a dashboard and again when the labels or the decisions change.
import type { RunFailures } from '../core/labels/whyRunsFail';
import { array, message, nullable, object, oneOf, shapeOf, str, type Infer } from '../core/guards';

/** A run's gold labels ("why runs fail"): over its settled units only, and what it leaves out. */
export interface GoldRunColumn {
  run: string;
  units: number;
  settled: number;
  failing: number;
  /** Units not settled (open or by one annotator), left out. */
  leftOut: number;
  /** In the table's label order: each label's count and its share of the failing units ("50.0%", "n/a"). */
  cells: { count: number; share: string }[];
}

/** The why-runs-fail table of one benchmark: a row per label some run's gold has, a column per run. */
export interface WhyRunsFailTable {
  labels: { label: string; name: string }[];
  runs: GoldRunColumn[];
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${(100 * x).toFixed(1)}%`);

/** The table of `runs` (one benchmark's rows of whyRunsFail), label names from `name`. */
export function whyRunsFailTable(runs: readonly RunFailures[], name: (id: string) => string): WhyRunsFailTable {
  return {
    labels: (runs[0]?.byLabel ?? []).map((c) => ({ label: c.label, name: name(c.label) })),
    runs: runs.map((r) => ({
      run: r.run,
      units: r.units,
      settled: r.settled,
      failing: r.failing,
      leftOut: r.open + r.single,
      cells: r.byLabel.map((c) => ({ count: c.count, share: pct(c.share) })),
    })),
  };
}

export const WHY_RUNS_FAIL_STATES = ['no-store', 'no-benchmark', 'reading', 'no-gold', 'shown', 'error'] as const;
export type WhyRunsFailState = (typeof WHY_RUNS_FAIL_STATES)[number];

/** The section of a dashboard: the table, or why there is none; always what it covers. */
export interface WhyRunsFailSection {
  state: WhyRunsFailState;
  /** Where the labels and decisions are read, and for which benchmark key. */
  covers: string;
  /** "3 of 5 labelled steps settled (1 adjudicated, 2 unanimous); 2 left out" (empty before any label). */
  settled: string;
  /**
   * Why there is no table (no label store yet, the label server's decisions not read yet, no gold yet, the decisions
   * cannot be read); null when shown.
   */
  message: string | null;
  table: WhyRunsFailTable | null;
}

const whyRunsFailSection = shapeOf<WhyRunsFailSection>()({
  state: oneOf(WHY_RUNS_FAIL_STATES),
  covers: str,
  settled: str,
  message: nullable(str),
  table: nullable(object({ labels: array, runs: array })),
});

/** The message every dashboard protocol adds to its `ExtensionToWebview`. */
export const whyRunsFailMessage = message('whyRunsFail', { section: whyRunsFailSection });
export type WhyRunsFailMessage = Infer<typeof whyRunsFailMessage>;
