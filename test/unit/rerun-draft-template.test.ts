// Save as Template: the edited draft's text around the data's values becomes the template; values become slots again.
import { describe, expect, it } from 'vitest';
import { templateFromDraft } from '../../src/core/spb/rerun/draftTemplate';
import { DEFAULT_TEMPLATE, renderPrompt, type PromptContext } from '../../src/core/spb/prompt/prompt';

const ctx: PromptContext = {
  platform: 'weibo',
  username: 'U_1234abcd',
  bio: '喜欢跑步',
  persona: 'Runs every morning; Rules: none.',
  stepId: 3,
  totalSteps: 4,
  postsText: '[1] Content: 今天跑了十公里\nTags: #跑步#',
  pool: ['#跑步#', '#读书#', '#电影#', '#旅行#'],
};
const rendered = renderPrompt(DEFAULT_TEMPLATE, ctx).text;

describe('templateFromDraft', () => {
  it('keeps the template when nothing changed', () => {
    expect(templateFromDraft(DEFAULT_TEMPLATE, ctx, rendered)).toEqual({
      ok: true,
      template: DEFAULT_TEMPLATE,
      dropped: [],
      unchanged: true,
      overrides: [],
    });
  });

  it('turns deleted and added template text into the template, with every slot back', () => {
    const rules = rendered.split('\n').find((l) => l.startsWith('Rules: '))!;
    const edited = rendered.replace(`${rules}\n`, '').replace('# Task\n', '# Task\nThink about decay first.\n');
    const r = templateFromDraft(DEFAULT_TEMPLATE, ctx, edited);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.template).not.toContain('Rules: ');
    expect(r.template).toContain('# Task\nThink about decay first.\n');
    expect(r.template).toContain('{{posts}}');
    expect(r.template).toContain('{{pool_json}}');
    expect(renderPrompt(r.template, ctx).text).toBe(edited);
    // The template serves another step: its own values fill the slots.
    const other = { ...ctx, stepId: 4, postsText: 'other posts' };
    expect(renderPrompt(r.template, other).text).toContain('other posts');
  });

  it('refuses an edit inside a value from the data, naming the slot', () => {
    const r = templateFromDraft(DEFAULT_TEMPLATE, ctx, rendered.replace('十公里', '五公里'));
    expect(r).toEqual({ ok: false, problems: [{ slot: 'posts', message: expect.stringContaining('{{posts}}') }] });
    const p = templateFromDraft(DEFAULT_TEMPLATE, ctx, rendered.replace('every morning', 'every evening'));
    expect(p.ok === false && p.problems.map((x) => x.slot)).toEqual(['persona']);
  });

  it('drops a slot whose whole value was deleted', () => {
    const edited = rendered.replace(`${ctx.postsText}\n`, '\n');
    const r = templateFromDraft(DEFAULT_TEMPLATE, ctx, edited);
    expect(r.ok && r.dropped).toEqual(['posts']);
    expect(r.ok && r.template.includes('{{posts}}')).toBe(false);
    expect(r.ok && renderPrompt(r.template, ctx).text).toBe(edited);
  });

  it('keeps unknown {{names}} as text', () => {
    const tpl = 'A {{nope}} B {{step}} C';
    const edited = 'A {{nope}} B 3 C!';
    const r = templateFromDraft(tpl, ctx, edited);
    expect(r.ok && r.template).toBe('A {{nope}} B {{step}} C!');
  });

  it('maps back the deletion of any one line of template text', () => {
    const literal = DEFAULT_TEMPLATE.split('\n').filter((l) => l.trim() !== '' && !l.includes('{{'));
    expect(literal.length).toBeGreaterThan(5);
    for (const line of literal) {
      const edited = rendered.replace(`${line}\n`, '');
      const r = templateFromDraft(DEFAULT_TEMPLATE, ctx, edited);
      expect(r.ok, line).toBe(true);
      if (r.ok) {
        expect(r.template).toBe(DEFAULT_TEMPLATE.replace(`${line}\n`, ''));
        expect(r.dropped).toEqual([]);
      }
    }
  });

  describe('text joined to a value on its line is asked, never taken silently', () => {
    const persona = '一名正在准备考研的学生，关注教育与心理健康话题。';
    const cn = { ...ctx, persona };
    const shown = renderPrompt(DEFAULT_TEMPLATE, cn).text;
    const added = '另外一直在关注#职业规划#。';
    const edited = shown.replace(`${persona}\n`, `${persona}${added}\n`);

    it('asks about text appended to the persona, naming the slot and the text', () => {
      const r = templateFromDraft(DEFAULT_TEMPLATE, cn, edited);
      expect(r.ok).toBe(false);
      expect(!r.ok && 'ask' in r && r.ask).toEqual([
        { id: expect.any(String), slot: 'persona', text: added, where: 'after' },
      ]);
    });

    it('a one-step override stays out of the template; template text goes in', () => {
      const asked = templateFromDraft(DEFAULT_TEMPLATE, cn, edited);
      const id = !asked.ok && 'ask' in asked ? asked.ask[0].id : '';
      const override = templateFromDraft(DEFAULT_TEMPLATE, cn, edited, { [id]: 'override' });
      expect(override.ok && override.template).toBe(DEFAULT_TEMPLATE);
      expect(override.ok && override.overrides.map((o) => o.text)).toEqual([added]);
      const kept = templateFromDraft(DEFAULT_TEMPLATE, cn, edited, { [id]: 'template' });
      expect(kept.ok && kept.template).toContain(`{{persona}}${added}\n`);
      expect(kept.ok && renderPrompt(kept.template, cn).text).toBe(edited);
    });

    it('asks about text typed right before a value, and about a value replaced by typed text', () => {
      const before = templateFromDraft(DEFAULT_TEMPLATE, cn, shown.replace(`Bio: ${cn.bio}`, `Bio: 自称${cn.bio}`));
      expect(!before.ok && 'ask' in before && before.ask.map((j) => [j.slot, j.text, j.where])).toEqual([
        ['bio', '自称', 'before'],
      ]);
      const instead = shown.replace(`${persona}\n`, '一直在关注#职业规划#。\n');
      const r = templateFromDraft(DEFAULT_TEMPLATE, cn, instead);
      expect(!r.ok && 'ask' in r && r.ask.map((j) => [j.slot, j.where])).toEqual([['persona', 'instead']]);
      const id = !r.ok && 'ask' in r ? r.ask[0].id : '';
      // This step's persona, typed by hand: the template keeps {{persona}} for every other user.
      const override = templateFromDraft(DEFAULT_TEMPLATE, cn, instead, { [id]: 'override' });
      expect(override.ok && override.template).toBe(DEFAULT_TEMPLATE);
      expect(override.ok && override.dropped).toEqual([]);
    });

    it('takes a new line after a value as template text without asking', () => {
      const r = templateFromDraft(
        DEFAULT_TEMPLATE,
        cn,
        shown.replace(`${persona}\n`, `${persona}\nWeigh recent posts more.\n`),
      );
      expect(r.ok && r.template).toContain('{{persona}}\nWeigh recent posts more.\n');
    });

    it('refuses an edit inside the persona, naming it', () => {
      const r = templateFromDraft(DEFAULT_TEMPLATE, cn, shown.replace('考研', '出国'));
      expect(!r.ok && r.problems.map((p) => p.slot)).toEqual(['persona']);
    });
  });
});
