// The options and output of `persona-lab labels`, apart so that its helpers (labelServer.ts, audit.ts) import no cycle.
import { detectFormat, formatLabelSets } from '../core/formats';
import { defaultLabelSet, loadLabelSet, type LabelSet } from '../core/labels/taxonomy';
import { benchmarkId } from '../core/labels/model';
import { unitNamer, type UnitNamer } from '../core/labels/unitNoun';
import type { ScoreRow } from '../core/labels/scores';

export interface LabelsCliOptions {
  run?: string[];
  'no-cache'?: boolean;
  out?: string;
  format?: string;
  conflicts?: string;
  resolve?: string[];
  'dry-run'?: boolean;
  json?: boolean;
  'label-set'?: string;
  project?: string;
}

export interface CliIo {
  /** Raw text, as is. */
  write: (text: string) => void;
  out: (line: string) => void;
  err: (line: string) => void;
}

/** The label set `--label-set` names (else the defaults), with the sets every format adds: a summary names them all. */
export function cliLabelSet(opts: Pick<LabelsCliOptions, 'label-set'>): LabelSet {
  const formatSets = formatLabelSets();
  const file = opts['label-set'];
  return file ? loadLabelSet(file, file, { formatSets }) : defaultLabelSet([], formatSets);
}

/** The benchmark of `folder` (when given) named by its format's unit; a database's other benchmarks by their rows. */
export function cliUnitNamer(folder: string | undefined): UnitNamer {
  const format = folder === undefined ? undefined : detectFormat(folder);
  const id = folder === undefined ? undefined : benchmarkId(folder);
  return unitNamer((benchmark) => (benchmark === id ? format : undefined));
}

/** A format's `labels judge`: people's scores in its folder's label database against its LLM judge, for one run. */
export interface LabelsJudgeCommand {
  /** Its lines in `labels --help`. */
  readonly usage: string;
  /** Its line in the top-level help and `labels judge --help`. */
  readonly line: string;
  /** Two examples for `labels judge --help`. */
  readonly examples: readonly [string, string];
  /** What the command needs when the folder is not of this format ("an … folder"). */
  readonly folder: string;
  /**
   * Runs it on `folder` and run `runName`; `readScores` reads the run's scores from the database (null when it
   * cannot be opened: the error is written). Throws `usage(message)` for a run the folder does not hold.
   */
  run(
    folder: string,
    runName: string,
    opts: LabelsCliOptions,
    io: CliIo,
    readScores: () => ScoreRow[] | null,
    usage: (message: string) => Error,
  ): Promise<number>;
}
