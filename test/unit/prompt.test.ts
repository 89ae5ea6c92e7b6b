import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PLATFORM_CONTEXT, platformContext } from '../../src/core/spb/prompt/platforms';
import {
  BIO_NOT_PROVIDED,
  COLD_START_PERSONA,
  DEFAULT_SYSTEM_MESSAGE,
  DEFAULT_TEMPLATE,
  SLOT_NAMES,
  checkTemplate,
  findSlots,
  renderPrompt,
  templateHash,
  templateId,
  type PromptContext,
} from '../../src/core/spb/prompt/prompt';
import { PLATFORMS } from '../../src/core/spb/types';

const ctx: PromptContext = {
  platform: 'weibo',
  username: 'U_0123abcd',
  bio: '',
  persona: null,
  stepId: 2,
  totalSteps: 5,
  postsText: '[1] Content: 今天跑步 {{k}}\nTags: #跑步#',
  pool: ['#跑步#', '#b#', '#c#', '#d#', '#e#', '#f#'],
};

describe('platforms', () => {
  it('has every platform, with a tag example in its format', () => {
    for (const p of PLATFORMS) expect(PLATFORM_CONTEXT[p].name.length).toBeGreaterThan(0);
    expect(PLATFORM_CONTEXT.weibo.tagExample).toMatch(/^#[^#]+#$/);
    expect(PLATFORM_CONTEXT.xiaohongshu.tagExample).toMatch(/^#[^#]+$/);
    expect(PLATFORM_CONTEXT.douban.tagExample).toMatch(/^[^:]+:.+$/);
    expect(platformContext('myspace').platform).toBeNull();
  });
});

describe('renderPrompt', () => {
  it('fills every slot of the default template', () => {
    const { text, k } = renderPrompt(DEFAULT_TEMPLATE, ctx);
    // 6 candidates: round(1.5) = 2 with Python's half-to-even
    expect(k).toBe(2);
    // the only braces left are the ones inside the posts
    expect(text).toContain(ctx.postsText);
    expect(text.replace(ctx.postsText, '')).not.toContain('{{');
    expect(text).toContain('["#跑步#", "#b#", "#c#", "#d#", "#e#", "#f#"]');
    expect(text).toContain(`Bio: ${BIO_NOT_PROVIDED}`);
    expect(text).toContain(COLD_START_PERSONA);
    expect(text).toContain('choose exactly 2 tags');
    expect(text).toContain('pick exactly 2 different tags');
    expect(text).toContain('From the 6 candidate tags');
    expect(text).toContain('Posts of step 2');
    expect(text).toContain(PLATFORM_CONTEXT.weibo.name);
  });

  it('does not expand slot-like text inside the posts', () => {
    const { text } = renderPrompt('{{posts}}|{{k}}', ctx);
    expect(text).toBe('[1] Content: 今天跑步 {{k}}\nTags: #跑步#|2');
  });

  it('uses the persona and bio when given, and leaves unknown slots as written', () => {
    const { text } = renderPrompt('{{ persona }}/{{bio}}/{{nope}}/{{total_steps}}', {
      ...ctx,
      persona: 'Runner.',
      bio: ' ',
    });
    expect(text).toBe('Runner./ /{{nope}}/5');
  });

  it('k follows Python rounding', () => {
    const pool10 = Array.from({ length: 10 }, (_, i) => `#t${i}`);
    expect(renderPrompt('{{k}}', { ...ctx, pool: pool10 }).k).toBe(2); // round(2.5) = 2
    expect(renderPrompt('{{k}}', { ...ctx, pool: pool10.slice(0, 2) }).k).toBe(1); // max(1, round(0.5) = 0)
    expect(renderPrompt('{{k}}', { ...ctx, pool: [...pool10, '#x', '#y', '#z', '#w'] }).k).toBe(4); // round(3.5) = 4
  });

  it('never throws on missing fields', () => {
    const bad = { platform: undefined, pool: undefined } as unknown as PromptContext;
    const { text, k } = renderPrompt('{{platform_name}}|{{pool_json}}|{{username}}', bad);
    expect(k).toBe(1);
    expect(text).toBe('an unknown platform|[]|');
  });
});

describe('checkTemplate', () => {
  it('finds nothing wrong in the default template', () => {
    expect(checkTemplate(DEFAULT_TEMPLATE)).toEqual([]);
    const used = new Set(findSlots(DEFAULT_TEMPLATE).map((s) => s.slot));
    for (const name of Object.keys(SLOT_NAMES)) if (name !== 'total_steps') expect(used.has(name)).toBe(true);
    expect(findSlots(DEFAULT_TEMPLATE).filter((s) => s.slot === 'k').length).toBeGreaterThanOrEqual(2);
  });

  it('reports unknown slots at their 1-based position', () => {
    const problems = checkTemplate('{{posts}} {{k}}\n  {{pool_jsn}} {{K}}');
    const unknown = problems.filter((p) => p.kind === 'unknown');
    expect(unknown.map((p) => [p.slot, p.line, p.column, p.length, p.severity])).toEqual([
      ['pool_jsn', 2, 3, 12, 'error'],
      ['K', 2, 16, 5, 'error'],
    ]);
    expect(unknown[1].message).toContain('Did you mean {{k}}?');
  });

  it('reports missing required slots as errors and other reference slots as info', () => {
    const problems = checkTemplate('{{posts}}');
    const missing = problems.filter((p) => p.kind === 'missing');
    expect(
      missing
        .filter((p) => p.severity === 'error')
        .map((p) => p.slot)
        .sort(),
    ).toEqual(['k', 'pool_json']);
    expect(missing.some((p) => p.slot === 'total_steps')).toBe(false);
    expect(missing.find((p) => p.slot === 'bio')?.severity).toBe('info');
    expect(missing.every((p) => p.line === 1 && p.column === 1)).toBe(true);
  });

  it('flags malformed slots', () => {
    const problems = checkTemplate('{{posts}}{{k}}{{pool_json}}{{ two words }}');
    expect(problems.filter((p) => p.kind === 'malformed').map((p) => p.slot)).toEqual(['two words']);
  });
});

describe('templateId', () => {
  it('is the sha256 of the text', () => {
    const full = createHash('sha256').update('abc').digest('hex');
    expect(full).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(templateHash('abc')).toBe(full);
    expect(templateId('abc')).toBe('ba7816bf8f01');
    expect(templateId('abc ')).not.toBe(templateId('abc'));
  });
  it('has a system message', () => {
    expect(DEFAULT_SYSTEM_MESSAGE).toMatch(/JSON/);
  });
});
