import { appendFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LabelKey } from '../../src/core/labels/model';
import { LabelStore } from '../../src/core/labels/store';
import { labelKey, labelsCli as cli } from './labelStore-fixture';

const key = (over: Partial<LabelKey> = {}): LabelKey =>
  labelKey({ platform: 'toutiao', userId: 'to_0000000001', ...over });

function withDb(path: string, fill: (s: LabelStore) => void): void {
  const s = LabelStore.open(path);
  try {
    fill(s);
  } finally {
    s.close();
  }
}

const rowsOf = (path: string) => {
  const s = LabelStore.open(path, { mustExist: true });
  try {
    return s.list().map((r) => `${r.author} ${r.stepId} ${r.label} ${r.note}`);
  } finally {
    s.close();
  }
};

describe('persona-lab labels', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pl-labels-cli-'));
  const alice = join(dir, 'alice.db');
  const bob = join(dir, 'bob.db');
  withDb(alice, (s) => {
    s.add({ ...key(), note: 'mine' });
    s.add(key({ stepId: 2 }));
  });
  withDb(bob, (s) => {
    s.add({ ...key(), note: 'other machine' }); // same author and target, different note: a conflict
    s.add(key({ stepId: 3, author: 'bob', label: 'peer-confusion' }));
  });

  it('exports JSONL and CSV', async () => {
    const r = await cli(['export', bob], { out: join(dir, 'bob.jsonl') });
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toContain('wrote 2 label(s)');
    expect(readFileSync(join(dir, 'bob.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    const csv = await cli(['export', bob], { format: 'csv' });
    expect(csv.out.split('\r\n')[0]).toMatch(/^benchmark,platform,user_id,step_id/);
  });

  it('lists conflicts and exits 3 without changing anything, then imports once resolved', async () => {
    const before = rowsOf(alice);
    const blocked = await cli(['import', alice, join(dir, 'bob.jsonl')]);
    expect(blocked.code).toBe(3);
    expect(blocked.out).toContain('1 new, 0 already present, 1 conflict(s)');
    expect(blocked.out).toContain('[1] spb:toutiao/to_0000000001#1 run gpt by alice');
    expect(blocked.out).toContain('local:    decay-error ("mine")');
    expect(rowsOf(alice)).toEqual(before);

    const dry = await cli(['import', alice, join(dir, 'bob.jsonl')], { resolve: ['1=incoming'], 'dry-run': true });
    expect(dry.code).toBe(0);
    expect(rowsOf(alice)).toEqual(before);

    const done = await cli(['import', alice, join(dir, 'bob.jsonl')], { resolve: ['1=incoming'] });
    expect(done).toMatchObject({ code: 0, err: '' });
    expect(rowsOf(alice).sort()).toEqual([
      'alice 1 decay-error other machine',
      'alice 2 decay-error ',
      'bob 3 peer-confusion ',
    ]);
    const again = await cli(['import', alice, join(dir, 'bob.jsonl')]);
    expect(again.code).toBe(0);
    expect(again.out).toContain('0 new, 2 already present, 0 conflict(s)');
  });

  it('imports the good lines of a file with bad ones, reports file:line, exits 1', async () => {
    const file = join(dir, 'mixed.jsonl');
    const good = readFileSync(join(dir, 'bob.jsonl'), 'utf8').split('\n')[1];
    appendFileSync(file, '{"broken": \n' + good.replace('"step_id":3', '"step_id":7') + '\n');
    const target = join(dir, 'fresh.db');
    const r = await cli(['import', target, file]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${file}:1: error:`);
    expect(rowsOf(target)).toEqual(['bob 7 peer-confusion ']);
  });

  it('prints a summary with label names and kappa, and JSON on request', async () => {
    const text = await cli(['summary', alice]);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/D_decay pick\s+2\s+2/);
    const json = await cli(['summary', alice], { json: true });
    expect(JSON.parse(json.out)).toMatchObject({ total: 3, counts: { 'decay-error': { toutiao: 2 } } });
  });

  it('usage errors exit 2; a missing database exits 1 and is not created', async () => {
    expect((await cli([])).code).toBe(2);
    expect((await cli(['frobnicate', alice])).code).toBe(2);
    expect((await cli(['import', alice])).code).toBe(2);
    expect((await cli(['export', alice], { format: 'xml' })).code).toBe(2);
    expect((await cli(['import', alice, join(dir, 'bob.jsonl')], { conflicts: 'mine' })).code).toBe(2);
    const missing = join(dir, 'nope.db');
    const r = await cli(['summary', missing]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('nope.db');
    expect(existsSync(missing)).toBe(false);
  });
});
