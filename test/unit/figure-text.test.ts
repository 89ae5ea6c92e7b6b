import { describe, expect, it } from 'vitest';
import { fixed3 } from '../../src/core/labels/figureText';

describe('fixed3', () => {
  it('writes a κ that is zero but for rounding without a minus sign', () => {
    expect(fixed3(-1e-17)).toBe('0.000');
    expect(fixed3(-0)).toBe('0.000');
    expect(fixed3(-0.0004)).toBe('0.000');
    expect(fixed3(-0.0006)).toBe('-0.001');
    expect(fixed3(0.6667)).toBe('0.667');
  });

  it('names an undefined figure', () => {
    expect(fixed3(Number.NaN)).toBe('n/a');
    expect(fixed3(Number.NaN, '—')).toBe('—');
  });
});
