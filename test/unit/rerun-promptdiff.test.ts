import { describe, expect, it } from 'vitest';
import { promptDiff } from '../../src/core/rerun/promptDiff';

describe('the prompt diff of two attempts', () => {
  it('shows a deleted sentence as removed and the rest as the same', () => {
    const before = { system: 'S', prompt: 'Intro.\nKeep interests that persist.\nPool:\n["#a#"]\n' };
    const after = { system: 'S', prompt: 'Intro.\nPool:\n["#a#"]\n' };
    const d = promptDiff(before, after, 1);
    expect(d.against).toBe(1);
    expect(d.system).toEqual([{ kind: 'same', text: 'S' }]);
    expect(d.prompt.filter((p) => p.kind === 'removed').map((p) => p.text)).toEqual(['Keep interests that persist.\n']);
    expect(d.prompt.filter((p) => p.kind === 'added')).toEqual([]);
    expect([d.added, d.removed]).toEqual([0, 1]);
    // Every line of both texts is in the parts, in order.
    const joined = (kind: 'removed' | 'added') =>
      d.prompt
        .filter((p) => p.kind !== kind)
        .map((p) => p.text)
        .join('');
    expect(joined('added')).toBe(before.prompt);
    expect(joined('removed')).toBe(after.prompt);
  });

  it('counts changed system lines too, and nothing for equal requests', () => {
    const d = promptDiff({ system: 'A\nB', prompt: 'P' }, { system: 'A\nC', prompt: 'P' }, 2);
    expect([d.added, d.removed]).toEqual([1, 1]);
    const same = promptDiff({ system: 'A', prompt: 'P' }, { system: 'A', prompt: 'P' }, 1);
    expect([same.added, same.removed]).toEqual([0, 0]);
  });

  it('marks the words changed inside a line, not the whole line', () => {
    const long = `Update the persona: merge what these posts show with the persona so far, keeping interests that persist.`;
    const before = { system: 'S', prompt: `Intro.\n${long}\nPool:\n` };
    const after = { system: 'S', prompt: `Intro.\n${long} Drop faded ones.\nPool:\n` };
    const d = promptDiff(before, after, 1);
    expect(d.prompt.filter((p) => p.kind === 'added').map((p) => p.text)).toEqual([' Drop faded ones.']);
    expect(d.prompt.filter((p) => p.kind === 'removed')).toEqual([]);
    // Still counted as the line it changed.
    expect([d.added, d.removed]).toEqual([1, 1]);
    const cn = promptDiff({ system: '', prompt: '关注教育话题。\n' }, { system: '', prompt: '关注职业话题。\n' }, 1);
    expect(cn.prompt).toEqual([
      { kind: 'same', text: '关注' },
      { kind: 'removed', text: '教育' },
      { kind: 'added', text: '职业' },
      { kind: 'same', text: '话题。\n' },
    ]);
  });
});
