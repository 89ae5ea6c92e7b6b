// The shared contexts of a split, indexed without keeping them: each line's byte span, its message count and where
// its sessions start. A question's history is read back from disk when it is asked for (the 1M split's file is
// gigabytes; its index is a few numbers per context).
import { closeSync, openSync, readSync } from 'node:fs';
import { DiagnosticSink } from '../io/diagnostics';
import { isUtf8 } from 'node:buffer';
import { readLineBytes } from '../io/jsonl';
import { scanContextLine } from './scan';
import type { PmContext } from './types';

export interface PmMessage {
  role: string;
  content: string;
}

/** The message list a context line holds, or why it is not one. */
function contextOf(value: unknown): { id: string; messages: unknown[] } | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const keys = Object.keys(value);
  if (keys.length !== 1) return `expected one key (the shared_context_id), found ${keys.length}`;
  const messages = (value as Record<string, unknown>)[keys[0]];
  if (!Array.isArray(messages)) return `the value of ${keys[0]} is not a list of messages`;
  return { id: keys[0], messages };
}

const isMessage = (m: unknown): m is PmMessage =>
  typeof m === 'object' &&
  m !== null &&
  typeof (m as PmMessage).role === 'string' &&
  typeof (m as PmMessage).content === 'string';

/** Indexes `file` (absolute) from its bytes (scan.ts); problems go to `sink` with the line they are on. */
export async function indexContexts(file: string, sink: DiagnosticSink): Promise<Map<string, PmContext>> {
  const contexts = new Map<string, PmContext>();
  await readLineBytes(file, (raw) => {
    if (!isUtf8(raw.bytes)) return sink.error(raw.line, '', 'not valid UTF-8');
    const ctx = scanContextLine(raw.bytes);
    if (typeof ctx === 'string') return sink.error(raw.line, '', ctx);
    if (ctx.bad >= 0)
      sink.error(raw.line, `${ctx.id}[${ctx.bad}]`, 'a message needs a string role and a string content');
    if (contexts.has(ctx.id))
      sink.warn(
        raw.line,
        ctx.id,
        `shared_context_id repeated (first on line ${contexts.get(ctx.id)!.line}); this one is used`,
      );
    // a session opens at message 0 and at each system turn that follows a turn of another role
    const system = new Set(ctx.system);
    const sessionStarts = ctx.messages > 0 ? [0, ...ctx.system.filter((i) => i > 0 && !system.has(i - 1))] : [];
    contexts.set(ctx.id, {
      id: ctx.id,
      file,
      offset: raw.offset,
      length: raw.length,
      line: raw.line,
      messages: ctx.messages,
      sessionStarts,
    });
  });
  return contexts;
}

/** A context's messages, read from disk; `end` slices them as the authors do (`context[:end]`, exclusive). */
export function readContext(ctx: PmContext, end?: number): PmMessage[] {
  const fd = openSync(ctx.file, 'r');
  try {
    const buf = Buffer.allocUnsafe(ctx.length);
    let got = 0;
    while (got < ctx.length) {
      const n = readSync(fd, buf, got, ctx.length - got, ctx.offset + got);
      if (n === 0) break;
      got += n;
    }
    const parsed = contextOf(JSON.parse(buf.subarray(0, got).toString('utf8')));
    if (typeof parsed === 'string' || parsed.id !== ctx.id)
      throw new Error(`${ctx.file}:${ctx.line}: changed since it was indexed`);
    const messages = parsed.messages.filter(isMessage);
    return end === undefined ? messages : messages.slice(0, end);
  } finally {
    closeSync(fd);
  }
}
