// The PI audit of an OmniBehavior benchmark: the profile, the context text, OCR / ASR, search keywords, dialogue turns
// and other action text of every raw record, and per run the predictions' raw outputs and predicted values.
// Records are read one at a time from their byte ranges (the history index of the loaded benchmark), never a whole
// user file; predictions line by line. Each finding names its file, line, JSON path and span, and the test action and
// history item it belongs to, so that a click can open the trace there.
import { openRegularHandle } from '../io/safeFs';
import { basename, join } from 'node:path';
import { isRecord as isObj } from '../guards';
import { parseJsonText } from '../io/jsonl';
import { lineOf, scanJsonLines } from '../labels/jsonLines';
import type { LabelTarget } from '../labels/model';
import { TRACE_PLATFORM } from './labels/labelSet';
import type { OmniBenchmark, OmniUser } from './types';
import { findingKey, type AuditOptions } from '../pi/tally';
import type { PiCategory } from '../pi/placeholders';
import { AuditTally, readScanLines, sizeOf } from '../pi/tally';
import type { Finding } from '../pi/types';
import type { PiArea } from '../pi/spans';

/** Where in a trace a text comes from; the count rows are per source and part. */
export const OMNI_PARTS = ['profile', 'context', 'ocr-asr', 'search', 'dialogue', 'action', 'prediction'] as const;
export type OmniPart = (typeof OMNI_PARTS)[number];

export interface OmniAuditFinding extends Finding {
  /** Relative to the benchmark root: raw/<user>.json or results/<run>/predictions.jsonl. */
  file: string;
  /** 1-based line of the string in the file (pretty-printed records span lines). */
  line: number;
  /** JSON path of the string, e.g. `action_history[12].context.caption`; start/end are offsets into its value. */
  field: string;
  /** Always 'omnibehavior' (the verdict store's platform column). */
  platform: typeof TRACE_PLATFORM;
  userId: string;
  /** The run for predictions; null for the raw files. */
  run: string | null;
  part: OmniPart;
  /** The record's position in action_history; null for the profile and for predictions. */
  recordIndex: number | null;
  /**
   * The test action to open: the prediction's own; the record itself when it is a test action; else the first test
   * action after the record (whose history holds it); for the profile the user's first. null when there is none.
   */
  testAction: number | null;
  /** recordIndex when the record lies in testAction's history (recordIndex < testAction), else null. */
  historyIndex: number | null;
  /** = testAction (the verdict store's step column). */
  stepId: number | null;
  /** Stable identity for verdicts: location, span, category and a hash of the text. */
  key: string;
}

/** `source` is 'raw' for the user files, else the run name. */
export interface OmniCountRow {
  source: string;
  part: OmniPart;
  category: PiCategory;
  placeholders: number;
  findings: number;
}

export interface OmniAuditResult {
  format: 'omnibehavior';
  root: string;
  benchmark: string;
  findings: OmniAuditFinding[];
  counts: OmniCountRow[];
  scanned: { files: number; lines: number; texts: number; chars: number };
  problems: string[];
  cancelled: boolean;
}

const OCR_ASR = new Set(['ocr', 'asr', 'ocr_text', 'asr_text']);
// Counts, times, prices and flags: numbers in the spec; as strings they are digits that only look like phone numbers.
const NOT_TEXT = /(?:^is_|_cnt$|_count$|_amount$|_num$|timestamp$|^duration$|price$)/;

type Obj = Record<string, unknown>;

/** One string to scan: its path inside the record (or line) and the part it belongs to. */
interface Text {
  rel: string;
  part: OmniPart;
  value: string;
}

/** Every string under `value`, with its path (scanJsonLines' syntax); keys in `skip` are left out. */
function strings(value: unknown, rel: string, part: OmniPart, out: Text[], skip?: (key: string) => boolean): void {
  if (typeof value === 'string') {
    if (value !== '') out.push({ rel, part, value });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => strings(v, `${rel}[${i}]`, part, out, skip));
  } else if (isObj(value)) {
    for (const [k, v] of Object.entries(value)) if (!skip?.(k)) strings(v, rel ? `${rel}.${k}` : k, part, out, skip);
  }
}

/** The texts of one raw record, in file order of its parts. */
export function recordTexts(rec: Obj): Text[] {
  const out: Text[] = [];
  if (isObj(rec.context)) {
    for (const [k, v] of Object.entries(rec.context)) {
      if (NOT_TEXT.test(k)) continue;
      strings(v, `context.${k}`, OCR_ASR.has(k) ? 'ocr-asr' : 'context', out);
    }
  }
  if (Array.isArray(rec.action)) {
    rec.action.forEach((a: unknown, i) => {
      if (!isObj(a)) return;
      const part: OmniPart = a.type === 'search' ? 'search' : a.type === 'dialogue' ? 'dialogue' : 'action';
      strings(a, `action[${i}]`, part, out, (k) => k === 'type' || k === 'role' || NOT_TEXT.test(k));
    });
  }
  return out;
}

interface Place {
  file: string;
  userId: string;
  run: string | null;
  recordIndex: number | null;
  testAction: number | null;
}

class Collector extends AuditTally<OmniPart> {
  readonly findings: OmniAuditFinding[] = [];

  /** Scans the texts of one record or line; `lineOf(rel)` is asked only when a text has a finding. */
  scan(place: Place, prefix: string, texts: readonly Text[], lineAt: (rel: string) => number): void {
    for (const t of texts) {
      for (const f of this.countText(place.run ?? 'raw', t.part, t.value)) {
        const { recordIndex, testAction } = place;
        const historyIndex =
          recordIndex !== null && testAction !== null && recordIndex < testAction ? recordIndex : null;
        const located: Omit<OmniAuditFinding, 'key'> = {
          ...f,
          file: place.file,
          line: lineAt(t.rel),
          field: prefix + (prefix && !t.rel.startsWith('[') ? '.' : '') + t.rel,
          platform: TRACE_PLATFORM,
          userId: place.userId,
          run: place.run,
          part: t.part,
          recordIndex,
          testAction,
          historyIndex,
          stepId: testAction,
        };
        this.findings.push({ ...located, key: findingKey(located) });
      }
    }
  }

  rows(): OmniCountRow[] {
    return this.partRows('raw', OMNI_PARTS);
  }
}

/**
 * Where a finding sits in a trace: the test action to open and, when the text is in a record of its history, that
 * history item (as a label target: a 'pi-leak' label can go right there). null without a test action (a record after
 * the user's last one, or a user without test actions).
 */
export function findingTraceTarget(
  f: Pick<OmniAuditFinding, 'userId' | 'testAction' | 'historyIndex'>,
): { userId: string; index: number; target: LabelTarget } | null {
  if (f.testAction === null) return null;
  const target: LabelTarget =
    f.historyIndex === null ? { kind: 'action' } : { kind: 'history', historyIndex: f.historyIndex };
  return { userId: f.userId, index: f.testAction, target };
}

/**
 * The findings the trace view of test action `index` shows: the profile's, those of the records up to the test
 * action's own, and those of its prediction.
 */
export function findingsInTrace<F extends Pick<OmniAuditFinding, 'userId' | 'part' | 'recordIndex' | 'testAction'>>(
  findings: readonly F[],
  userId: string,
  index: number,
): F[] {
  return findings.filter(
    (f) =>
      f.userId === userId &&
      (f.part === 'profile' ||
        (f.part === 'prediction' ? f.testAction === index : f.recordIndex !== null && f.recordIndex <= index)),
  );
}

/** The first test action at or after record `k` (test actions are sorted by index); null when none. */
export function testActionFor(user: Pick<OmniUser, 'testActions'>, k: number): number | null {
  const list = user.testActions;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].index < k) lo = mid + 1;
    else hi = mid;
  }
  return lo < list.length ? list[lo].index : null;
}

const BATCH_BYTES = 4 << 20;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Progress {
  done: number;
  total: number;
  report: (bytes: number) => void;
}

/** Scans one user's file: the profile, then each record from its byte range, in batches of contiguous records. */
async function scanUser(
  c: Collector,
  user: OmniUser,
  opts: AuditOptions,
  problems: string[],
  progress: Progress,
): Promise<void> {
  const ix = user.index;
  const handle = openRegularHandle(user.file);
  try {
    // The profile sits before the history in the files we know; its line comes from the text up to the first record.
    const headLen = ix.count > 0 ? Math.min(ix.offsets[0], BATCH_BYTES) : Math.min(handle.size, BATCH_BYTES);
    const head = Buffer.alloc(headLen);
    await handle.read(head, 0, headLen, 0);
    const profilePath = `${user.userId}.user_profile`;
    const place = (recordIndex: number | null, testAction: number | null): Place => ({
      file: user.relFile,
      userId: user.userId,
      run: null,
      recordIndex,
      testAction,
    });
    c.scan(
      place(null, user.testActions[0]?.index ?? null),
      '',
      user.profile ? [{ rel: 'user_profile', part: 'profile', value: user.profile }] : [],
      () => lineOf(scanJsonLines(head.toString('utf8')), profilePath),
    );
    let i = 0;
    while (i < ix.count) {
      if (opts.signal?.aborted) return;
      const start = ix.offsets[i];
      let j = i + 1;
      while (j < ix.count && ix.offsets[j] + ix.lengths[j] - start <= BATCH_BYTES) j++;
      const end = ix.offsets[j - 1] + ix.lengths[j - 1];
      const bytes = Buffer.alloc(end - start);
      await handle.read(bytes, 0, bytes.length, start);
      for (let k = i; k < j; k++) {
        const text = bytes.subarray(ix.offsets[k] - start, ix.offsets[k] - start + ix.lengths[k]).toString('utf8');
        const parsed = parseJsonText(text);
        if (!parsed.ok || !isObj(parsed.value)) {
          problems.push(
            `${user.relFile}:${ix.lines[k]}: action_history[${k}]: ${parsed.ok ? 'not a JSON object' : parsed.message}; not scanned`,
          );
          continue;
        }
        let lines: ReturnType<typeof scanJsonLines> | undefined;
        c.scan(place(k, testActionFor(user, k)), `action_history[${k}]`, recordTexts(parsed.value), (rel) => {
          lines ??= scanJsonLines(text);
          return ix.lines[k] + lineOf(lines, rel) - 1;
        });
      }
      progress.report(progress.done + end);
      i = j;
      await yieldToLoop();
    }
  } finally {
    await handle.close();
  }
}

/** The texts of one predictions line: each question's raw output and predicted value. */
export function predictionTexts(rec: Obj): Text[] {
  const out: Text[] = [];
  if (!Array.isArray(rec.questions)) return out;
  rec.questions.forEach((q: unknown, i) => {
    if (!isObj(q)) return;
    for (const k of ['raw_output', 'predicted_value']) {
      const v = q[k];
      if (typeof v === 'string' && v !== '') out.push({ rel: `questions[${i}].${k}`, part: 'prediction', value: v });
    }
  });
  return out;
}

/** Scans the benchmark's files from disk. Unreadable records and lines become `problems`; it never throws on data. */
export async function auditOmni(bench: OmniBenchmark, opts: AuditOptions = {}): Promise<OmniAuditResult> {
  const users = [...bench.users.values()];
  const runs = [...bench.runs.values()].filter((r) => !opts.runs || opts.runs.includes(r.name));
  const sizes = new Map<string, number>();
  for (const u of users) sizes.set(u.file, sizeOf(u.file));
  for (const r of runs) sizes.set(join(bench.root, r.file), sizeOf(join(bench.root, r.file)));
  const total = [...sizes.values()].reduce((s, n) => s + n, 0);
  const progress: Progress = { done: 0, total, report: (bytes) => opts.onProgress?.(bytes, total) };
  const c = new Collector(opts);
  const problems: string[] = [];
  let lines = 0;
  let files = 0;
  for (const user of users) {
    if (opts.signal?.aborted) break;
    files++;
    try {
      await scanUser(c, user, opts, problems, progress);
    } catch (err) {
      problems.push(`${user.relFile}: cannot read: ${(err as Error).message}`);
    }
    lines += user.historyLength;
    progress.done += sizes.get(user.file) ?? 0;
    progress.report(progress.done);
  }
  for (const run of runs) {
    if (opts.signal?.aborted) break;
    files++;
    const abs = join(bench.root, run.file);
    const base = progress.done;
    lines += await readScanLines(
      abs,
      run.file,
      problems,
      opts.signal,
      (rec, line) => {
        const userId = typeof rec.user_id === 'string' ? rec.user_id : '';
        const index = Number.isSafeInteger(rec.index) ? (rec.index as number) : null;
        c.scan(
          { file: run.file, userId, run: run.name, recordIndex: null, testAction: index },
          '',
          predictionTexts(rec),
          () => line,
        );
      },
      (bytes) => progress.report(base + bytes),
    );
    progress.done = base + (sizes.get(abs) ?? 0);
  }
  return {
    format: 'omnibehavior',
    root: bench.root,
    benchmark: opts.benchmark ?? basename(bench.root),
    findings: c.findings,
    counts: c.rows(),
    scanned: { files, lines, texts: c.texts, chars: c.chars },
    problems,
    cancelled: Boolean(opts.signal?.aborted),
  };
}

/** Where the trace view shows an audit finding, from its part and record. */
export function traceFindingArea(f: { part: string; recordIndex: number | null; testAction: number | null }): PiArea {
  if (f.part === 'profile') return 'profile';
  if (f.part === 'prediction') return 'prediction';
  return f.recordIndex !== null && f.recordIndex === f.testAction ? 'action' : 'record';
}
