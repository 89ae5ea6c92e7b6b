// The demo model's answers to OmniBehavior requests ("demo model, not an LLM"): fixed rules on the prompt's text, so
// that the walkthrough and the tests run offline whatever prompt made the request (the benchmark's own, a stand-in's
// or Persona Lab's). The answer type is read from the prompt's closing instruction:
//   - a judge's request (it names the four dimensions) gets {"scores": {...}}, each 1 + a hash of prompt and name % 10;
//   - "Yes or No" (Yes / No, 是否) gets Yes when a hash of the prompt is divisible by 4, else No (real users rarely act);
//   - a number of seconds (整数, seconds, number) gets 5 + the hash % 116;
//   - anything else is a text question, answered from the user's own words in the prompt (textFromHistory): a search
//     question gets the keyword of the user's last search, another one (the customer-service message) the user's last
//     line of the conversation; failing those, the other one, then the topic the history's captions name most often,
//     and only with none of these "demo text <hash % 1000>".
import type { DemoAnswer } from '../formats/descriptor';
import { JUDGE_DIMENSIONS } from './run/source';

export type OmniDemoKind = 'judge' | 'binary' | 'continuous' | 'text';

/** FNV-1a over the UTF-16 code units: stable across runs and platforms. */
export function demoHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function omniDemoKind(prompt: string): OmniDemoKind {
  if (JUDGE_DIMENSIONS.every((d) => prompt.includes(d))) return 'judge';
  const tail = prompt.slice(-400);
  if (/\byes\b/i.test(tail) && /\bno\b/i.test(tail)) return 'binary';
  if (/整数|\bseconds?\b|\bnumber\b/i.test(tail)) return 'continuous';
  return 'text';
}

const lastOf = (re: RegExp, text: string): string | undefined => {
  let last: string | undefined;
  for (const m of text.matchAll(re)) if (m[1].trim() !== '') last = m[1].trim();
  return last;
};

/** "keyword=home cooking", "keyword: 家常菜", "搜索词：…", "\"keyword\": \"…\"": the user's searches, in order. */
const KEYWORD = /(?:keyword|query|搜索词|关键词)"?\s*[=:：]\s*"?([^,，)\n"]+)/gi;
/** A user's line of a conversation: "user: …" / "用户：…" at the start of a line. */
const USER_TURN = /^\s*(?:user|用户|customer|顾客)\s*[:：]\s*(.+)$/gim;
/** A caption's topic: "caption: home cooking #29" → "home cooking". */
const CAPTION = /(?:caption|标题)\s*[:：]\s*([^#;；\n]+?)\s*(?:#\d+)?\s*[;；\n]/gi;

/** The answer to a text question from the user's history in the prompt, or undefined when it has none of it. */
export function textFromHistory(prompt: string): string | undefined {
  const search = /search|搜索/i.test(prompt.slice(-400));
  const keyword = lastOf(KEYWORD, prompt);
  const said = lastOf(USER_TURN, prompt);
  const first = search ? (keyword ?? said) : (said ?? keyword);
  if (first) return first;
  const topics = new Map<string, number>();
  for (const m of prompt.matchAll(CAPTION)) topics.set(m[1].trim(), (topics.get(m[1].trim()) ?? 0) + 1);
  let best: string | undefined;
  for (const [t, n] of topics) if (t !== '' && (best === undefined || n > topics.get(best)!)) best = t;
  return best;
}

export function omniDemoAnswer(prompt: string): { kind: OmniDemoKind; content: string } {
  const kind = omniDemoKind(prompt);
  const h = demoHash(prompt);
  if (kind === 'judge') {
    const scores = Object.fromEntries(JUDGE_DIMENSIONS.map((d) => [d, 1 + (demoHash(prompt + d) % 10)]));
    return { kind, content: JSON.stringify({ scores }) };
  }
  if (kind === 'binary') return { kind, content: h % 4 === 0 ? 'Yes' : 'No' };
  if (kind === 'continuous') return { kind, content: String(5 + (h % 116)) };
  return { kind, content: textFromHistory(prompt) ?? `demo text ${h % 1000}` };
}

/** The demo endpoint's answer to a request of one user message and no system message: a question or a judge's. */
export const omniDemo: DemoAnswer = (_messages, { prompt, hasSystem }) => {
  if (hasSystem) return undefined;
  const omni = omniDemoAnswer(prompt);
  return { content: omni.content, summary: `OmniBehavior ${omni.kind}: ${omni.content.slice(0, 40)}` };
};
