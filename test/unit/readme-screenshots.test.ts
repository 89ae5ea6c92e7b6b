// The README's screenshots come from the e2e run (npm run screenshots): every image the README shows is in
// scripts/readme-screenshots.json with the e2e test that takes it, that test takes it, and the file is there.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = join(__dirname, '../..');
const list = JSON.parse(readFileSync(join(repo, 'scripts/readme-screenshots.json'), 'utf8')) as {
  image: string;
  shot: string;
  test: string;
}[];
const readme = readFileSync(join(repo, 'README.md'), 'utf8');
const shown = [...readme.matchAll(/\]\((media\/screenshots\/[^)\s]+)\)/g)].map((m) => m[1]);

describe('README screenshots', () => {
  it('shows only images the script regenerates, and shows each of them', () => {
    expect(shown.length).toBeGreaterThan(0);
    expect([...new Set(shown)].sort()).toEqual(list.map((s) => `media/screenshots/${s.image}`).sort());
  });

  it('names for each image an e2e test that takes that screenshot, and the file exists', () => {
    for (const s of list) {
      const test = readFileSync(join(repo, s.test), 'utf8');
      expect(test, `${s.test} takes ${s.shot}`).toMatch(new RegExp(`screenshot\\('${s.shot}'\\)`));
      expect(existsSync(join(repo, 'media/screenshots', s.image)), s.image).toBe(true);
    }
  });
});
