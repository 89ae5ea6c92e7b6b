// The demo model's answers to OmniBehavior requests ("demo model, not an LLM"): fixed rules on the prompt's text, so
// that the walkthrough and the tests run offline whatever prompt made the request (the benchmark's own, a stand-in's
// or Persona Lab's). The answer type is read from the prompt's closing instruction:
//   - a judge's request (it names the four dimensions) gets {"scores": {...}}, each 1 + a hash of prompt and name % 10;
//   - "Yes or No" (Yes / No, 是否) gets Yes when a hash of the prompt is divisible by 4, else No (real users rarely act);
//   - a number of seconds (整数, seconds, number) gets 5 + the hash % 116;
//   - anything else is a text question and gets "demo text <hash % 1000>".
import { JUDGE_DIMENSIONS } from '../omni/run/source';

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

export function omniDemoAnswer(prompt: string): { kind: OmniDemoKind; content: string } {
  const kind = omniDemoKind(prompt);
  const h = demoHash(prompt);
  if (kind === 'judge') {
    const scores = Object.fromEntries(JUDGE_DIMENSIONS.map((d) => [d, 1 + (demoHash(prompt + d) % 10)]));
    return { kind, content: JSON.stringify({ scores }) };
  }
  if (kind === 'binary') return { kind, content: h % 4 === 0 ? 'Yes' : 'No' };
  if (kind === 'continuous') return { kind, content: String(5 + (h % 116)) };
  return { kind, content: `demo text ${h % 1000}` };
}
