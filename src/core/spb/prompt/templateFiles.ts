// Prompt templates as workspace files: naming, and the text positions that slot completion, hover and
// diagnostics work on. Pure (positions are 0-based here, as editors count).
import { checkTemplate, SLOT_NAMES, type SlotInfo, type SlotName, type TemplateProblem } from './prompt';

export const TEMPLATE_DIR = '.personalab/templates';
/** Not `.prompt.md`: VS Code's chat feature claims that pattern for its own prompt files. */
export const TEMPLATE_EXT = '.plprompt';
export const TEMPLATE_LANGUAGE = 'personalab-prompt';
/** Our own wording, not the StreamProfileBench authors' prompt (see runOrigin.ts). */
export const BUILTIN_TEMPLATE_NAME = "Persona Lab's template (not the benchmark's prompt)";

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Why a template name cannot be used (undefined when it can): it becomes a file name. */
export function checkTemplateName(name: string): string | undefined {
  const n = name.trim();
  if (n === '') return 'Type a name, e.g. shorter-persona';
  if (n.length > 80) return 'At most 80 characters';
  if (!NAME_RE.test(n)) return 'Letters, digits, ".", "_" and "-" only, starting with a letter or digit';
  return undefined;
}

export function templateFileName(name: string): string {
  const n = name.trim();
  return n.endsWith(TEMPLATE_EXT) ? n : `${n}${TEMPLATE_EXT}`;
}

/** The template's display name: its file name without the extension. */
export function templateNameOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  return base.endsWith(TEMPLATE_EXT) ? base.slice(0, -TEMPLATE_EXT.length) : base;
}

export interface SlotCompletionContext {
  /** the column where the typed part of the name starts (right after `{{` and any spaces) */
  start: number;
  /** what is typed of the name so far */
  typed: string;
  /** the slot is already closed after the cursor (`}}` follows), so completion inserts the name only */
  closed: boolean;
}

/** When the cursor is inside an open `{{`, where the slot name starts; undefined elsewhere. */
export function slotCompletionContext(line: string, character: number): SlotCompletionContext | undefined {
  const before = line.slice(0, character);
  const m = /\{\{\s*([A-Za-z0-9_]*)$/.exec(before);
  if (!m) return undefined;
  const after = line.slice(character);
  return { start: character - m[1].length, typed: m[1], closed: /^[A-Za-z0-9_]*\s*\}\}/.test(after) };
}

export interface SlotSpan {
  name: string;
  /** columns of the whole `{{ name }}` (end exclusive) */
  start: number;
  end: number;
  info: SlotInfo | undefined;
}

/** The `{{…}}` under the cursor on one line. */
export function slotAt(line: string, character: number): SlotSpan | undefined {
  for (const m of line.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)) {
    const start = m.index ?? 0;
    const end = start + m[0].length;
    if (character >= start && character <= end) {
      const name = m[1];
      return { name, start, end, info: Object.hasOwn(SLOT_NAMES, name) ? SLOT_NAMES[name as SlotName] : undefined };
    }
  }
  return undefined;
}

export const NEED_TEXT: Record<SlotInfo['need'], string> = {
  required: 'required: without it the reply cannot be scored as intended',
  reference: 'used by the reference prompt',
  optional: 'optional',
};

/** Markdown for a slot's hover and completion documentation. */
export function slotDoc(name: SlotName): string {
  const info: SlotInfo = SLOT_NAMES[name];
  return `**{{${name}}}** (${NEED_TEXT[info.need]})\n\n${info.description}`;
}

export interface LocatedProblem extends TemplateProblem {
  /** 0-based range on one line; a missing slot is reported over the first line's text */
  range: { line: number; start: number; end: number };
}

/** checkTemplate's problems with editor ranges. */
export function locateProblems(text: string): LocatedProblem[] {
  const firstLineLength = text.split('\n', 1)[0].replace(/\r$/, '').length;
  return checkTemplate(text).map((p) => {
    const line = Math.max(0, p.line - 1);
    const start = Math.max(0, p.column - 1);
    const end = p.kind === 'missing' ? Math.max(start, firstLineLength) : start + p.length;
    return { ...p, range: { line, start, end } };
  });
}
