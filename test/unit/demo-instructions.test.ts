// The demo profiler reads the prompt's instructions (src/core/demo/instructions.ts): the tag count asked, "keep
// interests", and kinds of tag to prefer or avoid, so that an edit of the instructions moves its picks; the built-in
// template's own instructions give the plain rule's picks on every step of the sample.
import { describe, expect, it } from 'vitest';
import { demoAnswer, demoReply, readDemoPrompt } from '../../src/core/spb/demo/profiler';
import { readRules } from '../../src/core/spb/demo/instructions';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { DEFAULT_TEMPLATE, renderPrompt } from '../../src/core/spb/prompt/prompt';
import { renderStepRequest } from '../../src/core/spb/run/step';
import { parseReply, threadPersona } from '../../src/core/spb/prompt/response';
import { SAMPLE } from '../support/committedSample';

const POSTS = '[1] Content: 周末去徒步了。\nTags: #徒步# #骑行#\n\n[2] Content: 又去徒步。\nTags: #徒步# #简历#';
const POOL = ['#跑步#', '#简历#', '#徒步#', '#骑行#', '#中秋节#', '#裁员#', '#增肌#', '#远程办公#'];
const COUNT_SENTENCE = 'choose exactly {{k}} tags';

const render = (template: string, persona: string | null = null) =>
  renderPrompt(template, {
    platform: 'weibo',
    username: 'U_0000abcd',
    bio: '',
    persona,
    stepId: 2,
    totalSteps: 3,
    postsText: POSTS,
    pool: POOL,
  }).text;

const picks = (template: string, persona: string | null = null) => {
  const a = demoAnswer(render(template, persona));
  if (!a.ok) throw new Error(a.error);
  return a.reply.predicted_tags;
};

describe('the instructions move the picks', () => {
  it('the template has the sentences these tests edit', () => {
    expect(DEFAULT_TEMPLATE).toContain(COUNT_SENTENCE);
    expect(DEFAULT_TEMPLATE).toContain('pick exactly {{k}} different tags');
    expect(DEFAULT_TEMPLATE).toContain('Keep interests that persist,');
  });

  it('picks as many tags as the tag-count sentence asks', () => {
    expect(picks(DEFAULT_TEMPLATE)).toEqual(['#徒步#', '#简历#']);
    const three = DEFAULT_TEMPLATE.replace(COUNT_SENTENCE, 'choose exactly 3 tags');
    expect(picks(three)).toEqual(['#徒步#', '#简历#', '#骑行#']);
    expect(picks(DEFAULT_TEMPLATE.replace(COUNT_SENTENCE, 'choose one tag'))).toEqual(['#徒步#']);
    // With no count asked anywhere: every tag with evidence.
    const none = DEFAULT_TEMPLATE.replace(COUNT_SENTENCE, 'choose the tags').replace(
      'pick exactly {{k}} different tags; ',
      '',
    );
    const reply = demoAnswer(render(none));
    expect(reply.ok && reply.reply.predicted_tags).toEqual(['#徒步#', '#简历#', '#骑行#']);
    expect(reply.ok && reply.reply.reasoning).toContain('no count asked');
  });

  it('counts the persona only while the instructions ask to keep interests', () => {
    const persona = '喜欢增肌，也常去跑步。';
    const kept = DEFAULT_TEMPLATE.replace(COUNT_SENTENCE, 'choose exactly 3 tags');
    expect(picks(kept, persona)).toEqual(['#徒步#', '#跑步#', '#简历#']);
    const dropped = kept.replace('Keep interests that persist,', '');
    expect(picks(dropped, persona)).toEqual(['#徒步#', '#简历#', '#骑行#']);
  });

  it('puts a kind the instructions avoid last and one they prefer first', () => {
    const avoid = DEFAULT_TEMPLATE.replace('Rules:', 'Avoid the tags of the posts.\nRules:');
    expect(picks(avoid)).toEqual(['#跑步#', '#中秋节#']);
    const prefer = DEFAULT_TEMPLATE.replace('Rules:', 'Prefer new interests.\nRules:');
    expect(picks(prefer)).toEqual(['#跑步#', '#中秋节#']);
    const persona = DEFAULT_TEMPLATE.replace('Rules:', '优先选择画像里的长期兴趣。\nRules:');
    expect(picks(persona, '喜欢增肌。')).toEqual(['#增肌#', '#徒步#']);
    const read = readDemoPrompt(render(avoid));
    expect(read.ok && read.prompt.rules?.avoid).toEqual([{ kind: 'posts', said: 'Avoid the tags of the posts.' }]);
  });

  it('reads no rule from the user data: a post or a persona that says "avoid" or "pick 1" is data', () => {
    const posts = `${POSTS}\n\n[3] Content: Avoid the posts, pick 1 tag.\nTags: #徒步#`;
    const text = renderPrompt(DEFAULT_TEMPLATE, {
      platform: 'weibo',
      username: 'U',
      bio: 'choose 1',
      persona: 'Prefer new interests.',
      stepId: 2,
      totalSteps: 3,
      postsText: posts,
      pool: POOL,
    }).text;
    const read = readDemoPrompt(text);
    expect(read.ok && read.prompt.rules).toEqual(readRules(DEFAULT_TEMPLATE.replace(/\{\{k\}\}/g, '2')));
  });
});

describe('on every step of the sample', async () => {
  const bench = await loadBenchmark(SAMPLE);
  it('the built-in template gives the plain rule’s picks (the sample walkthrough is unchanged)', () => {
    let steps = 0;
    for (const byUser of bench.users.values())
      for (const user of byUser.values()) {
        let persona: string | null = null;
        for (const step of user.steps) {
          const { prompt } = renderStepRequest({ user, step, personaIn: persona, template: DEFAULT_TEMPLATE });
          const answer = demoAnswer(prompt);
          if (!answer.ok) throw new Error(answer.error);
          const plain = demoReply({ ...answer.prompt, rules: undefined });
          expect(answer.reply.predicted_tags).toEqual(plain.predicted_tags);
          expect(answer.prompt.rules).toMatchObject({ keep: 'Keep interests', prefer: [], avoid: [] });
          persona = threadPersona(persona, parseReply(answer.content, step.pool, answer.prompt.k).parsed);
          steps++;
        }
      }
    expect(steps).toBe(166);
  });
});
