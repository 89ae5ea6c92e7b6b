// The persona an attempt actually sent: a draft's prompt is sent as typed, so an edit of the persona's text (inside
// it, or typed against it on its line) is the persona that attempt received, not the one the step carries. Found by
// following the persona's span of the first rendering through a character diff to the text sent. Pure: no `vscode`.
import { diffChars } from 'diff';
import { renderedSpans, renderPrompt, type PromptContext } from '../prompt/prompt';
import type { RerunPersonaMode } from './attemptCompare';

export interface SentPersonaInput {
  /** the prompt as first rendered, before any edit */
  original: string;
  /** where the persona's text sits in `original`; null when it cannot be located */
  span: { start: number; end: number } | null;
  /** the persona the step receives (null: none, the cold-start text) */
  carried: string | null;
  /** the prompt as sent */
  sent: string;
}

export interface SentPersona {
  personaIn: string | null;
  mode: Extract<RerunPersonaMode, 'carried' | 'edited'>;
}

/** Text typed against the span's ends on their line belongs to the persona; a line break ends it. */
const headOf = (t: string) => (t.includes('\n') ? t.slice(0, t.indexOf('\n')) : t);
const tailOf = (t: string) => (t.includes('\n') ? t.slice(t.lastIndexOf('\n') + 1) : t);

/** The persona text in `sent` where the original's span went: what the model received as the persona. */
export function sentSpanText(original: string, span: { start: number; end: number }, sent: string): string {
  let o = 0;
  let out = '';
  for (const c of diffChars(original, sent)) {
    if (c.added) {
      if (o > span.start && o < span.end) out += c.value;
      else if (o === span.start && o === span.end) out += c.value.includes('\n') ? '' : c.value;
      else if (o === span.start) out += tailOf(c.value);
      else if (o === span.end) out += headOf(c.value);
      continue;
    }
    const from = Math.max(o, span.start);
    const to = Math.min(o + c.value.length, span.end);
    if (!c.removed && to > from) out += c.value.slice(from - o, to - o);
    o += c.value.length;
  }
  return out;
}

export function sentPersona({ original, span, carried, sent }: SentPersonaInput): SentPersona {
  if (span === null || sent === original) return { personaIn: carried, mode: 'carried' };
  const was = original.slice(span.start, span.end);
  const now = sentSpanText(original, span, sent);
  return now === was ? { personaIn: carried, mode: 'carried' } : { personaIn: now, mode: 'edited' };
}

/** What a draft was first rendered from, as `e` recorded it beside the draft. */
export interface DraftRendering {
  /** null: the benchmark's own prompt (not a template) */
  templateText: string | null;
  personaIn: string | null;
  /** the prompt as first rendered; absent in drafts written before it was recorded */
  prompt?: string;
}

/**
 * The persona a draft sent: from a template, the {{persona}} value's span; from the benchmark's prompt, the carried
 * persona's text where it was changed. Without a first rendering to follow, the carried persona (as before).
 */
export function draftPersona(origin: DraftRendering, ctx: PromptContext, sent: string): SentPersona {
  const carried = origin.personaIn;
  if (origin.templateText !== null) {
    const original = renderPrompt(origin.templateText, ctx).text;
    const span = renderedSpans(origin.templateText, ctx).find((s) => s.slot === 'persona') ?? null;
    return sentPersona({ original, span, carried, sent });
  }
  if (origin.prompt === undefined || carried === null || carried === '')
    return sentPersona({ original: sent, span: null, carried, sent });
  // A short persona ("无") can also stand in the posts or the history: of its places in the first rendering, the one
  // whose text was changed is the persona sent; with none changed, the carried persona was sent.
  const original = origin.prompt;
  const places: { start: number; end: number }[] = [];
  for (let at = original.indexOf(carried); at >= 0; at = original.indexOf(carried, at + carried.length))
    places.push({ start: at, end: at + carried.length });
  for (const span of places) {
    const found = sentPersona({ original, span, carried, sent });
    if (found.mode === 'edited') return found;
  }
  return { personaIn: carried, mode: 'carried' };
}
