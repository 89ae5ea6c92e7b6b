// The PI audit of a PersonaMem folder: every message of every shared context (read one context at a time from its
// byte span in the index, never the whole file), each question's text and options, and per run the model's
// responses. Each finding names its file, line and field (for the report and the source line), and its split,
// context, message and the question to open it in (for the question view).
import { basename, relative } from 'node:path';
import { parseLine } from '../io/jsonl';
import { openRegularHandle } from '../io/safeFs';
import { findingKey, type AuditOptions } from '../pi/tally';
import { AuditTally, sizeOf, type PartRow } from '../pi/tally';
import type { Finding } from '../pi/types';
import type { PersonaMemBench, PmContext, PmQuestion, PmSplit } from './types';

/** The verdict store's platform column for a PersonaMem finding. */
export const PM_PLATFORM = 'personamem';

/** Where a text comes from; the count rows are per source and part. */
export const PM_PARTS = ['history', 'question', 'options', 'response'] as const;
export type PmAuditPart = (typeof PM_PARTS)[number];

export interface PmAuditFinding extends Finding {
  /** Relative to the folder: shared_contexts_<size>.jsonl, questions_<size>.csv or results/<file>.csv. */
  file: string;
  /** 1-based line: the context's JSONL line, the question's CSV record, the result row. */
  line: number;
  /** `<context id>[<message>].content`, or the CSV column; start/end are offsets into that text. */
  field: string;
  platform: typeof PM_PLATFORM;
  /** The persona the text belongs to (of the context's first question for a message; '' when no question has it). */
  userId: string;
  split: string;
  contextId: string;
  /** The message's index in its context; null for a question's or a response's text. */
  messageIndex: number | null;
  /** The question to open: its own, or for a message the context's first question whose history holds it. */
  questionId: string | null;
  run: string | null;
  part: PmAuditPart;
  /** = messageIndex (the verdict store's step column). */
  stepId: number | null;
  key: string;
}

/** `source` is 'data' for the released files, else the run name. */
export type PmCountRow = PartRow<PmAuditPart>;

export interface PmAuditResult {
  format: 'personamem';
  root: string;
  benchmark: string;
  findings: PmAuditFinding[];
  counts: PmCountRow[];
  scanned: { files: number; lines: number; texts: number; chars: number };
  problems: string[];
  cancelled: boolean;
}

type Place = Omit<PmAuditFinding, keyof Finding | 'key' | 'part' | 'stepId'>;

class Collector extends AuditTally<PmAuditPart> {
  readonly findings: PmAuditFinding[] = [];

  scan(place: Place, part: PmAuditPart, text: string): void {
    if (text === '') return;
    for (const f of this.countText(place.run ?? 'data', part, text)) {
      const located = { ...f, ...place, part, stepId: place.messageIndex };
      this.findings.push({ ...located, key: findingKey(located) });
    }
  }

  rows(): PmCountRow[] {
    return this.partRows('data', PM_PARTS);
  }
}

/**
 * Per context of a split, its questions sorted by end index (file order among equals): a message opens in the first
 * whose history holds it (end index above it), the earliest point at which a model saw it.
 */
export function questionsByContext(split: Pick<PmSplit, 'questions'>): Map<string, PmQuestion[]> {
  const out = new Map<string, PmQuestion[]>();
  for (const q of split.questions) out.set(q.contextId, [...(out.get(q.contextId) ?? []), q]);
  for (const list of out.values()) list.sort((a, b) => (a.endIndex ?? -1) - (b.endIndex ?? -1));
  return out;
}

/** The first of `sorted` (questionsByContext) whose history holds message `index`; undefined when none does. */
export function questionSeeing(sorted: readonly PmQuestion[], index: number): PmQuestion | undefined {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid].endIndex ?? -1) <= index) lo = mid + 1;
    else hi = mid;
  }
  return sorted[lo];
}

/**
 * The findings the question view of `q` shows: those in the messages its history holds (below its end index), in
 * its own question and options, and in its responses (of `run` when given, else of every run).
 */
export function findingsInQuestion<
  F extends Pick<PmAuditFinding, 'split' | 'contextId' | 'messageIndex' | 'questionId' | 'run' | 'part'>,
>(findings: readonly F[], q: Pick<PmQuestion, 'split' | 'contextId' | 'questionId' | 'endIndex'>, run?: string): F[] {
  const end = q.endIndex ?? 0;
  return findings.filter((f) =>
    f.split !== q.split
      ? false
      : f.part === 'history'
        ? f.contextId === q.contextId && f.messageIndex !== null && f.messageIndex < end
        : f.questionId === q.questionId && (f.part !== 'response' || run === undefined || f.run === run),
  );
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Messages scanned between two yields to the event loop. */
const YIELD_EVERY = 2000;

/** Scans each message of one context, read from its byte span; a line that no longer parses is a problem. */
async function scanContext(
  c: Collector,
  bench: PersonaMemBench,
  split: PmSplit,
  ctx: PmContext,
  seeing: readonly PmQuestion[],
  problems: string[],
  signal: AbortSignal | undefined,
): Promise<void> {
  const rel = relative(bench.root, ctx.file);
  const handle = openRegularHandle(ctx.file);
  const bytes = Buffer.alloc(ctx.length);
  try {
    await handle.read(bytes, 0, ctx.length, ctx.offset);
  } finally {
    await handle.close();
  }
  const parsed = parseLine(bytes);
  const list =
    parsed.ok && typeof parsed.value === 'object' && parsed.value !== null
      ? (parsed.value as Record<string, unknown>)[ctx.id]
      : undefined;
  if (!Array.isArray(list)) {
    problems.push(`${rel}:${ctx.line}: ${ctx.id}: changed since it was indexed; not scanned`);
    return;
  }
  const persona = seeing[0]?.personaId ?? '';
  for (let i = 0; i < list.length; i++) {
    // A 1M-token context is tens of thousands of messages: let the host breathe, and stop when asked.
    if (i % YIELD_EVERY === YIELD_EVERY - 1) {
      await yieldToLoop();
      if (signal?.aborted) return;
    }
    const m: unknown = list[i];
    const content = typeof m === 'object' && m !== null ? (m as { content?: unknown }).content : undefined;
    if (typeof content !== 'string') continue;
    const q = questionSeeing(seeing, i);
    c.scan(
      {
        file: rel,
        line: ctx.line,
        field: `${ctx.id}[${i}].content`,
        platform: PM_PLATFORM,
        userId: q?.personaId ?? persona,
        split: split.size,
        contextId: ctx.id,
        messageIndex: i,
        questionId: q?.questionId ?? null,
        run: null,
      },
      'history',
      content,
    );
  }
}

/** Scans the folder from disk. Unreadable contexts become `problems`; it never throws on data. */
export async function auditPersonaMem(bench: PersonaMemBench, opts: AuditOptions = {}): Promise<PmAuditResult> {
  const splits = [...bench.splits.values()];
  const runs = [...bench.runs.values()].filter((r) => !opts.runs || opts.runs.includes(r.name));
  const contextBytes = splits.reduce((n, s) => n + [...s.contexts.values()].reduce((m, x) => m + x.length, 0), 0);
  const total = contextBytes + splits.reduce((n, s) => n + sizeOf(s.questionsFile), 0);
  const c = new Collector(opts);
  const problems: string[] = [];
  let done = 0;
  let lines = 0;
  let files = 0;
  const aborted = () => Boolean(opts.signal?.aborted);
  for (const split of splits) {
    if (aborted()) break;
    const byContext = questionsByContext(split);
    if (split.contextsFile) files++;
    for (const ctx of split.contexts.values()) {
      if (aborted()) break;
      try {
        await scanContext(c, bench, split, ctx, byContext.get(ctx.id) ?? [], problems, opts.signal);
      } catch (err) {
        problems.push(`${relative(bench.root, ctx.file)}:${ctx.line}: cannot read: ${(err as Error).message}`);
      }
      lines++;
      done += ctx.length;
      opts.onProgress?.(done, total);
      await yieldToLoop();
    }
    if (aborted()) break;
    files++;
    const file = relative(bench.root, split.questionsFile);
    for (const q of split.questions) {
      lines++;
      const place: Place = {
        file,
        line: q.line,
        field: '',
        platform: PM_PLATFORM,
        userId: q.personaId,
        split: split.size,
        contextId: q.contextId,
        messageIndex: null,
        questionId: q.questionId,
        run: null,
      };
      c.scan({ ...place, field: 'user_question_or_message' }, 'question', q.question);
      c.scan({ ...place, field: 'all_options' }, 'options', q.optionsText);
    }
    done += sizeOf(split.questionsFile);
    opts.onProgress?.(done, total);
  }
  for (const run of runs) {
    if (aborted()) break;
    const split = bench.splits.get(run.split);
    const byId = new Map(split?.questions.map((q) => [q.questionId, q]));
    files++;
    for (const row of run.rows) {
      lines++;
      const q = byId.get(row.questionId);
      c.scan(
        {
          file: relative(bench.root, run.file),
          line: row.line,
          field: 'model_response',
          platform: PM_PLATFORM,
          userId: row.personaId,
          split: run.split,
          contextId: q?.contextId ?? '',
          messageIndex: null,
          questionId: q ? q.questionId : null,
          run: run.name,
        },
        'response',
        row.modelResponse ?? '',
      );
    }
  }
  return {
    format: 'personamem',
    root: bench.root,
    benchmark: opts.benchmark ?? basename(bench.root),
    findings: c.findings,
    counts: c.rows(),
    scanned: { files, lines, texts: c.texts, chars: c.chars },
    problems,
    cancelled: aborted(),
  };
}
