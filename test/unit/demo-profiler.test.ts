// The demo profiler (src/core/demo/profiler.ts): it reads every step prompt of the sample as our runner renders it,
// picks exactly k tags by its documented rule, and its reply goes through our own reply parser without a flag.
import { describe, expect, it } from 'vitest';
import { demoAnswer, demoReply, rankTags, readDemoPrompt, type DemoPrompt } from '../../src/core/spb/demo/profiler';
import { loadBenchmark, readPostsText } from '../../src/core/spb/format/load';
import { DEFAULT_TEMPLATE, renderPrompt } from '../../src/core/spb/prompt/prompt';
import { parseReply, threadPersona } from '../../src/core/spb/prompt/response';
import { kForPool } from '../../src/core/spb/score/step';
import { renderStepRequest } from '../../src/core/spb/run/step';
import type { User } from '../../src/core/spb/types';
import { SAMPLE } from '../support/committedSample';

const promptFor = (pool: string[], posts: string, persona: string | null = null, stepId = 2) =>
  renderPrompt(DEFAULT_TEMPLATE, {
    platform: 'weibo',
    username: 'U_0000abcd',
    bio: '',
    persona,
    stepId,
    totalSteps: 3,
    postsText: posts,
    pool,
  }).text;

const POSTS = '[1] Content: 周末去徒步了。\nTags: #徒步# #骑行#\n\n[2] Content: 又去徒步。\nTags: #徒步# #简历#';
const POOL = ['#跑步#', '#简历#', '#徒步#', '#骑行#', '#中秋节#', '#裁员#', '#增肌#', '#远程办公#'];

describe('reading a prompt', () => {
  it('finds the pool, k, the posts, the step and the persona of a built-in prompt', () => {
    const read = readDemoPrompt(promptFor(POOL, POSTS, 'Likes 增肌 and long walks.', 3));
    expect(read).toEqual({
      ok: true,
      prompt: {
        step: 3,
        posts: POSTS,
        persona: 'Likes 增肌 and long walks.',
        pool: POOL,
        k: kForPool(POOL.length),
        // The built-in template's instructions: the count it asks and "Keep interests that persist".
        rules: { count: { k: 2, said: 'choose exactly 2' }, keep: 'Keep interests', prefer: [], avoid: [] },
      },
    });
  });

  it('follows an edited prompt: with the posts deleted the picks change, with the heading deleted it says why', () => {
    const full = demoAnswer(promptFor(POOL, POSTS));
    const edited = promptFor(POOL, POSTS).replace(POSTS, '');
    const without = demoAnswer(edited);
    expect(full.ok && without.ok).toBe(true);
    if (!full.ok || !without.ok) return;
    expect(full.reply.predicted_tags).toContain('#徒步#');
    expect(without.prompt.posts).toBe('');
    expect(without.reply.predicted_tags).not.toEqual(full.reply.predicted_tags);
    expect(without.reply.predicted_tags).toEqual(POOL.slice(0, kForPool(POOL.length)));
    const headless = demoAnswer(edited.replace(/^# Posts of step \d+$/m, ''));
    expect(headless).toEqual({ ok: false, error: expect.stringContaining('No "# Posts of step N" heading') });
  });

  it('reads the cold-start text as no persona', () => {
    const read = readDemoPrompt(promptFor(POOL, POSTS, null, 1));
    expect(read.ok && read.prompt.persona).toBeNull();
  });

  it('keeps a post line that looks like a heading inside the posts', () => {
    const posts = '[1] Content: first line\n# Task\nstill the post\nTags: #徒步#';
    const read = readDemoPrompt(promptFor(POOL, posts));
    expect(read.ok && read.prompt.posts).toBe(posts);
  });

  it.each([
    ['', /empty/],
    ['Tell me about this user.', /No candidate pool/],
    ['Posts:\n[1] Content: x\nTags: #a#\n["#a#", "#b#"]', /No "# Posts of step N" heading/],
    ['["#a#", "#b#"]\n# Posts of step 1\n[1] Content: x', /No "# Posts of step N" heading before/],
  ])('says what is missing from %j', (prompt, message) => {
    const read = readDemoPrompt(prompt);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.error).toMatch(message);
  });
});

describe('the rule', () => {
  const prompt = (persona: string | null, k = 2): DemoPrompt => ({ step: 2, posts: POSTS, persona, pool: POOL, k });

  it('scores the times a tag is among the posts tags, plus 1 when the persona names it', () => {
    const scores = rankTags(prompt('喜欢增肌，也关注简历。'));
    expect(scores.slice(0, 4).map((s) => [s.tag, s.inPosts, s.inPersona, s.score])).toEqual([
      ['#简历#', 1, true, 2],
      ['#徒步#', 2, false, 2],
      ['#骑行#', 1, false, 1],
      ['#增肌#', 0, true, 1],
    ]);
  });

  it('picks exactly k, highest first, ties in pool order', () => {
    expect(demoReply(prompt(null, 3)).predicted_tags).toEqual(['#徒步#', '#简历#', '#骑行#']);
    // #简历# and #徒步# tie at 2: #简历# comes first in the pool.
    expect(demoReply(prompt('简历', 2)).predicted_tags).toEqual(['#简历#', '#徒步#']);
    // Nothing scores: the first k of the pool.
    expect(demoReply({ ...prompt(null, 3), posts: '' }).predicted_tags).toEqual(POOL.slice(0, 3));
  });

  it('counts a repeated pool tag once and picks every tag of a pool smaller than k', () => {
    const reply = demoReply({ ...prompt(null, 3), pool: ['#徒步#', '#徒步#', '#跑步#'] });
    expect(reply.predicted_tags).toEqual(['#徒步#', '#跑步#']);
  });

  it('answers an empty pool with no tags and says why', () => {
    const reply = demoReply({ ...prompt(null, 1), pool: [] });
    expect(reply.predicted_tags).toEqual([]);
    expect(reply.reasoning).toContain('The pool is empty');
  });

  it('names itself a demo model, not an LLM, in the persona and the reasoning', () => {
    const reply = demoReply(prompt(null));
    expect(reply.persona_summary).toContain('demo model, not an LLM');
    expect(reply.reasoning).toContain('demo model, not an LLM');
    expect(reply.reasoning).toContain('Picked: #徒步# (2), #简历# (1).');
  });
});

describe('on every step of the sample', async () => {
  const bench = await loadBenchmark(SAMPLE);
  const users: User[] = [...bench.users.values()].flatMap((m) => [...m.values()]);

  it('answers each step prompt with exactly k pool tags that our parser accepts without a flag', () => {
    let steps = 0;
    let emptyPools = 0;
    for (const user of users) {
      let persona: string | null = null;
      for (const step of user.steps) {
        const { prompt, k } = renderStepRequest({ user, step, personaIn: persona, template: DEFAULT_TEMPLATE });
        const answer = demoAnswer(prompt);
        if (!answer.ok) throw new Error(`${user.userId} step ${step.stepId}: ${answer.error}`);
        expect(answer.prompt).toMatchObject({ step: step.stepId, pool: step.pool, k, persona });
        expect(answer.prompt.posts).toBe(readPostsText(user, step).trim());
        const parsed = parseReply(answer.content, step.pool, k);
        expect(parsed.ok).toBe(true);
        expect(parsed.value).toEqual(answer.reply);
        if (step.pool.length > 0) {
          expect(parsed.flags).toEqual([]);
          expect(answer.reply.predicted_tags).toHaveLength(k);
        } else {
          // The sample's unscored step: nothing to pick, which the parser notes as a count.
          expect(parsed.flags.map((f) => f.code)).toEqual(['count']);
          emptyPools++;
        }
        // The same prompt gives the same bytes.
        expect(demoAnswer(prompt)).toEqual(answer);
        persona = threadPersona(persona, parsed.parsed);
        steps++;
      }
    }
    expect(steps).toBe(166);
    expect(emptyPools).toBe(1);
  });

  it('carries the persona: a tag its persona named scores 1 more at the next step', () => {
    const first = (user: User) => {
      const answer = demoAnswer(
        renderStepRequest({ user, step: user.steps[0], personaIn: null, template: DEFAULT_TEMPLATE }).prompt,
      );
      if (!answer.ok) throw new Error(answer.error);
      return answer.reply;
    };
    const user = users.find(
      (u) => u.steps.length >= 2 && first(u).predicted_tags.some((t) => u.steps[1].pool.includes(t)),
    )!;
    const reply = first(user);
    const next = renderStepRequest({
      user,
      step: user.steps[1],
      personaIn: reply.persona_summary,
      template: DEFAULT_TEMPLATE,
    });
    const read = readDemoPrompt(next.prompt);
    if (!read.ok) throw new Error(read.error);
    const without = new Map(rankTags({ ...read.prompt, persona: null }).map((s) => [s.tag, s.score]));
    const carried = rankTags(read.prompt).filter((s) => s.inPersona);
    for (const s of carried) expect(s.score).toBe((without.get(s.tag) ?? 0) + 1);
    const named = reply.predicted_tags.filter((t) => user.steps[1].pool.includes(t));
    expect(named.length).toBeGreaterThan(0);
    expect(carried.map((s) => s.tag)).toEqual(expect.arrayContaining(named));
  });
});
