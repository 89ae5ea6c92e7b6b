// What the demo profiler reads from a prompt's instructions (everything but the user's data: the user, the persona so
// far, the posts and the pool line), so that editing them moves its picks as editing a real model's prompt would.
// The rules, keyed on words (English or Chinese, case-insensitive), each named in the reply's reasoning:
//   - count: the first "choose / pick / select / predict N" or "exactly N … tags" sets how many tags are picked;
//     instructions that ask no count get every candidate with evidence (at least one);
//   - keep: "keep interests", "interests that persist" (保留 / 持续 兴趣) make a tag the persona so far names score
//     1 more; without them the persona adds nothing;
//   - prefer / avoid: a clause with a verb (prefer, favour, prioritise, focus on, emphasise / avoid, exclude, ignore,
//     skip, do not pick …) and a kind of tag puts that kind first / last. The kinds the demo can see: tags of the
//     posts (posts, recent, latest, current), tags of the persona (persona, past, old, long-term) and new tags, in
//     neither (new, unseen, fresh).
// The built-in template asks "exactly k" and says "Keep interests that persist": its picks are the rule's without
// instructions (the tags of the posts, plus 1 for the persona). No sentence of it prefers or avoids a kind.

export type TagKind = 'posts' | 'persona' | 'new';

export interface DemoRules {
  /** the tag count asked and the words that asked it; null when the instructions ask for none */
  count: { k: number; said: string } | null;
  /** the words that ask to keep persisting interests; null: the persona adds nothing */
  keep: string | null;
  prefer: { kind: TagKind; said: string }[];
  avoid: { kind: TagKind; said: string }[];
}

/** The built-in template's rules for a pool's k: what a prompt without its instructions read is answered by. */
export const defaultRules = (k: number): DemoRules => ({
  count: { k, said: `exactly ${k}` },
  keep: 'Keep interests that persist',
  prefer: [],
  avoid: [],
});

const WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};
const N = `(\\d+|${Object.keys(WORDS).join('|')})`;
const COUNT = [
  new RegExp(`\\b(?:choose|pick|select|predict|return|give)\\s+(?:exactly\\s+|only\\s+|just\\s+)?${N}\\b`, 'i'),
  new RegExp(`\\bexactly\\s+${N}\\s+(?:[\\w-]+\\s+)?tags?\\b`, 'i'),
  /(?:选择|选出|挑选|预测|给出)\s*(\d+)\s*个/,
];
const KEEP =
  /\bkeep\s+(?:the\s+)?interests\b|\binterests\s+that\s+persist|\bpersist(?:ent|ing)\s+interests\b|保留.{0,6}兴趣|持续的?兴趣/i;
const PREFER = /\b(?:prefer|favou?r|prioriti[sz]e|focus\s+on|emphasi[sz]e)\b|优先|偏好|侧重/i;
const AVOID =
  /\b(?:avoid|exclude|ignore|skip)\b|\b(?:do\s+not|don't|never)\s+(?:pick|choose|select|use)\b|不要|避免|排除/i;
const KINDS: [TagKind, RegExp][] = [
  ['posts', /\bposts?\b|\brecent\b|\blatest\b|\bcurrent\b|帖子|最近|最新/i],
  ['persona', /\bpersona\b|\bpast\b|\bold\b|\blong[- ]term\b|画像|长期|过去/i],
  ['new', /\bnew\b|\bunseen\b|\bfresh\b|新兴趣|新的/i],
];

const quoted = (s: string) => s.trim().replace(/\s+/g, ' ').slice(0, 80);

/** The rules a prompt's instructions ask for (see the top of this file). */
export function readRules(instructions: string): DemoRules {
  let count: DemoRules['count'] = null;
  for (const re of COUNT) {
    const m = re.exec(instructions);
    if (!m) continue;
    const k = /^\d+$/.test(m[1]) ? Number(m[1]) : WORDS[m[1].toLowerCase()];
    count = { k, said: quoted(m[0]) };
    break;
  }
  const keep = KEEP.exec(instructions);
  const prefer: DemoRules['prefer'] = [];
  const avoid: DemoRules['avoid'] = [];
  for (const sentence of instructions.split(/(?<=[.!?。！？])\s+|\n+/)) {
    // A clause without a verb of its own takes the sentence's last one ("prefer the posts' tags, then new ones").
    let verb: 'prefer' | 'avoid' | null = null;
    for (const clause of sentence.split(/[,，;；]/)) {
      const a = AVOID.test(clause);
      const p = PREFER.test(clause);
      if (a !== p) verb = a ? 'avoid' : 'prefer';
      if (!verb) continue;
      for (const [kind, re] of KINDS) {
        if (!re.test(clause)) continue;
        const list = verb === 'avoid' ? avoid : prefer;
        if (!list.some((x) => x.kind === kind)) list.push({ kind, said: quoted(clause) });
      }
    }
  }
  return { count, keep: keep ? quoted(keep[0]) : null, prefer, avoid };
}

/** The rules in words, for the reply's reasoning: "count 4 ("choose exactly 4 tags"); persona +1 (...)". */
export function rulesText(r: DemoRules): string {
  const parts = [r.count ? `count ${r.count.k} ("${r.count.said}")` : 'no count asked: every tag with evidence'];
  parts.push(r.keep ? `persona +1 ("${r.keep}")` : 'no "keep interests": the persona adds nothing');
  for (const p of r.prefer) parts.push(`${p.kind} tags first ("${p.said}")`);
  for (const a of r.avoid) parts.push(`${a.kind} tags last ("${a.said}")`);
  return parts.join('; ');
}
