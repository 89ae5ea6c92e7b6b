// A step result whose reasoning and persona stay on disk until read: a cold load skims them (io/skim.ts) and the
// index keeps their byte spans, so neither decodes nor holds the texts a job does not show.
import { closeSync, fstatSync, readSync, statSync } from 'node:fs';
import { isFsError, openRegularOrThrow } from '../../io/safeFs';
import { spanString } from '../../io/skim';
import { scoreStep } from '../score/step';
import type { PoolSplit, StepMetrics, StepResult } from '../types';

/** Where a skipped string is: its JSON token's first byte in the file and its byte length (0: no string, ''). */
export interface TextSpans {
  reasoningAt: number;
  reasoningLength: number;
  personaAt: number;
  personaLength: number;
}

/** The results file the spans point into, as it was when they were found: a file changed since reads as ''. */
export interface SpanSource {
  path: string;
  size: number;
  mtimeMs: number;
}

/** The file as it is now; undefined when it cannot be read (its spans then read as ''). */
export function spanSource(path: string): SpanSource | undefined {
  try {
    const st = statSync(path);
    return { path, size: st.size, mtimeMs: st.mtimeMs };
  } catch (err) {
    if (isFsError(err)) return undefined;
    throw err;
  }
}

/**
 * The stored metrics as kept: the object when it is not the step's score to the bit, else the split that scores it
 * (shared with the task), so that the common case holds no object of its own.
 */
export type KeptMetrics = StepMetrics | null | undefined | { scoredBy: PoolSplit };

/** The stored metrics that `kept` stands for. */
export function storedMetricsOf(kept: KeptMetrics, prediction: readonly unknown[]): StepMetrics | null | undefined {
  return kept && 'scoredBy' in kept ? scoreStep(kept.scoredBy, prediction) : kept;
}

export class FileStepResult implements StepResult {
  constructor(
    readonly stepId: number,
    readonly prediction: unknown[],
    private readonly metrics: KeptMetrics,
    readonly line: number,
    readonly file: SpanSource,
    readonly reasoningAt: number,
    readonly reasoningLength: number,
    readonly personaAt: number,
    readonly personaLength: number,
  ) {}

  get storedMetrics(): StepMetrics | null | undefined {
    return storedMetricsOf(this.metrics, this.prediction);
  }

  /** Whether the stored metrics are the step's score to the bit, as the read found: the index says so unscored. */
  get storedIsScore(): boolean {
    return !!this.metrics && 'scoredBy' in this.metrics;
  }

  get reasoning(): string {
    return readSpan(this.file, this.reasoningAt, this.reasoningLength);
  }
  get personaSummary(): string {
    return readSpan(this.file, this.personaAt, this.personaLength);
  }

  /** What a plain step result gives, texts included: where they sit on disk is this process's business. */
  toJSON(): StepResult {
    const { stepId, prediction, storedMetrics, reasoning, personaSummary, line } = this;
    return { stepId, prediction, storedMetrics, reasoning, personaSummary, line };
  }
}

const WINDOW = 1 << 14;
// The last bytes read, kept until the event loop turns: a view or an audit reads the steps of a row one after
// another, and they sit side by side in the file. Dropped soon, so that a file rewritten later is read afresh.
let window: { file: SpanSource; at: number; bytes: Buffer } | undefined;

/** The string at a span, or '' when there is none or the file changed since the span was found. */
export function readSpan(file: SpanSource, at: number, length: number): string {
  if (length === 0) return '';
  let bytes: Buffer;
  if (window && window.file === file && at >= window.at && at + length <= window.at + window.bytes.length) {
    bytes = window.bytes.subarray(at - window.at, at - window.at + length);
  } else {
    const read = Buffer.allocUnsafe(Math.max(length, WINDOW));
    let got: number;
    try {
      const fd = openRegularOrThrow(file.path).fd;
      try {
        const st = fstatSync(fd);
        if (st.size !== file.size || st.mtimeMs !== file.mtimeMs) return '';
        got = readSync(fd, read, 0, read.length, at);
      } finally {
        closeSync(fd);
      }
    } catch (err) {
      if (isFsError(err)) return ''; // gone or unreadable since the load, as for a tasks line
      throw err;
    }
    if (!window) setImmediate(() => (window = undefined));
    window = { file, at, bytes: read.subarray(0, got) };
    if (got < length) return '';
    bytes = read.subarray(0, length);
  }
  return spanString(bytes) ?? '';
}
