// Filter Steps…' pick keeps the mode (unlabelled only) in a section of its own, apart from the label list.
import { describe, expect, it, vi } from 'vitest';

interface Row {
  label: string;
  kind?: number;
  group?: string;
}
const shown: { items: Row[] }[] = [];

vi.mock('vscode', () => {
  class Emitter {
    event = () => ({ dispose() {} });
    fire() {}
    dispose() {}
  }
  return {
    QuickPickItemKind: { Separator: -1, Default: 0 },
    ThemeIcon: class {
      constructor(readonly id: string) {}
    },
    EventEmitter: Emitter,
    Disposable: class {
      static from() {
        return { dispose() {} };
      }
    },
    window: {
      createQuickPick: () => {
        const qp = {
          items: [] as Row[],
          selectedItems: [] as Row[],
          onDidTriggerButton() {},
          onDidAccept() {},
          onDidHide(f: () => void) {
            qp.hide = f;
          },
          hide: () => {},
          show() {
            shown.push(qp);
            qp.hide();
          },
          dispose() {},
        };
        return qp;
      },
    },
  };
});

const { pickFilter } = await import('../../src/extension/benchmarks/spb/labels/filterCommands');
const { normalizeFilter } = await import('../../src/core/spb/labels/filter');

describe('Filter Steps…', () => {
  it('shows "Unlabelled only" under its own heading, not among the labels', async () => {
    const labels = [
      { id: 'decay', name: 'D_decay pick', key: '1', description: '' },
      { id: 'fmt', name: 'Format error', key: '7', description: '' },
    ];
    const bench = { bench: undefined, runName: '' };
    const steps = { index: () => ({ labelsOf: () => [] }) };
    await pickFilter(bench as never, { labels } as never, steps as never, normalizeFilter({}));
    const items = shown[0].items;
    const sections: { title: string; rows: Row[] }[] = [];
    for (const i of items) {
      if (i.kind === -1) sections.push({ title: i.label, rows: [] });
      else sections.at(-1)?.rows.push(i);
    }
    const mode = sections.find((s) => s.rows.some((r) => r.group === 'unlabelled'));
    const labelSection = sections.find((s) => s.rows.some((r) => r.group === 'label'));
    expect(mode?.rows.map((r) => r.group)).toEqual(['unlabelled']);
    expect(mode?.title).not.toBe(labelSection?.title);
    expect(labelSection?.rows.map((r) => r.label)).toEqual(['$(tag) D_decay pick', '$(tag) Format error']);
  });
});
