// The stand-in checkout of the OmniBehavior repository (test/fixtures/omni-checkout) and what its builder renders,
// computed by Python directly (not through Persona Lab's driver), for tests that compare the requests a run sends.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { Reply } from './scriptedServer';

export const OMNI_STAND_IN = resolve('test/fixtures/omni-checkout');

export interface RenderedQuestion {
  user: string;
  index: number;
  field: string;
  type: string;
  true_value: unknown;
  prompt: string | null;
}

/** Every question of every test action in `root`'s test_actions.jsonl, as the stand-in's builder renders it. */
export function standInQuestions(root: string, maxHistoryTokens: number): RenderedQuestion[] {
  const script = `
import json, os, sys
sys.path.insert(0, os.path.join(sys.argv[1], "src"))
import models.prompt_builder as pb
builders = {"binary": pb.build_single_binary_prompt, "continuous": pb.build_single_continuous_prompt,
            "text": pb.build_single_text_prompt}
root, budget, out, users = sys.argv[2], int(sys.argv[3]), [], {}
for line in open(os.path.join(root, "test_actions.jsonl"), encoding="utf-8"):
    if not line.strip():
        continue
    t = json.loads(line)
    uid = t["user_id"]
    if uid not in users:
        users[uid] = json.load(open(os.path.join(root, "raw", uid + ".json"), encoding="utf-8"))[uid]
    h = users[uid]["action_history"]
    action = dict(h[t["index"]])
    action["user_id"] = uid
    if pb.should_filter_action(action):
        continue
    for q in pb.get_all_questions_for_action(action):
        data = builders[q["type"]](users[uid].get("user_profile", ""), h[:t["index"]], action, q,
                                   max_history_tokens=budget, max_history_days=None)
        out.append({"user": uid, "index": t["index"], "field": q["field"], "type": q["type"],
                    "true_value": q["true_value"], "prompt": data["prompt"] if data else None})
sys.stdout.write(json.dumps(out))
`;
  const text = execFileSync('python3', ['-c', script, OMNI_STAND_IN, root, String(maxHistoryTokens)], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  return JSON.parse(text) as RenderedQuestion[];
}

/** A reply the stand-in's caller reads, by the answer its prompt asks for. */
export function standInReply(prompt: string): Reply {
  if (prompt.endsWith('yes or no')) return { kind: 'text', content: 'yes' };
  if (prompt.endsWith('a number of seconds')) return { kind: 'text', content: 'about 42 s' };
  if (prompt.startsWith('STAND-IN JUDGE'))
    return {
      kind: 'json',
      body: { scores: { intent_fidelity: 7, persona_mimicry: 4, knowledge_boundary: 9, semantic_alignment: 6 } },
    };
  return { kind: 'text', content: '"stand-in words"' };
}
