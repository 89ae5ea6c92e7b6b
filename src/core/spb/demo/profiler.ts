// The demo endpoint's profiler: a fixed rule, not a language model. It reads a StreamProfileBench step prompt of the
// built-in template's shape (the candidate pool, the posts of the step, the persona so far), picks exactly k tags
// and writes a short persona, so that every re-run can be tried offline. Pure: no `vscode`, no network.
//
// The rule, in full: a candidate's score is the number of times it appears, exactly as written, among the tags of
// the posts (their `Tags:` lines), plus 1 when its text without `#` appears in the persona so far and the instructions
// ask to keep persisting interests. The kinds of tag the instructions prefer come first and those they avoid last;
// within them the k highest scores are picked (k as the instructions ask: the built-in template asks
// max(1, round(0.25 * |C|))); ties keep the pool's order. What it reads from the instructions: instructions.ts.
import { pyStrip } from '../prompt/response';
import { defaultRules, readRules, rulesText, type DemoRules, type TagKind } from './instructions';
import { COLD_START_PERSONA } from '../prompt/prompt';
import { parsePosts } from '../format/posts';
import { kForPool } from '../score/step';
import { DEMO_MODEL_NAME } from '../../demo/model';
import type { DemoAnswer } from '../../formats/descriptor';

/** What the profiler reads from one prompt. */
export interface DemoPrompt {
  /** The step number of the "# Posts of step N" heading. */
  step: number;
  posts: string;
  /** The persona so far; null at cold start (the prompt's cold-start text) or when the prompt has none. */
  persona: string | null;
  /** The candidate pool, as written in the prompt. */
  pool: string[];
  /** How many tags the prompt asks for (the built-in template's k when its instructions ask none: see `rules`). */
  k: number;
  /** What the instructions ask (instructions.ts); absent: the built-in template's. */
  rules?: DemoRules;
}

export type DemoPromptResult = { ok: true; prompt: DemoPrompt } | { ok: false; error: string };

export interface TagScore {
  tag: string;
  /** Times the tag appears among the posts' tags. */
  inPosts: number;
  /** Its text (without `#`) appears in the persona so far. */
  inPersona: boolean;
  score: number;
  /** 1 for a kind the instructions prefer, −1 for one they avoid, else 0 */
  tier: number;
}

/** The reply, in the reference's JSON shape. */
export interface DemoReply {
  persona_summary: string;
  predicted_tags: string[];
  reasoning: string;
}

const POSTS_HEADING = /^# Posts of step (\d+)[ \t]*$/m;
const PERSONA_HEADING = /^# Persona so far[ \t]*$/m;
const USER_HEADING = /^# User[ \t]*$/m;
const TASK_HEADING = /^# Task[ \t]*$/gm;

/** The last line that is a JSON array of strings: the built-in template's `{{pool_json}}` line. */
function poolLine(lines: readonly string[]): { index: number; pool: string[] } | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i].trim();
    if (!line.startsWith('[') || !line.endsWith(']')) continue;
    try {
      const value: unknown = JSON.parse(line);
      if (Array.isArray(value) && value.every((t) => typeof t === 'string')) return { index: i, pool: value };
    } catch {
      // not the pool
    }
  }
  return undefined;
}

const shape =
  'the demo model reads prompts of the built-in template only: a "# Posts of step N" heading, then the posts, and ' +
  'the candidate pool as a JSON array of strings on a line of its own';

/** Reads the pool, posts and persona out of a prompt; an error says what is missing. */
export function readDemoPrompt(prompt: string): DemoPromptResult {
  const text = typeof prompt === 'string' ? prompt.replace(/\r\n/g, '\n') : '';
  if (text.trim() === '') return { ok: false, error: `The prompt is empty; ${shape}.` };
  const lines = text.split('\n');
  const found = poolLine(lines);
  if (!found) return { ok: false, error: `No candidate pool (a line holding a JSON array of strings); ${shape}.` };
  const poolAt = lines.slice(0, found.index).join('\n').length;
  const heading = POSTS_HEADING.exec(text);
  if (!heading || heading.index > poolAt) {
    return { ok: false, error: `No "# Posts of step N" heading before the candidate pool; ${shape}.` };
  }
  const postsStart = heading.index + heading[0].length + 1;
  // The template's own "# Task" heading is the last one before the pool: a post's text cannot end the posts early.
  let postsEnd = poolAt;
  for (const m of text.slice(postsStart, poolAt).matchAll(TASK_HEADING)) postsEnd = postsStart + m.index;
  const personaHeading = PERSONA_HEADING.exec(text.slice(0, heading.index));
  const personaText =
    personaHeading === null ? '' : pyStrip(text.slice(personaHeading.index + personaHeading[0].length, heading.index));
  // The instructions: the prompt without the user's data (from "# User", the persona or the posts heading to the end of
  // the posts) and without the pool line.
  const userHeading = USER_HEADING.exec(text.slice(0, heading.index));
  const dataStart = Math.min(userHeading?.index ?? heading.index, personaHeading?.index ?? heading.index);
  const poolEnd = poolAt + lines[found.index].length + 1;
  const instructions = `${text.slice(0, dataStart)}\n${text.slice(postsEnd, poolAt)}\n${text.slice(poolEnd)}`;
  const pool = found.pool;
  const rules = readRules(instructions);
  return {
    ok: true,
    prompt: {
      step: Number(heading[1]),
      posts: text.slice(postsStart, Math.max(postsStart, postsEnd)).trim(),
      persona: personaText === '' || personaText === COLD_START_PERSONA ? null : personaText,
      pool,
      k: rules.count?.k ?? kForPool(pool.length),
      rules,
    },
  };
}

/** A tag's text without its `#` marks, lower-cased, for finding it in prose. */
function bare(tag: string): string {
  return tag.replace(/^[#\s]+|[#\s]+$/g, '').toLowerCase();
}

/** The tags of the posts' `Tags:` lines; when the posts are not in the release's `[n]` shape, none. */
function postTags(posts: string): string[] {
  const parsed = parsePosts(posts);
  return parsed.ok ? parsed.posts.flatMap((p) => p.tags) : [];
}

const kindsOf = (inPosts: number, inPersona: boolean): TagKind[] =>
  inPosts > 0 || inPersona
    ? [...(inPosts > 0 ? ['posts' as const] : []), ...(inPersona ? ['persona' as const] : [])]
    : ['new'];

/** Every distinct candidate with its score, in pool order. */
export function scoreTags(prompt: Pick<DemoPrompt, 'posts' | 'persona' | 'pool' | 'rules'>): TagScore[] {
  const rules = prompt.rules ?? defaultRules(0);
  const counts = new Map<string, number>();
  for (const t of postTags(prompt.posts)) counts.set(t, (counts.get(t) ?? 0) + 1);
  const persona = (prompt.persona ?? '').toLowerCase();
  const out: TagScore[] = [];
  const seen = new Set<string>();
  for (const tag of prompt.pool) {
    if (seen.has(tag)) continue;
    seen.add(tag);
    const inPosts = counts.get(tag) ?? 0;
    const text = bare(tag);
    const inPersona = text !== '' && persona.includes(text);
    const kinds = kindsOf(inPosts, inPersona);
    const avoided = rules.avoid.some((a) => kinds.includes(a.kind));
    const preferred = rules.prefer.some((p) => kinds.includes(p.kind));
    const tier = avoided === preferred ? 0 : preferred ? 1 : -1;
    out.push({ tag, inPosts, inPersona, score: inPosts + (inPersona && rules.keep ? 1 : 0), tier });
  }
  return out;
}

/** Every distinct candidate, preferred kinds first and avoided last, then highest score first, ties in pool order. */
export function rankTags(prompt: Pick<DemoPrompt, 'posts' | 'persona' | 'pool' | 'rules'>): TagScore[] {
  return scoreTags(prompt)
    .map((s, order) => ({ s, order }))
    .sort((a, b) => b.s.tier - a.s.tier || b.s.score - a.s.score || a.order - b.order)
    .map(({ s }) => s);
}

const listed = (scores: readonly TagScore[]) => scores.map((s) => `${s.tag} (${s.score})`).join(', ');

/** The reply to one prompt: the picks, a persona naming them, and the rule with each pick's score. */
export function demoReply(prompt: DemoPrompt): DemoReply {
  const rules = prompt.rules ?? defaultRules(prompt.k);
  const ranked = rankTags({ ...prompt, rules });
  // No count asked: every candidate with evidence that is not avoided, at least one.
  const k = rules.count
    ? prompt.k
    : Math.max(Math.min(1, ranked.length), ranked.filter((s) => s.score > 0 && s.tier >= 0).length);
  const picks = ranked.slice(0, Math.max(0, k));
  const next = ranked[picks.length];
  const evidence = picks.filter((s) => s.score > 0);
  const fromPosts = evidence.filter((s) => s.inPosts > 0).map((s) => s.tag);
  const kept = evidence.filter((s) => s.inPosts === 0).map((s) => s.tag);
  const parts = [`Demo persona (${DEMO_MODEL_NAME}) after step ${prompt.step}.`];
  if (fromPosts.length > 0) parts.push(`The posts are about ${fromPosts.join(', ')}.`);
  if (kept.length > 0) parts.push(`Still interested in ${kept.join(', ')}.`);
  if (evidence.length === 0) parts.push('No candidate tag appears in the posts or the persona so far.');
  const reasoning =
    `Rule of the ${DEMO_MODEL_NAME}: each candidate scores the times it appears among the posts' tags, plus 1 ` +
    `when the persona so far names it and the instructions ask to keep interests; kinds the instructions prefer ` +
    `come first and those they avoid last; the ${k} highest are picked, ties in pool order. ` +
    `Instructions read: ${rulesText(rules)}. ` +
    (picks.length > 0 ? `Picked: ${listed(picks)}.` : 'The pool is empty: nothing to pick.') +
    (next ? ` Next: ${listed([next])}.` : '');
  return { persona_summary: parts.join(' '), predicted_tags: picks.map((s) => s.tag), reasoning };
}

/** The message content for a prompt (the reply as one JSON object), or why the prompt cannot be read. */
export function demoAnswer(
  prompt: string,
): { ok: true; content: string; reply: DemoReply; prompt: DemoPrompt } | { ok: false; error: string } {
  const read = readDemoPrompt(prompt);
  if (!read.ok) return read;
  const reply = demoReply(read.prompt);
  return { ok: true, content: JSON.stringify(reply), reply, prompt: read.prompt };
}

/** The demo endpoint's answer to a step prompt (the last user message), or why it is not one. */
export const spbDemoAnswer: DemoAnswer = (_messages, { prompt }) => {
  const result = demoAnswer(prompt);
  if (!result.ok) return { refused: result.error };
  const picked = `${result.reply.predicted_tags.length} of ${result.prompt.pool.length} tags`;
  return { content: result.content, summary: `step ${result.prompt.step}, ${picked}` };
};
