// An OmniBehavior prompt draft: one question's request as an editable .pldraft file (the extension and language of
// StreamProfileBench's drafts, told apart by the `action:` header), sent as it stands by Ctrl+Enter:
//
//   # notes
//   action: u_1001#1153
//   field: video_liked
//   model: demo-model-not-an-llm
//   temperature: source
//   === user ===
//   <prompt, to the end of the file>
//
// `temperature: source` leaves it to the prompt source's caller (the authors' 0.1). OmniBehavior's requests are one
// user message, so there is no system part. Pure: no `vscode`.
import {
  DRAFT_DIR,
  DRAFT_EXT,
  readDraftHeader,
  readModelHeader,
  requireHeaders,
  USER_MARKER,
  type DraftProblem,
} from '../../rerun/draft';
import { FIELDS } from '../fields';

export interface OmniDraft {
  userId: string;
  index: number;
  field: string;
  model: string;
  /** undefined: the source's */
  temperature: number | undefined;
  prompt: string;
}

export type OmniDraftParse = { ok: true; draft: OmniDraft } | { ok: false; problems: DraftProblem[] };

/** Whether a draft's text is an OmniBehavior one (its header names a test action). */
export function isOmniDraft(text: string): boolean {
  for (const line of text.split('\n')) {
    if (line.trim() === USER_MARKER) return false;
    if (/^action:/.test(line.trim())) return true;
  }
  return false;
}

export function omniDraftPath(run: string | null, d: Pick<OmniDraft, 'userId' | 'index' | 'field'>): string {
  const safe = (t: string) => t.replace(/[^A-Za-z0-9._-]/g, '_');
  return `${DRAFT_DIR}/${safe(run ?? 'no-run')}/omnibehavior/${safe(d.userId)}-${d.index}-${safe(d.field)}${DRAFT_EXT}`;
}

export function renderOmniDraft(d: OmniDraft, sourceName: string): string {
  return [
    `# Prompt draft of ${d.userId}#${d.index} · ${d.field}, rendered by ${sourceName}.`,
    '# Edit anything below. Ctrl+Enter (or "Re-run" above) sends the prompt exactly as written as a new',
    '# attempt of this question, shown in the trace view. Lines starting with # are notes and are not sent.',
    `action: ${d.userId}#${d.index}`,
    `field: ${d.field}`,
    `model: ${d.model}`,
    `temperature: ${d.temperature ?? 'source'}`,
    USER_MARKER,
    d.prompt,
  ].join('\n');
}

/** Reads a draft; every problem has its line. Never throws. */
export function parseOmniDraft(text: string): OmniDraftParse {
  const lines = String(text).split('\n');
  const user = lines.findIndex((l) => l.replace(/\r$/, '').trim() === USER_MARKER);
  const v: Partial<OmniDraft> = {};
  const problems = readDraftHeader(lines, user < 0 ? lines.length : user, (key, value) => {
    const model = readModelHeader(key, value, v);
    if (model !== undefined) return model;
    if (key === 'action') {
      const a = /^(.+)#(\d+)$/.exec(value);
      if (!a) return `action: "${value}" is not <user id>#<index>`;
      [v.userId, v.index] = [a[1], Number(a[2])];
    } else if (key === 'field') {
      if (!Object.prototype.hasOwnProperty.call(FIELDS, value)) return `field: "${value}" is not a question field`;
      v.field = value;
    } else return `unknown header "${key}": use action, field, model or temperature`;
    return null;
  });
  if (user < 0) problems.push({ line: lines.length, message: `no "${USER_MARKER}" line: the prompt is missing` });
  requireHeaders(problems, [
    ['action', v.userId !== undefined],
    ['field', v.field !== undefined],
    ['model', v.model !== undefined],
  ]);
  if (problems.length > 0 || user < 0) return { ok: false, problems };
  const prompt = lines.slice(user + 1).join('\n');
  if (prompt.trim() === '') return { ok: false, problems: [{ line: user + 1, message: 'the prompt is empty' }] };
  return {
    ok: true,
    draft: {
      userId: v.userId!,
      index: v.index!,
      field: v.field!,
      model: v.model!,
      temperature: v.temperature,
      prompt,
    },
  };
}

/** A block of at least this many lines in a draft's prompt is the history: folded when the draft opens. */
export const HISTORY_FOLD_MIN = 12;

/**
 * The history block of an OmniBehavior draft (0-based lines of the whole text, inclusive): the longest run of
 * non-blank lines in the prompt, when it is long; its first line (a heading, or the first record) stays in sight
 * when folded. `edit` is the first line after it that has text: where people edit (the scene and the question).
 */
export function omniHistoryBlock(text: string): { start: number; end: number; edit: number } | null {
  const lines = String(text).split('\n');
  const user = lines.findIndex((l) => l.replace(/\r$/, '').trim() === USER_MARKER);
  if (user < 0) return null;
  let best: { start: number; end: number } | null = null;
  let start = -1;
  for (let i = user + 1; i <= lines.length; i++) {
    const blank = i === lines.length || lines[i].trim() === '';
    if (!blank && start < 0) start = i;
    if (blank && start >= 0) {
      if (!best || i - 1 - start > best.end - best.start) best = { start, end: i - 1 };
      start = -1;
    }
  }
  if (!best || best.end - best.start + 1 < HISTORY_FOLD_MIN) return null;
  let edit = best.end + 1;
  while (edit < lines.length && lines[edit].trim() === '') edit++;
  return { ...best, edit: Math.min(edit, lines.length - 1) };
}
