// The adjudication pass reads the label rows again for a burst of change events once, not once per event: asks made
// while a read is waiting join it (src/extension/labels/adjudicate/pass.ts), counted on the store's list().
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { LabelRow } from '../../src/core/labels/model';
import { labelRow } from './labelStore-fixture';

vi.mock('vscode', () => ({ window: { showInformationMessage: () => Promise.resolve(undefined) } }));

const { AdjudicationPass } = await import('../../src/extension/labels/adjudicate/pass');
const { DISAGREEMENTS_SCOPE } = await import('../../src/extension/labels/adjudicate/hook');
type Args = ConstructorParameters<typeof AdjudicationPass>;

const dir = mkdtempSync(join(tmpdir(), 'persona-lab-pass-reads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the adjudication pass', () => {
  it('reads the rows once for a burst of change events, and again after it', async () => {
    let lists = 0;
    const listeners: (() => void)[] = [];
    const rows: LabelRow[] = [labelRow({ author: 'ann', label: 'A' }), labelRow({ author: 'bob', label: 'B' })];
    const labels = {
      onDidChange: (f: () => void) => (listeners.push(f), { dispose: () => undefined }),
      store: () => ({ list: () => (lists++, rows) }),
      ensureAuthor: () => Promise.resolve(),
      touch: () => undefined,
      serverUrl: '',
      dbFile: join(dir, 'labels.db'),
      author: 'judy',
      adjudication: undefined,
    };
    const message = { set: () => undefined };
    const pass = new AdjudicationPass(
      labels as unknown as Args[0],
      [],
      { withItems: () => Promise.resolve([]) },
      message as unknown as Args[3],
      {} as Args[4],
    );
    await pass.start(DISAGREEMENTS_SCOPE);
    expect(lists).toBe(1);
    const reads = Array.from({ length: 10 }, () => pass.refresh());
    for (const f of listeners) for (let i = 0; i < 10; i++) f();
    await Promise.all(reads);
    expect(lists).toBe(2);
    await pass.refresh();
    expect(lists).toBe(3);
    pass.dispose();
  });
});
