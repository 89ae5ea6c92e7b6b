import { describe, expect, it } from 'vitest';
import { elideMiddle } from '../../src/core/elide';

describe('elideMiddle', () => {
  it('keeps a name that fits, and one too short to cut', () => {
    expect(elideMiddle('run-a', 5)).toBe('run-a');
    expect(elideMiddle('abcdef', 2)).toBe('abcdef');
  });

  it('keeps both ends, max code points in all, half from each end by default', () => {
    expect(elideMiddle('abcdefghij', 7)).toBe('abc…hij');
    expect(elideMiddle('abcdefghij', 8)).toBe('abcd…hij');
  });

  it('keeps two thirds from the start with a divisor of 3', () => {
    expect(elideMiddle('abcdefghij', 7, 3)).toBe('abcd…ij');
  });

  it('never cuts inside a character outside the BMP', () => {
    const name = '😀'.repeat(6) + '用户画像';
    const cut = elideMiddle(name, 6);
    expect([...cut]).toHaveLength(6);
    expect(cut).toBe('😀😀😀…画像');
  });
});
