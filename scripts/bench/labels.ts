// Label import in `npm run bench`: N labels into an empty store, the same N again (all already there), and N other
// labels into a store that holds N, at 20k / 100k / 200k, as the CLI does it (read the file, plan, resolve).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLabelFile, toJsonl } from '../../src/core/labels/exportImport';
import { ImportSession } from '../../src/core/labels/merge';
import type { LabelRow } from '../../src/core/labels/model';
import { LabelStore } from '../../src/core/labels/store';

const SIZES = [20_000, 100_000, 200_000];
const PLATFORMS = ['weibo', 'xiaohongshu', 'toutiao', 'zhihu', 'douban'];

/** n distinct step labels from `from` on, spread as a real store is: one benchmark and run, five steps a user. */
function rows(n: number, from: number): LabelRow[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return {
      benchmark: 'paper',
      platform: PLATFORMS[i % 5],
      userId: `u${Math.floor(i / 25)}`,
      stepId: Math.floor(i / 5) % 5,
      run: 'demo-llm',
      author: 'bench',
      target: { kind: 'step' },
      label: 'decay-error',
      note: '',
      createdAt: '2026-01-01T00:00:00.000Z',
      contentHash: '',
    };
  });
}

function importFile(db: string, file: string): { ms: number; added: number } {
  const t0 = process.hrtime.bigint();
  const parsed = readLabelFile(file);
  const store = LabelStore.open(db);
  try {
    const result = new ImportSession(store, parsed.rows, file).resolve('local');
    if (!result.ok) throw new Error(result.message);
    return { ms: Number(process.hrtime.bigint() - t0) / 1e6, added: result.added };
  } finally {
    store.close();
  }
}

export function measureLabelImport(): void {
  console.log('label import (read the file, plan, write in one transaction), as the CLI does it:');
  for (const n of SIZES) {
    const dir = mkdtempSync(join(tmpdir(), 'pl-bench-labels-'));
    try {
      const first = join(dir, 'a.jsonl');
      const other = join(dir, 'b.jsonl');
      writeFileSync(first, toJsonl(rows(n, 0)));
      writeFileSync(other, toJsonl(rows(n, n)));
      const db = join(dir, 'labels.db');
      const empty = importFile(db, first);
      const again = importFile(db, first);
      const more = importFile(db, other);
      if (empty.added !== n || again.added !== 0 || more.added !== n) throw new Error('label import counts are off');
      console.log(
        `  ${String(n).padStart(7)}: into an empty store ${empty.ms.toFixed(0)} ms (${((1000 * n) / empty.ms).toFixed(0)}/s); the same again ${again.ms.toFixed(0)} ms = ${(again.ms / empty.ms).toFixed(2)}x (goal <= 2x); ${n} others into a store of ${n} ${more.ms.toFixed(0)} ms = ${(more.ms / empty.ms).toFixed(2)}x`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
