// The dashboards' "why runs fail" section of one benchmark: the gold units of its labels and decisions
// (core goldUnits, no bootstrap: the dashboards need no interval), counted per run by core whyRunsFail, the same rows
// `labels gold --json` prints under `runs`; with what it covers (the store, the benchmark's key, how many units are
// settled) or why there is no table. No vscode here: a unit test builds it from rows.
import { countsText, goldUnits } from '../../../core/labels/goldReport';
import type { LabelRow } from '../../../core/labels/model';
import { nounOrNouns, platformUnitNoun, type UnitNamer } from '../../../core/labels/unitNoun';
import { whyRunsFail } from '../../../core/labels/whyRunsFail';
import { whyRunsFailTable, type WhyRunsFailSection } from '../../../shared/whyRunsFailProtocol';
import { READING_DECISIONS, type LiveDecisions } from './decisionSource';

export interface WhyRunsFailInput {
  /** Where the labels are: the label database file, or the label server (its URL). */
  source: string;
  /** Whether the label store exists yet. */
  exists: boolean;
  /** Why the store cannot be read; null when it can. */
  error: string | null;
  /** The benchmark's key in the store (its folder's name); undefined when the benchmark has no folder. */
  benchmark: string | undefined;
  /** The benchmark's labels (rows of other benchmarks are left out). */
  rows: readonly LabelRow[];
  /** The adjudicators' decisions; `reading` before the label server's first answer. */
  decisions: LiveDecisions;
  names: ReadonlyMap<string, string>;
  /** What the benchmark's units are called (its format's noun); by the rows' platforms when not given. */
  unitOf?: UnitNamer;
}

const HOW = 'Persona Lab: Adjudicate Labels… settles the units annotators differ on';

export function whyRunsFailSection(i: WhyRunsFailInput): WhyRunsFailSection {
  const none = (state: WhyRunsFailSection['state'], covers: string, message: string): WhyRunsFailSection => ({
    state,
    covers,
    settled: '',
    message,
    table: null,
  });
  if (i.benchmark === undefined)
    return none('no-benchmark', `Labels in ${i.source}.`, 'This benchmark has no folder: no labels are kept for it.');
  const covers = `Gold of the benchmark "${i.benchmark}" in ${i.source}, every project's units.`;
  if (i.error !== null) return none('error', covers, `The labels cannot be read: ${i.error}`);
  if ('error' in i.decisions) return none('error', covers, `The decisions cannot be read: ${i.decisions.error}`);
  // Without the decisions no count is true yet: an adjudicated unit would show as open.
  if ('reading' in i.decisions) return none('reading', covers, READING_DECISIONS);
  if (!i.exists)
    return none(
      'no-store',
      `No label store yet: ${i.source} does not exist.`,
      'No labels yet. Label this benchmark (two or more annotators on the same units), then settle them: ' +
        `${HOW}. Each run's gold labels are counted here.`,
    );
  const keep = (ref: { benchmark: string }) => ref.benchmark === i.benchmark;
  const [b] = goldUnits(i.rows, i.decisions.adjudications, keep, i.unitOf ?? platformUnitNoun);
  const settled = b ? b.counts.adjudicated + b.counts.unanimous : 0;
  const counts = b ? countsText(b.counts, nounOrNouns(b.unit)) : '';
  if (!b || settled === 0)
    return {
      state: 'no-gold',
      covers,
      settled: counts,
      message:
        'No gold yet: no unit of this benchmark is adjudicated or unanimous between two annotators. ' +
        `Only settled units count here; ${HOW}.`,
      table: null,
    };
  const name = (id: string) => i.names.get(id) ?? id;
  return {
    state: 'shown',
    covers,
    settled: `${counts}. Only the ${settled} settled count; a share is of a run's settled units with a failure label.`,
    message: null,
    table: whyRunsFailTable(whyRunsFail({ benchmarks: [b] }), name),
  };
}
