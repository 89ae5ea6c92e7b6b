import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SLOW_TESTS } from '../tiers';

// The fast tier is every test file but the slow ones: a slow entry that names no file would silently drop that file
// from both tiers once it is renamed, so each must exist.
describe('test tiers', () => {
  it('names only test files that exist, once each', () => {
    expect(SLOW_TESTS.filter((f) => !existsSync(f))).toEqual([]);
    expect(new Set(SLOW_TESTS).size).toBe(SLOW_TESTS.length);
  });
  it('leaves most unit files in the fast tier', () => {
    const unit = readdirSync('test/unit').filter((f) => f.endsWith('.test.ts'));
    const slow = SLOW_TESTS.filter((f) => f.startsWith('test/unit/'));
    expect(slow.every((f) => unit.includes(f.slice('test/unit/'.length)))).toBe(true);
    expect(unit.length - slow.length).toBeGreaterThan(unit.length / 2);
  });
});
