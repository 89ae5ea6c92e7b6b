// Compare mode (src/extension/compare/mode.ts) against a fake workbench: the mode's context key follows the
// benchmark it badges, and ends when that benchmark closes (its badges, status and buttons with it).
import { describe, expect, it, vi } from 'vitest';

const contexts = new Map<string, unknown>();
const status = { visible: false, text: '' };

vi.mock('vscode', () => ({
  window: {
    createStatusBarItem: () => ({
      show: () => void (status.visible = true),
      hide: () => void (status.visible = false),
      dispose() {},
      set text(t: string) {
        status.text = t;
      },
    }),
    registerFileDecorationProvider: () => ({ dispose() {} }),
    showInformationMessage: () => undefined,
  },
  commands: {
    executeCommand: async (command: string, key: string, value: unknown) => {
      if (command === 'setContext') contexts.set(key, value);
    },
  },
  EventEmitter: class {
    event = () => ({ dispose() {} });
    fire() {}
    dispose() {}
  },
  StatusBarAlignment: { Left: 1 },
  Uri: { from: (x: unknown) => x },
}));

const { activateCompareMode } = await import('../../src/extension/compare/mode');

/** One open benchmark whose bench can be closed, firing its change listeners as a store does. */
function openBenchmark() {
  const listeners: (() => void)[] = [];
  const b = {
    format: { id: 'tiny', label: 'TinyBench' },
    bench: {} as object | undefined,
    onDidChange: (l: () => void) => {
      listeners.push(l);
      return { dispose() {} };
    },
    close() {
      b.bench = undefined;
      for (const l of listeners) l();
    },
  };
  return b;
}

const part = {
  runs: () => [],
  lastPair: { a: 'A', b: 'B' },
  selectedRun: 'A',
  show: async () => undefined,
  badges: async () => ({ pair: { a: 'A', b: 'B' }, items: new Map([['s/u/1', 'worse']]), unit: 'item', explain: '' }),
  dispose() {},
};

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('compare mode', () => {
  it('is on while its benchmark is open, and ends when that benchmark closes', async () => {
    const bench = openBenchmark();
    const context = { subscriptions: [] as unknown[] };
    const mode = activateCompareMode(context as never, { all: [bench] } as never, new Map([['tiny', part as never]]));
    await settle();
    expect(contexts.get('personaLab.compareBadges')).toBe(true);
    await mode.setMode(true);
    expect(contexts.get('personaLab.compareMode')).toBe(true);
    expect(status.visible).toBe(true);
    expect(status.text).toContain('1 regressed');

    bench.close();
    await settle();
    expect(contexts.get('personaLab.compareBadges')).toBe(false);
    expect(contexts.get('personaLab.compareMode')).toBe(false);
    expect(status.visible).toBe(false);
  });
});
