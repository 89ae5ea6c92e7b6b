// The Benchmarks tree's answer counts: in full for tooltips, the figure first (and short) for rows.
import { describe, expect, it } from 'vitest';
import { countsText, rowCountsText } from '../../src/core/omni/countsText';

const c = (correct: number, incorrect: number, graded = 0, leftOut = 0) => ({ correct, incorrect, graded, leftOut });

describe('answer counts in the tree', () => {
  it('a user row starts with the share right, then its counts; graded and left out stay in the tooltip', () => {
    expect(rowCountsText(c(204, 145, 4, 2), true)).toBe('58% right (204 of 349)');
    expect(countsText(c(204, 145, 4, 2))).toBe('204 right · 145 wrong · 4 graded · 2 left out');
  });

  it('a test action row says how many of its scored answers are right, and the graded ones', () => {
    expect(rowCountsText(c(1, 1), false)).toBe('1 of 2 right');
    expect(rowCountsText(c(0, 1, 1), false)).toBe('0 of 1 right · 1 graded');
    expect(rowCountsText(c(0, 0, 1), false)).toBe('1 graded');
    expect(rowCountsText(c(0, 0, 0, 3), false)).toBe('3 left out');
    expect(rowCountsText(undefined, false)).toBe('not in this run');
    expect(countsText(undefined)).toBe('not in this run');
  });
});
