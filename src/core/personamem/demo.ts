// The demo model's answer to a PersonaMem question ("demo model, not an LLM"): a fixed rule, so that runs and the
// walkthrough work offline whatever made the request (the benchmark's own code, a stand-in's or the Persona Lab
// template). A request is a PersonaMem question when its last user turn asks for `<final_answer>` and lists options
// (a) to (d), one per line or as the authors' list. The rule picks the option sharing the most distinct words of four
// letters or more with the user's last message before the question (the question itself when the history has none);
// a tie goes to the earliest letter.

export interface PmDemoMessage {
  role: string;
  content: string;
}

export interface PmDemoAnswer {
  letter: string;
  shared: number;
  content: string;
}

const LETTERS = ['a', 'b', 'c', 'd'] as const;

/** The options (a)…(d) of a question turn, in letter order, or undefined when it lists no such four. */
export function demoOptions(text: string): string[] | undefined {
  const starts: number[] = [];
  let from = text.length;
  // from the end backwards: the options come after any "(a), (b), (c), or (d)" an instruction mentions
  for (let i = LETTERS.length - 1; i >= 0; i--) {
    const at = text.lastIndexOf(`(${LETTERS[i]}) `, from - 1);
    if (at < 0) return undefined;
    starts.unshift(at);
    from = at;
  }
  return starts.map((start, i) => {
    const end = i + 1 < starts.length ? starts[i + 1] : text.length;
    const body = text.slice(start + 4, end).split('\n')[0];
    return body.replace(/^[\s'"]+|[\s'",\]]+$/g, '');
  });
}

const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? []);

/** The demo's reply to a PersonaMem question, or undefined when the request is not one. */
export function personaMemDemoAnswer(messages: readonly PmDemoMessage[]): PmDemoAnswer | undefined {
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  if (lastUser < 0) return undefined;
  const turn = messages[lastUser].content;
  if (!turn.includes('<final_answer>')) return undefined;
  const options = demoOptions(turn);
  if (!options) return undefined;
  const before = messages.slice(0, lastUser).filter((m) => m.role === 'user');
  const said = words(before.length > 0 ? before[before.length - 1].content : turn);
  let best = 0;
  let shared = -1;
  options.forEach((o, i) => {
    const n = [...words(o)].filter((w) => said.has(w)).length;
    if (n > shared) [best, shared] = [i, n];
  });
  const letter = LETTERS[best];
  const content =
    `Demo model, not an LLM: option (${letter}) shares ${shared} word${shared === 1 ? '' : 's'} with the user's ` +
    `last message.\n<final_answer>(${letter})`;
  return { letter, shared, content };
}
