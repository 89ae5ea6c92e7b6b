// What every format's PI audit shares: its options, a finding's stable key, per-category counts of placeholders and
// findings by source and group, and reading a JSONL file line by line into objects to scan.
import { statSync } from 'node:fs';
import { isRecord } from '../io/diagnostics';
import { parseRawLine, readLines } from '../io/jsonl';
import { countPlaceholders, emptyCounts, PI_CATEGORIES, type CategoryCounts, type PiCategory } from './placeholders';
import { scanText } from './scanner';
import type { Confidence, Finding, ScanOptions } from './types';
import { crypto } from '../io/builtins';

export interface AuditOptions {
  /** Runs to scan; all when absent, none for []. */
  runs?: readonly string[];
  minConfidence?: Confidence;
  categories?: readonly PiCategory[];
  /** Name used in finding keys and verdicts; the root folder's name by default. */
  benchmark?: string;
  now?: Date;
  signal?: AbortSignal;
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
}

/** How much an audit read. */
export interface AuditScanned {
  files: number;
  lines: number;
  texts: number;
  chars: number;
}

export function textHash(text: string): string {
  return crypto().createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
}

/** Where a finding sits: its file, 1-based line and JSON path, and its span in that string. */
export interface FindingPlace extends Pick<Finding, 'start' | 'end' | 'category' | 'text'> {
  file: string;
  line: number;
  field: string;
}

/** A finding's stable identity for verdicts: location, span, category and a hash of the text. */
export function findingKey(f: FindingPlace): string {
  return `${f.file}:${f.line}:${f.field}:${f.start}-${f.end}:${f.category}:${textHash(f.text)}`;
}

export interface PartRow<G extends string> {
  source: string;
  part: G;
  category: PiCategory;
  placeholders: number;
  findings: number;
}

interface Bucket {
  placeholders: CategoryCounts;
  findings: CategoryCounts;
}

/**
 * Counts by source (the data, or a run) and group (a platform, a trace part) of the texts scanned; each audit's
 * collector extends it.
 */
export class AuditTally<G extends string> {
  texts = 0;
  chars = 0;
  private readonly counts = new Map<string, Bucket>();
  private readonly scanOptions: ScanOptions;

  constructor(opts: ScanOptions) {
    this.scanOptions = { minConfidence: opts.minConfidence, categories: opts.categories, now: opts.now };
  }

  /** Counts the text's placeholders and returns the scanner's findings in it, counted too. */
  countText(source: string, group: G, text: string): Finding[] {
    this.texts++;
    this.chars += text.length;
    const bucket = this.bucket(source, group);
    countPlaceholders(text, bucket.placeholders);
    const found = scanText(text, this.scanOptions);
    for (const f of found) bucket.findings[f.category]++;
    return found;
  }

  private bucket(source: string, group: G): Bucket {
    const k = `${source}\u0000${group}`;
    let b = this.counts.get(k);
    if (!b) this.counts.set(k, (b = { placeholders: emptyCounts(), findings: emptyCounts() }));
    return b;
  }

  /**
   * One row per source, group and category with a placeholder or a finding: `dataSource` first, then the runs by
   * name; groups in `groups` order; categories in PI_CATEGORIES order.
   */
  countRows<R>(
    dataSource: string,
    groups: readonly G[],
    row: (source: string, group: G, category: PiCategory, placeholders: number, findings: number) => R,
  ): R[] {
    const out: { source: string; group: G; category: PiCategory; b: Bucket }[] = [];
    for (const [k, b] of this.counts) {
      const [source, group] = k.split('\u0000') as [string, G];
      for (const category of PI_CATEGORIES) {
        if (b.placeholders[category] || b.findings[category]) out.push({ source, group, category, b });
      }
    }
    const rank = (source: string) => (source === dataSource ? '' : source);
    out.sort(
      (a, b) =>
        (rank(a.source) < rank(b.source) ? -1 : rank(a.source) > rank(b.source) ? 1 : 0) ||
        groups.indexOf(a.group) - groups.indexOf(b.group) ||
        PI_CATEGORIES.indexOf(a.category) - PI_CATEGORIES.indexOf(b.category),
    );
    return out.map((r) => row(r.source, r.group, r.category, r.b.placeholders[r.category], r.b.findings[r.category]));
  }

  /** The rows of countRows with the group as `part`: an audit counted per source and part of an item. */
  partRows(dataSource: string, parts: readonly G[]): PartRow<G>[] {
    return this.countRows(dataSource, parts, (source, part, category, placeholders, findings) => ({
      source,
      part,
      category,
      placeholders,
      findings,
    }));
  }
}

export function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * Reads a JSONL file to scan: each object line goes to `onRecord`; a line that is not one, or a file that cannot be
 * read, becomes a problem (`rel` names the file). Stops calling once `signal` is aborted. Returns the lines read.
 */
export async function readScanLines(
  abs: string,
  rel: string,
  problems: string[],
  signal: AbortSignal | undefined,
  onRecord: (rec: Record<string, unknown>, line: number) => void,
  onProgress: (bytes: number) => void,
): Promise<number> {
  let lines = 0;
  try {
    await readLines(
      abs,
      (raw) => {
        if (signal?.aborted) return;
        lines++;
        const parsed = parseRawLine(raw);
        if (!parsed.ok || !isRecord(parsed.value)) {
          problems.push(`${rel}:${raw.line}: ${parsed.ok ? 'not a JSON object' : parsed.message}; not scanned`);
          return;
        }
        onRecord(parsed.value, raw.line);
      },
      onProgress,
    );
  } catch (err) {
    problems.push(`${rel}: cannot read: ${(err as Error).message}`);
  }
  return lines;
}
