// The persona an attempt received is the one its request sent: a draft whose persona text was edited sent the edit,
// and the comparison's "Persona received" shows it, not the persona the step carries.
import { describe, expect, it } from 'vitest';
import { buildComparison, type AttemptRow } from '../../src/core/spb/rerun/attemptCompare';
import { draftPersona, sentSpanText } from '../../src/core/spb/rerun/sentPersona';
import { COLD_START_PERSONA, DEFAULT_TEMPLATE, renderPrompt, renderedSpans } from '../../src/core/spb/prompt/prompt';
import type { Step } from '../../src/core/spb/types';

const carried = '一名正在准备考研的学生，关注教育与心理健康话题。';
const ctx = {
  platform: 'weibo',
  username: 'U_1234abcd',
  bio: '喜欢跑步',
  persona: carried,
  stepId: 3,
  totalSteps: 4,
  postsText: '[1] Content: 今天跑了十公里\nTags: #跑步#',
  pool: ['#跑步#', '#读书#', '#电影#', '#旅行#'],
};
const shown = renderPrompt(DEFAULT_TEMPLATE, ctx).text;
const origin = { templateText: DEFAULT_TEMPLATE, personaIn: carried, prompt: shown };

describe('the persona a draft sent', () => {
  it('locates each value where renderPrompt put it', () => {
    const spans = renderedSpans(DEFAULT_TEMPLATE, ctx);
    const persona = spans.find((s) => s.slot === 'persona')!;
    expect(shown.slice(persona.start, persona.end)).toBe(carried);
    const posts = spans.find((s) => s.slot === 'posts')!;
    expect(shown.slice(posts.start, posts.end)).toBe(ctx.postsText);
  });

  it('is the carried persona when the persona text was not touched', () => {
    const edited = shown.replace(/^Rules: .*\n/m, '');
    expect(draftPersona(origin, ctx, edited)).toEqual({ personaIn: carried, mode: 'carried' });
  });

  it('is the edited text when the persona was edited inside, or had text joined to it', () => {
    expect(draftPersona(origin, ctx, shown.replace('考研', '出国'))).toEqual({
      personaIn: carried.replace('考研', '出国'),
      mode: 'edited',
    });
    const joined = shown.replace(`${carried}\n`, `${carried}另外一直在关注#职业规划#。\n`);
    expect(draftPersona(origin, ctx, joined)).toEqual({
      personaIn: `${carried}另外一直在关注#职业规划#。`,
      mode: 'edited',
    });
    // A new line under the persona is the template's own text, not the persona.
    const below = shown.replace(`${carried}\n`, `${carried}\nWeigh recent posts more.\n`);
    expect(draftPersona(origin, ctx, below)).toEqual({ personaIn: carried, mode: 'carried' });
  });

  it('replaces the cold-start text when a persona was typed in its place', () => {
    const cold = { ...ctx, persona: null };
    const text = renderPrompt(DEFAULT_TEMPLATE, cold).text;
    const typed = text.replace(COLD_START_PERSONA, '关注职业规划。');
    expect(draftPersona({ templateText: DEFAULT_TEMPLATE, personaIn: null }, cold, typed)).toEqual({
      personaIn: '关注职业规划。',
      mode: 'edited',
    });
  });

  it('follows the carried persona in a draft of the benchmark prompt', () => {
    const prompt = `Profile of U_1\nHistory persona: ${carried}\nPosts: ...`;
    const reference = { templateText: null, personaIn: carried, prompt };
    expect(draftPersona(reference, ctx, prompt.replace('心理健康', '职业规划'))).toEqual({
      personaIn: carried.replace('心理健康', '职业规划'),
      mode: 'edited',
    });
    expect(sentSpanText(prompt, { start: 0, end: 7 }, `X${prompt}`)).toBe('XProfile');
  });

  it('finds a short persona that also stands elsewhere in the prompt where it was edited', () => {
    const prompt = 'Posts: [1] 无\nHistory persona: 无\nPick tags.';
    const reference = { templateText: null, personaIn: '无', prompt };
    const edited = prompt.replace('persona: 无', 'persona: 无，喜欢跑步');
    expect(draftPersona(reference, { ...ctx, persona: '无' }, edited)).toEqual({
      personaIn: '无，喜欢跑步',
      mode: 'edited',
    });
    const postsOnly = prompt.replace('Pick tags.', 'Pick five tags.');
    expect(draftPersona(reference, { ...ctx, persona: '无' }, postsOnly)).toEqual({ personaIn: '无', mode: 'carried' });
  });

  it('is what the comparison shows under Persona received', () => {
    const step: Step = {
      stepId: 3,
      totalSteps: 4,
      dateInput: '2024-01-02',
      dateTarget: '2024-01-12',
      index: 2,
      pool: ctx.pool,
      split: { tKeep: ['#跑步#'], tNew: [], dDecay: ['#读书#'], dPeer: [], dViral: [], dRandom: ['#电影#', '#旅行#'] },
    };
    const sent = shown.replace(`${carried}\n`, `${carried}另外一直在关注#职业规划#。\n`);
    const persona = draftPersona(origin, ctx, sent);
    const attempt: AttemptRow = {
      id: 2,
      run: 'rerun',
      templateId: 'abcdef012345',
      model: 'm',
      baseURL: 'http://h/v1',
      personaIn: persona.personaIn,
      system: 's',
      prompt: sent,
      raw: '{}',
      flags: [],
      error: null,
      prediction: ['#跑步#'],
      reasoning: '',
      personaSummary: '',
      tries: [{}],
      latencyMs: 1,
      usage: null,
      createdAt: '2024-05-01T10:00:00.000Z',
      meta: { kind: 'rerun', personaMode: persona.mode, baseRun: 'demo', templateName: 'draft' },
    };
    const c = buildComparison({ step, original: undefined, originalRun: 'demo', originalPersonaIn: carried, attempt });
    expect(c.rerun.personaIn).toBe(`${carried}另外一直在关注#职业规划#。`);
    expect(c.original.personaIn).toBe(carried);
    expect(c.attempt.personaMode).toBe('edited');
  });
});
