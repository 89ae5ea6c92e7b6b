// Index pages are believed without reading their files, so only pages this user's Persona Lab wrote are read: a
// folder that arrives with another user's pages (stamps matching, figures saying anything) opens as if it had none,
// with the same figures as a full read, and its pages are written again under this user's key.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { indexKey, seal, STATE_DIR_ENV, stateDir, unseal } from '../../src/core/cache/seal';
import { IndexCache, INDEX_DIR } from '../../src/core/cache/store';
import { cacheFiles, copySample, fileCount, open } from '../support/indexFolder';

const before = process.env[STATE_DIR_ENV];
const asUser = (name: string) => {
  process.env[STATE_DIR_ENV] = mkdtempSync(join(tmpdir(), `pl-state-${name}-`));
};
afterEach(() => {
  if (before === undefined) delete process.env[STATE_DIR_ENV];
  else process.env[STATE_DIR_ENV] = before;
});

const figuresOf = async (root: string) => {
  const { bench, report } = await open(root);
  const rows = [...bench.runs.values()].map((run) => [run.name, run.results.size]);
  return { rows, report };
};

describe('index pages are sealed with this user key', () => {
  it('reads its own pages warm, and another user pages as none', async () => {
    const root = copySample();
    const n = fileCount(root);
    asUser('alice');
    const cold = await figuresOf(root);
    expect(cold.report).toMatchObject({ hits: 0, read: n });
    expect((await figuresOf(root)).report).toMatchObject({ hits: n, read: 0 });

    // bob gets the folder with alice's pages: same stamps, but no page is his.
    asUser('bob');
    const bob = await figuresOf(root);
    expect(bob.report).toMatchObject({ hits: 0, read: n });
    expect(bob.rows).toEqual(cold.rows);
    expect((await figuresOf(root)).report).toMatchObject({ hits: n, read: 0 });
  });

  it('does not serve a planted page whose stamps match', async () => {
    const root = copySample();
    asUser('mallory');
    await open(root);
    const mallory = indexKey() as Buffer;
    // mallory's page, edited and sealed again with her key: believed by her, by no one else
    const [page] = cacheFiles(root, 'spb-tasks');
    const body = unseal(mallory, readFileSync(page))!;
    expect(body).not.toBeNull();
    writeFileSync(page, seal(mallory, body));
    asUser('alice');
    const cache = new IndexCache(join(root, INDEX_DIR));
    const rel = 'data/douban_inference_tasks.jsonl';
    expect(cache.read('spb-tasks', rel)).toBeNull();
    cache.write('spb-tasks', rel, Buffer.from('alice'));
    expect(cache.read('spb-tasks', rel)?.toString()).toBe('alice');
  });

  it('refuses a page whose bytes or tag changed, and a page too short to carry a tag', () => {
    asUser('carol');
    const key = indexKey() as Buffer;
    const sealed = seal(key, Buffer.from('a page'));
    expect(unseal(key, sealed)?.toString()).toBe('a page');
    const flipped = Buffer.from(sealed);
    flipped[2] ^= 1;
    expect(unseal(key, flipped)).toBeNull();
    const tag = Buffer.from(sealed);
    tag[tag.length - 1] ^= 1;
    expect(unseal(key, tag)).toBeNull();
    expect(unseal(key, Buffer.alloc(5))).toBeNull();
  });

  it('keeps the key outside the benchmark, readable by this user only, and the same for every process', () => {
    asUser('dave');
    const key = indexKey() as Buffer;
    const file = join(stateDir(), 'index.key');
    expect(readFileSync(file).equals(key)).toBe(true);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(stateDir({ XDG_STATE_HOME: '/x' })).toBe(join('/x', 'persona-lab'));
  });

  it('without a key reads and writes no page, says why, and still loads', async () => {
    const root = copySample();
    const notADir = join(mkdtempSync(join(tmpdir(), 'pl-state-')), 'file');
    writeFileSync(notADir, '');
    process.env[STATE_DIR_ENV] = notADir;
    expect(typeof indexKey()).toBe('string');
    const cache = new IndexCache(join(root, INDEX_DIR));
    cache.write('spb-tasks', 'x', Buffer.from('x'));
    expect(cache.lastWriteError).toMatch(/no index key at/);
    const { bench, report } = await open(root);
    expect(report).toMatchObject({ hits: 0, read: fileCount(root) });
    expect(bench.runs.size).toBeGreaterThan(0);
  });
});
