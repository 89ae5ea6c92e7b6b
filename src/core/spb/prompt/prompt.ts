// Prompt templates with named `{{slot}}`s (spec sections 2 and 3). Pure: no `vscode`.
import { platformContext } from './platforms';
import { pyJsonDumps } from '../../io/pyjson';
import { kForPool } from '../score/step';
import type { Severity } from '../../io/diagnostics';
import { crypto } from '../../io/builtins';

/** How much a template needs a slot: without a `required` one the reply cannot be scored as intended. */
export type SlotNeed = 'required' | 'reference' | 'optional';

export interface SlotInfo {
  description: string;
  need: SlotNeed;
}

export const SLOT_NAMES = {
  platform_name: { description: 'Display name of the platform, e.g. "Weibo (微博)".', need: 'reference' },
  platform_description: { description: 'What the platform is and what people post there.', need: 'reference' },
  tag_meaning: { description: 'What one candidate tag stands for on this platform.', need: 'reference' },
  analysis_hint: { description: 'Platform-specific advice on reading the posts.', need: 'reference' },
  username: { description: "The user's pseudonym (U_ + 8 hex chars).", need: 'reference' },
  bio: { description: 'The user\'s bio, or a fixed "not provided" text when empty.', need: 'reference' },
  persona: {
    description: 'The persona carried over from the previous step, or the cold-start text at step 1.',
    need: 'reference',
  },
  step: { description: 'The step number n (1-based).', need: 'reference' },
  posts: { description: "The batch B_n: the step's posts_text as released.", need: 'required' },
  pool_size: { description: 'Number of candidate tags |C|.', need: 'reference' },
  k: { description: 'How many tags to pick: max(1, round(0.25 * |C|)), Python rounding.', need: 'required' },
  pool_json: {
    description: 'The candidate pool as a JSON array, non-ASCII kept, Python json.dumps spacing.',
    need: 'required',
  },
  total_steps: {
    description: "The user's number of steps (the reference passes it but does not use it).",
    need: 'optional',
  },
} as const satisfies Record<string, SlotInfo>;

export type SlotName = keyof typeof SLOT_NAMES;

export function isSlotName(name: string): name is SlotName {
  return Object.hasOwn(SLOT_NAMES, name);
}

export const BIO_NOT_PROVIDED = '(not provided)';
export const COLD_START_PERSONA =
  'No prior observations: this is the first batch of posts seen from this user, so no persona exists yet. ' +
  'Build one from this batch.';

export const DEFAULT_SYSTEM_MESSAGE =
  "You are an analyst of social-media users. You infer how a user's interests develop over time and predict " +
  'the topics they will engage with next. Always answer with a single valid JSON object and nothing else.';

export const DEFAULT_TEMPLATE = `You are profiling a user of {{platform_name}}.
About the platform: {{platform_description}}
About the tags: {{tag_meaning}}
How to read the posts: {{analysis_hint}}

# User
Username: {{username}}
Bio: {{bio}}

# Persona so far
{{persona}}

# Posts of step {{step}}
{{posts}}

# Task
1. Update the persona: merge what these posts show with the persona so far. Keep interests that persist,
   drop ones that have faded, and note new directions. Write it as a short paragraph.
2. From the {{pool_size}} candidate tags below, choose exactly {{k}} tags that this user is most likely to
   use in the near future. Some candidates are tags the user will keep using, some are new interests, and
   the rest are distractors (faded interests, look-alike topics, trending topics, random ones).

Candidate tags:
{{pool_json}}

Rules: copy tags exactly as written in the list; pick exactly {{k}} different tags; do not invent tags.

Answer with one JSON object of this shape:
{"persona_summary": "<updated persona>", "predicted_tags": ["<tag>", "..."], "reasoning": "<why these tags>"}
`;

export interface PromptContext {
  platform: string;
  username: string;
  bio: string | null | undefined;
  /** The previous step's persona; null (or '') at cold start or in "no persona" mode. */
  persona: string | null;
  stepId: number;
  totalSteps: number;
  postsText: string;
  pool: readonly string[];
}

export interface RenderedPrompt {
  text: string;
  k: number;
}

const SLOT_RE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

function text(v: unknown): string {
  return typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v);
}

export function slotValues(context: PromptContext): { values: Record<SlotName, string>; k: number } {
  const ctx: Partial<PromptContext> = context ?? {};
  const pool = Array.isArray(ctx.pool) ? ctx.pool : [];
  const k = kForPool(pool.length);
  const info = platformContext(text(ctx.platform));
  // Python truthiness: only an empty string (or None) counts as "no bio" / "no persona".
  const bio = text(ctx.bio);
  const persona = text(ctx.persona);
  return {
    k,
    values: {
      platform_name: info.name,
      platform_description: info.description,
      tag_meaning: info.tagMeaning,
      analysis_hint: info.analysisHint,
      username: text(ctx.username),
      bio: bio === '' ? BIO_NOT_PROVIDED : bio,
      persona: persona === '' ? COLD_START_PERSONA : persona,
      step: text(ctx.stepId),
      posts: text(ctx.postsText),
      pool_size: String(pool.length),
      k: String(k),
      pool_json: pyJsonDumps(pool),
      total_steps: text(ctx.totalSteps),
    },
  };
}

/** Fills every known slot in one pass (so slot-like text inside posts is never expanded); unknown slots stay as is. */
export function renderPrompt(template: string, ctx: PromptContext): RenderedPrompt {
  const { values, k } = slotValues(ctx);
  const out = text(template).replace(SLOT_RE, (whole, name: string) => (isSlotName(name) ? values[name] : whole));
  return { text: out, k };
}

export interface RenderedSpan {
  slot: SlotName;
  /** where the slot's value sits in the rendered text (UTF-16 offsets, end exclusive) */
  start: number;
  end: number;
}

/** Where each known slot's value landed in `renderPrompt(template, ctx).text`, in order. */
export function renderedSpans(template: string, ctx: PromptContext): RenderedSpan[] {
  const { values } = slotValues(ctx);
  const out: RenderedSpan[] = [];
  let shift = 0;
  for (const m of text(template).matchAll(SLOT_RE)) {
    if (!isSlotName(m[1])) continue;
    const start = (m.index ?? 0) + shift;
    const value = values[m[1]];
    out.push({ slot: m[1], start, end: start + value.length });
    shift += value.length - m[0].length;
  }
  return out;
}

export interface TemplateProblem {
  /** The slot concerned ('' for a stray brace pair). */
  slot: string;
  /** 1-based; a missing slot is reported at line 1, column 1 with length 0. */
  line: number;
  column: number;
  /** Length of the offending text in UTF-16 units (0 for a missing slot). */
  length: number;
  kind: 'unknown' | 'missing' | 'malformed';
  message: string;
  severity: Severity;
}

export interface SlotOccurrence {
  slot: string;
  line: number;
  column: number;
  length: number;
  known: boolean;
}

function position(template: string, index: number): { line: number; column: number } {
  const before = template.slice(0, index);
  const nl = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: index - nl };
}

/** Every `{{...}}` in the template, with its position (for highlighting, hovers and go-to). */
export function findSlots(template: string): SlotOccurrence[] {
  const t = text(template);
  const out: SlotOccurrence[] = [];
  for (const m of t.matchAll(SLOT_RE)) {
    const index = m.index ?? 0;
    out.push({ slot: m[1], ...position(t, index), length: m[0].length, known: isSlotName(m[1]) });
  }
  return out;
}

export function checkTemplate(template: string): TemplateProblem[] {
  const t = text(template);
  const problems: TemplateProblem[] = [];
  const used = new Set<string>();
  for (const occ of findSlots(t)) {
    const at = { line: occ.line, column: occ.column, length: occ.length };
    if (occ.known) {
      used.add(occ.slot);
    } else if (!NAME_RE.test(occ.slot)) {
      problems.push({
        slot: occ.slot,
        ...at,
        kind: 'malformed',
        severity: 'warning',
        message: `"{{${occ.slot}}}" is not a slot name; it is sent to the model as written.`,
      });
    } else {
      const near = Object.keys(SLOT_NAMES).find((n) => n.toLowerCase() === occ.slot.toLowerCase());
      problems.push({
        slot: occ.slot,
        ...at,
        kind: 'unknown',
        severity: 'error',
        message:
          `Unknown slot {{${occ.slot}}}: it is sent to the model as written.` +
          (near ? ` Did you mean {{${near}}}?` : ''),
      });
    }
  }
  for (const [name, info] of Object.entries(SLOT_NAMES) as [SlotName, SlotInfo][]) {
    if (used.has(name) || info.need === 'optional') continue;
    const required = info.need === 'required';
    problems.push({
      slot: name,
      line: 1,
      column: 1,
      length: 0,
      kind: 'missing',
      severity: required ? 'error' : 'info',
      message: required
        ? `Missing required slot {{${name}}}: ${info.description}`
        : `Slot {{${name}}} is not used; the reference prompt includes it (${info.description})`,
    });
  }
  return problems;
}

/** sha256 hex of the template text (UTF-8). */
export function templateHash(template: string): string {
  return crypto().createHash('sha256').update(text(template), 'utf8').digest('hex');
}

/** Short id: the first 12 hex chars of templateHash. */
export function templateId(template: string): string {
  return templateHash(template).slice(0, 12);
}
