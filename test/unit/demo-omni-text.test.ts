// The demo model's OmniBehavior text answers come from the user's history in the prompt (src/core/demo/omni.ts): the
// last search keyword for a search, the user's last line for a customer-service message; never "demo text N" when
// the prompt has the user's own words.
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { omniDemoAnswer, textFromHistory } from '../../src/core/omni/demo';
import { omniTemplateSource } from '../../src/core/omni/run/template';
import { OMNI_SAMPLE } from '../support/committedSample';

const ROOT = OMNI_SAMPLE;
const actions = readFileSync(join(ROOT, 'test_actions.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as { user_id: string; index: number; fields: string[] });

async function textPrompts() {
  const source = omniTemplateSource();
  const out: { field: string; prompt: string }[] = [];
  for (const a of actions.filter(
    (x) => x.fields.includes('search_keyword') || x.fields.includes('next_user_message'),
  )) {
    const q = await source.questions(join(ROOT, 'raw', `${a.user_id}.json`), a.user_id, a.index, {
      maxHistoryTokens: 4000,
    });
    for (const x of q.questions) if (x.kind === 'text' && x.prompt) out.push({ field: x.field, prompt: x.prompt });
  }
  return out;
}

describe('the demo model answers text questions from the history', async () => {
  const prompts = await textPrompts();

  it('answers a search with the keyword of the last search in the history', () => {
    const search = prompts.filter((p) => p.field === 'search_keyword');
    expect(search.length).toBeGreaterThan(0);
    for (const { prompt } of search) {
      const last = [...prompt.matchAll(/search \(keyword=([^)]+)\)/g)].at(-1)?.[1];
      if (!last) continue;
      expect(omniDemoAnswer(prompt)).toEqual({ kind: 'text', content: last });
    }
  });

  it('answers a customer-service message with the user’s last line of the conversation', () => {
    const said = prompts.filter((p) => p.field === 'next_user_message');
    expect(said.length).toBeGreaterThan(0);
    for (const { prompt } of said) {
      const last = [...prompt.matchAll(/^user: (.+)$/gm)].at(-1)?.[1];
      expect(last).toBeDefined();
      expect(omniDemoAnswer(prompt).content).toBe(last);
    }
  });

  it('never says "demo text" on the sample, and the same prompt gets the same answer', () => {
    for (const { prompt } of prompts) {
      expect(omniDemoAnswer(prompt).content).not.toMatch(/^demo text/);
      expect(omniDemoAnswer(prompt)).toEqual(omniDemoAnswer(prompt));
    }
  });

  it('falls back on the most frequent caption topic, then on demo text', () => {
    const p =
      '- a · caption: cats #1; x\n- b · caption: dogs #2; x\n- c · caption: cats #3; x\nWhat will the user say?';
    expect(textFromHistory(p)).toBe('cats');
    expect(textFromHistory('Say something.')).toBeUndefined();
    expect(omniDemoAnswer('Say something.').content).toMatch(/^demo text \d+$/);
    expect(textFromHistory('搜索词：家常菜\n用户：退款多久到账？\n请问用户会搜索什么？')).toBe('家常菜');
  });
});
