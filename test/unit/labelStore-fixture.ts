// Label stores the label tests open, each closed after its test (not a test file itself).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { LabelStore } from '../../src/core/labels/store';

/** Opens label stores that are closed after each test; `fresh` opens one in a new temp folder named `prefix…`. */
export function labelStores(): {
  open(path: string, opts?: Parameters<typeof LabelStore.open>[1]): LabelStore;
  fresh(prefix: string): LabelStore;
} {
  const opened: LabelStore[] = [];
  afterEach(() => opened.splice(0).forEach((s) => s.close()));
  const open = (path: string, opts?: Parameters<typeof LabelStore.open>[1]) => {
    const s = LabelStore.open(path, opts);
    opened.push(s);
    return s;
  };
  return { open, fresh: (prefix) => open(join(mkdtempSync(join(tmpdir(), prefix)), 'labels.db')) };
}
