import { describe, expect, it } from 'vitest';
import { draftPath, parseDraft, renderDraft, type Draft } from '../../src/core/spb/rerun/draft';

const draft: Draft = {
  step: { platform: 'weibo', userId: 'U_1a2b3c4d', stepId: 3 },
  model: 'demo-model-not-an-llm',
  temperature: 0,
  maxTokens: null,
  system: 'You are an analyst.\nAnswer in JSON.',
  // The prompt may hold marker-like lines and ends with a newline, as the built-in template does.
  prompt: 'Posts:\n=== system ===\n=== user ===\n#not a note\n\n["#a#", "#b#"]\n',
};
const notes = { persona: 'persona carried from demo-llm', template: "Persona Lab's template" };

describe('prompt drafts', () => {
  it('round-trips the messages exactly, marker-like lines and trailing newline included', () => {
    const parsed = parseDraft(renderDraft(draft, notes));
    expect(parsed).toEqual({ ok: true, draft });
    const withTokens = parseDraft(renderDraft({ ...draft, maxTokens: 512, temperature: 0.7 }, notes));
    expect(withTokens.ok && [withTokens.draft.maxTokens, withTokens.draft.temperature]).toEqual([512, 0.7]);
  });

  it('sends what the user typed: an edit of the prompt is the new prompt', () => {
    const text = renderDraft(draft, notes).replace('Posts:\n', '');
    const parsed = parseDraft(text);
    expect(parsed.ok && parsed.draft.prompt).toBe(draft.prompt.replace('Posts:\n', ''));
  });

  it('names each problem with its line', () => {
    const text = renderDraft(draft, notes)
      .replace('temperature: 0', 'temperature: hot')
      .replace('step: weibo/U_1a2b3c4d/3', 'step: mastodon/U_1/3')
      .replace('max_tokens: default', 'max_tokens: -1\ncolour: blue');
    const parsed = parseDraft(text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problems).toEqual([
      { line: 4, message: 'step: unknown platform "mastodon"' },
      { line: 6, message: 'temperature: "hot" is not a number from 0 to 2' },
      { line: 7, message: 'max_tokens: "-1" is not a positive whole number or "default"' },
      { line: 8, message: 'unknown header "colour": use step, model, temperature or max_tokens' },
    ]);
  });

  it('refuses a draft without its markers, header or user message', () => {
    expect(parseDraft('step: weibo/U_1/1\nmodel: m\ntemperature: 0\n')).toEqual({
      ok: false,
      problems: [{ line: 4, message: 'no "=== system ===" line: the messages are missing' }],
    });
    expect(parseDraft('=== system ===\nS\n=== user ===\nP')).toEqual({
      ok: false,
      problems: [
        { line: 1, message: 'step: missing from the header' },
        { line: 1, message: 'model: missing from the header' },
        { line: 1, message: 'temperature: missing from the header' },
      ],
    });
    const empty = renderDraft({ ...draft, prompt: '  \n' }, notes);
    expect(parseDraft(empty)).toEqual({ ok: false, problems: [{ line: 11, message: 'the user message is empty' }] });
    const noUser = renderDraft(draft, notes).split('=== user ===')[0];
    expect(parseDraft(noUser).ok).toBe(false);
  });

  it('keeps one file per run and step, with names safe on disk', () => {
    expect(draftPath('demo-llm', draft.step)).toBe('.personalab/drafts/demo-llm/weibo/U_1a2b3c4d-step3.pldraft');
    expect(draftPath(null, { ...draft.step, userId: '../x' })).toBe(
      '.personalab/drafts/no-run/weibo/.._x-step3.pldraft',
    );
  });
});
