// The options and output of `persona-lab labels`, apart so that its helpers (labelServer.ts, audit.ts) import no cycle.
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
