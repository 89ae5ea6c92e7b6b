// The label author is asked once, before the first label, with the OS user name offered and named as the default;
// the answer is saved and not asked again.
import { describe, expect, it } from 'vitest';
import { AuthorGate, type AuthorHost } from '../../src/extension/labels/author';

function host(answers: (string | undefined)[], os = 'ann') {
  const state = { setting: '', asked: [] as { title: string; prompt: string; value: string }[], saved: [] as string[] };
  const h: AuthorHost = {
    setting: () => state.setting,
    osUser: () => os,
    ask: async (q) => {
      state.asked.push(q);
      return answers.shift();
    },
    save: async (name) => {
      state.saved.push(name);
      state.setting = name;
    },
  };
  return { h, state };
}

describe('the label author', () => {
  it('is asked once, the OS user offered as the default and named so, then remembered', async () => {
    const { h, state } = host(['Ann Lee']);
    const gate = new AuthorGate(h);
    const [a, b] = await Promise.all([gate.ensure(), gate.ensure()]);
    expect([a, b]).toEqual(['Ann Lee', 'Ann Lee']);
    expect(state.asked).toHaveLength(1);
    expect(state.asked[0].value).toBe('ann');
    expect(state.asked[0].prompt).toContain('the default is your OS user name, “ann”');
    expect(state.asked[0].prompt).toContain('personaLab.labels.author');
    expect(state.saved).toEqual(['Ann Lee']);
    expect(await gate.ensure()).toBe('Ann Lee');
    expect(state.asked).toHaveLength(1);
  });

  it('keeps the OS user when the question is dismissed, and does not ask again', async () => {
    const { h, state } = host([undefined]);
    const gate = new AuthorGate(h);
    expect(await gate.ensure()).toBe('ann');
    expect(await gate.ensure()).toBe('ann');
    expect(state.asked).toHaveLength(1);
    expect(state.saved).toEqual(['ann']);
  });

  it('is not asked when the setting names an author', async () => {
    const { h, state } = host(['x']);
    state.setting = 'bob';
    expect(await new AuthorGate(h).ensure()).toBe('bob');
    expect(state.asked).toHaveLength(0);
  });

  it('keeps the name given for this window when saving it fails, and does not ask again', async () => {
    const { h, state } = host(['Ann Lee']);
    h.save = async () => {
      throw new Error('settings.json is read-only');
    };
    const gate = new AuthorGate(h);
    expect(gate.current()).toBeUndefined();
    await expect(gate.ensure()).rejects.toThrow('read-only');
    // The labels written after the failure are by the name given, not the OS user's.
    expect(gate.current()).toBe('Ann Lee');
    expect(await gate.ensure()).toBe('Ann Lee');
    expect(state.asked).toHaveLength(1);
  });
});
