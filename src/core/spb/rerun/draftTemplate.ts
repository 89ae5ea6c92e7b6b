// Save as Template: an edited draft back to a template. The draft's text outside the values that came from the data
// becomes template text; each value becomes its `{{slot}}` again. A value deleted whole drops its slot; an edit
// inside a value is refused and named, since a template cannot hold one step's data; text typed against a value on
// its line is a question for the user (template text, or this step's edit of the value). Pure: no `vscode`.
import { diffChars } from 'diff';
import { isSlotName, renderPrompt, slotValues, type PromptContext, type SlotName } from '../prompt/prompt';

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

/**
 * Text typed right against a value, on its line: before it, after it, or in place of a value deleted whole. Whether
 * it is template text (every user's prompt gets it) or this step's own edit of the value cannot be told from the
 * text, so it is asked, never taken silently.
 */
export interface JoinedText {
  /** stable within one draft: what a choice is given for */
  id: string;
  slot: SlotName;
  text: string;
  where: 'before' | 'after' | 'instead';
}

/** template: the text is template text for every user; override: it was this step's edit and stays out. */
export type JoinedChoice = 'template' | 'override';

export type DraftTemplateResult =
  | { ok: true; template: string; dropped: SlotName[]; unchanged: boolean; overrides: JoinedText[] }
  | { ok: false; problems: SlotEditProblem[] }
  /** not saved yet: each joined text needs a choice (pass them back in `choices`) */
  | { ok: false; problems: []; ask: JoinedText[] };

/** Before the first line break (text joined to what precedes it) and after the last (joined to what follows). */
const headOf = (t: string) => (t.includes('\n') ? t.slice(0, t.indexOf('\n')) : t);
const tailOf = (t: string) => (t.includes('\n') ? t.slice(t.lastIndexOf('\n') + 1) : t);

/**
 * The template that renders `edited` for this step, made from the template that rendered the draft first. Each
 * value's span is compared character by character: an edit inside a value from the data fails, naming the slot; text
 * joined to a value is returned as a question unless `choices` (by `JoinedText.id`) answers it.
 */
export function templateFromDraft(
  template: string,
  ctx: PromptContext,
  edited: string,
  choices: Readonly<Record<string, JoinedChoice>> = {},
): DraftTemplateResult {
  const { parts: list, keyed } = parts(template, ctx);
  if (edited === renderPrompt(template, ctx).text)
    return { ok: true, template, dropped: [], unchanged: true, overrides: [] };
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
  const dropped = new Set<number>();
  list.forEach((p, i) => {
    if (p.slot === null) return;
    const gone = removed.subarray(p.start, p.end).reduce((n, r) => n + r, 0);
    const insideInsert = [...inserted.keys()].some((at) => at > p.start && at < p.end);
    const whole = p.end > p.start && gone === p.end - p.start && !insideInsert;
    const typedAround = (inserted.get(p.start) ?? '') + (inserted.get(p.end) ?? '');
    if (whole && !holdsPieceOf(typedAround, p.value)) dropped.add(i);
    else if (gone > 0 || insideInsert)
      problems.push({
        slot: p.slot,
        message: `the edit changes {{${p.slot}}}, a value from this step's data; a template cannot keep it (edit the text around it, or delete the whole value)`,
      });
  });
  if (problems.length > 0) {
    const seen = new Set<string>();
    return { ok: false, problems: problems.filter((p) => !seen.has(p.slot) && seen.add(p.slot)) };
  }
  // Each insertion's ends that touch a value on the same line: the head joins the value ending there, the tail the
  // value starting there (a value deleted whole counts as one replaced by the typed text).
  const joined: JoinedText[] = [];
  const cut = new Map<number, { head: JoinedText | null; tail: JoinedText | null }>();
  for (const [at, text] of inserted) {
    const ending = list.findIndex((p) => p.slot !== null && p.end === at && p.end > p.start);
    const starting = list.findIndex((p) => p.slot !== null && p.start === at && p.end > p.start);
    const whereOf = (i: number, side: 'before' | 'after') => (dropped.has(i) ? 'instead' : side);
    let head: JoinedText | null = null;
    let tail: JoinedText | null = null;
    if (ending >= 0 && headOf(text) !== '')
      head = {
        id: `${ending}:${whereOf(ending, 'after')}`,
        slot: list[ending].slot!,
        text: headOf(text),
        where: whereOf(ending, 'after'),
      };
    if (starting >= 0 && tailOf(text) !== '' && (text.includes('\n') || !head))
      tail = {
        id: `${starting}:${whereOf(starting, 'before')}`,
        slot: list[starting].slot!,
        text: tailOf(text),
        where: whereOf(starting, 'before'),
      };
    if (head) joined.push(head);
    if (tail) joined.push(tail);
    if (head || tail) cut.set(at, { head, tail });
  }
  const unanswered = joined.filter((j) => choices[j.id] !== 'template' && choices[j.id] !== 'override');
  if (unanswered.length > 0) return { ok: false, problems: [], ask: unanswered };
  const overrides = joined.filter((j) => choices[j.id] === 'override');
  const overridden = (j: JoinedText | null) => j !== null && choices[j.id] === 'override';
  // `full` takes every typed text (it must render the draft back); `out` leaves the one-step overrides out, and a
  // value deleted whole whose replacement was this step's own keeps its slot.
  let full = '';
  let out = '';
  const emitInsert = (at: number) => {
    const text = inserted.get(at);
    if (text === undefined) return;
    inserted.delete(at);
    full += text;
    const c = cut.get(at);
    let kept = text;
    if (c && overridden(c.head)) kept = kept.slice(c.head!.text.length);
    if (c && overridden(c.tail)) kept = kept.slice(0, kept.length - c.tail!.text.length);
    out += kept;
  };
  const droppedSlots: SlotName[] = [];
  list.forEach((p, i) => {
    emitInsert(p.start);
    if (p.slot === null) {
      for (let k = p.start; k < p.end; k++) {
        if (k > p.start) emitInsert(k);
        if (!removed[k]) {
          full += keyed[k];
          out += keyed[k];
        }
      }
      return;
    }
    if (!dropped.has(i)) {
      full += p.source;
      out += p.source;
    } else if (overrides.some((j) => j.id.startsWith(`${i}:`))) out += p.source;
    else droppedSlots.push(p.slot);
  });
  emitInsert(keyed.length);
  // The template must give back exactly the edited text for this step; a diff that cannot be mapped fails here.
  if (renderPrompt(full, ctx).text !== edited)
    return {
      ok: false,
      problems: [{ slot: droppedSlots[0] ?? 'posts', message: 'the edits could not be mapped back onto the template' }],
    };
  return { ok: true, template: out, dropped: droppedSlots, unchanged: false, overrides };
}
