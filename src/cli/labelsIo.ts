// The options and output of `persona-lab labels`, apart so that its helpers (labelServer.ts, audit.ts) import no cycle.
import { formatLabelSets } from '../core/formats';
import { defaultLabelSet, loadLabelSet, type LabelSet } from '../core/labels/taxonomy';

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
