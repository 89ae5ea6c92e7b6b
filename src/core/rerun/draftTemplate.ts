// Save as Template: an edited draft back to a template. The draft's text outside the values that came from the data
// becomes template text; each value becomes its `{{slot}}` again. A value deleted whole drops its slot; an edit
// inside a value is refused and named, since a template cannot hold one step's data. Pure: no `vscode`.
import { diffChars } from 'diff';
import { isSlotName, renderPrompt, slotValues, type PromptContext, type SlotName } from '../spb/prompt/prompt';

const SLOT_RE = /\{\{\s*([^{}]*?)\s*\}\}/g;

interface Part {
  /** null: template text */
  slot: SlotName | null;
  /** the template's own text for this part (`{{ slot }}` as written, or the literal) */
  source: string;
  /** the slot's value from the data ('' for template text) */
  value: string;
  /** the span in the keyed prompt (a long value is one private-use character there) */
  start: number;
  end: number;
}

/** Values at least this long are matched whole before the character diff, so that it cannot split them. */
const LONG = 8;
const key = (i: number) => String.fromCharCode(0xe000 + (i % 6000));

/**
 * The template cut into literal text and known slots, and the rendered prompt with each long value replaced by a key
 * character: the diff then sees such a value as one unit, kept or removed whole.
 */
function parts(template: string, ctx: PromptContext): { parts: Part[]; keyed: string } {
  const { values } = slotValues(ctx);
  const out: Part[] = [];
  let keyed = '';
  let last = 0;
  const push = (slot: SlotName | null, source: string, value: string) => {
    if (source === '') return;
    const text = slot !== null && value.length >= LONG ? key(out.length) : slot !== null ? value : source;
    out.push({ slot, source, value, start: keyed.length, end: keyed.length + text.length });
    keyed += text;
  };
  for (const m of template.matchAll(SLOT_RE)) {
    const index = m.index ?? 0;
    push(null, template.slice(last, index), '');
    if (isSlotName(m[1])) push(m[1], m[0], values[m[1]]);
    else push(null, m[0], '');
    last = index + m[0].length;
  }
  push(null, template.slice(last), '');
  return { parts: out, keyed };
}

/** The edited text with each long value that is still there, in order, replaced by its key character. */
function keyEdited(list: readonly Part[], edited: string): string {
  let out = '';
  let cursor = 0;
  list.forEach((p, i) => {
    if (p.slot === null || p.value.length < LONG) return;
    const at = edited.indexOf(p.value, cursor);
    if (at < 0) return;
    out += edited.slice(cursor, at) + key(i);
    cursor = at + p.value.length;
  });
  return out + edited.slice(cursor);
}

/** Typed text that holds a piece of the value: the value was edited, not deleted. */
function holdsPieceOf(typed: string, value: string): boolean {
  for (let i = 0; i + LONG <= value.length; i += LONG) if (typed.includes(value.slice(i, i + LONG))) return true;
  return false;
}

export interface SlotEditProblem {
  slot: SlotName;
  message: string;
}

export type DraftTemplateResult =
  { ok: true; template: string; dropped: SlotName[]; unchanged: boolean } | { ok: false; problems: SlotEditProblem[] };

/**
 * The template that renders `edited` for this step, made from the template that rendered the draft first. Fails,
 * naming the slots, when an edit falls inside a value that came from the data.
 */
export function templateFromDraft(template: string, ctx: PromptContext, edited: string): DraftTemplateResult {
  const { parts: list, keyed } = parts(template, ctx);
  if (edited === renderPrompt(template, ctx).text) return { ok: true, template, dropped: [], unchanged: true };
  const removed = new Uint8Array(keyed.length);
  const inserted = new Map<number, string>();
  let pos = 0;
  for (const change of diffChars(keyed, keyEdited(list, edited))) {
    if (change.added) inserted.set(pos, (inserted.get(pos) ?? '') + change.value);
    else if (change.removed) {
      removed.fill(1, pos, pos + change.value.length);
      pos += change.value.length;
    } else pos += change.value.length;
  }
  const problems: SlotEditProblem[] = [];
  const dropped: SlotName[] = [];
  let out = '';
  const emitInsert = (at: number) => {
    out += inserted.get(at) ?? '';
    inserted.delete(at);
  };
  for (const p of list) {
    const typedAround = (inserted.get(p.start) ?? '') + (inserted.get(p.end) ?? '');
    emitInsert(p.start);
    if (p.slot === null) {
      for (let i = p.start; i < p.end; i++) {
        if (i > p.start) emitInsert(i);
        if (!removed[i]) out += keyed[i];
      }
      continue;
    }
    const gone = removed.subarray(p.start, p.end).reduce((n, r) => n + r, 0);
    const insideInsert = [...inserted.keys()].some((at) => at > p.start && at < p.end);
    const whole = p.end > p.start && gone === p.end - p.start && !insideInsert;
    if (whole && !holdsPieceOf(typedAround, p.value)) {
      dropped.push(p.slot);
    } else if (gone > 0 || insideInsert) {
      problems.push({
        slot: p.slot,
        message: `the edit changes {{${p.slot}}}, a value from this step's data; a template cannot keep it (edit the text around it, or delete the whole value)`,
      });
    } else out += p.source;
  }
  emitInsert(keyed.length);
  if (problems.length > 0) {
    const seen = new Set<string>();
    return { ok: false, problems: problems.filter((p) => !seen.has(p.slot) && seen.add(p.slot)) };
  }
  // The new template must give back exactly the edited text for this step; a diff that cannot be mapped fails here.
  if (renderPrompt(out, ctx).text !== edited)
    return {
      ok: false,
      problems: [{ slot: dropped[0] ?? 'posts', message: 'the edits could not be mapped back onto the template' }],
    };
  return { ok: true, template: out, dropped, unchanged: false };
}
