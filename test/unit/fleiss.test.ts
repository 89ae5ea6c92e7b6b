// Fleiss' kappa (src/core/labels/fleiss.ts) against the worked example of the literature, against its textbook form
// for a constant number of raters, and against Cohen's kappa for two raters on binary data.
import { describe, expect, it } from 'vitest';
import { cohensKappa, type KappaTable } from '../../src/core/labels/agreement';
import { fleissKappa } from '../../src/core/labels/fleiss';

// Wikipedia, "Fleiss' kappa", worked example: 10 subjects, 14 raters each, 5 categories.
const WIKIPEDIA = [
  [0, 0, 0, 0, 14],
  [0, 2, 6, 4, 2],
  [0, 0, 3, 5, 6],
  [0, 3, 9, 2, 0],
  [2, 2, 8, 1, 1],
  [7, 7, 0, 0, 0],
  [3, 2, 6, 3, 0],
  [2, 5, 3, 2, 2],
  [6, 5, 2, 1, 0],
  [0, 2, 2, 3, 7],
];

/** Fleiss (1971) as printed, for n raters on every one of N subjects: P̄ = (Σ Σ n_ij² − N n) / (N n (n − 1)). */
function fleiss1971(table: number[][]): number {
  const N = table.length;
  const n = table[0].reduce((a, b) => a + b, 0);
  const p = table[0].map((_, j) => table.reduce((s, r) => s + r[j], 0) / (N * n));
  const squares = table.reduce((s, r) => s + r.reduce((t, x) => t + x * x, 0), 0);
  const po = (squares - N * n) / (N * n * (n - 1));
  const pe = p.reduce((s, x) => s + x * x, 0);
  return (po - pe) / (1 - pe);
}

/** A 2x2 table of two raters as Fleiss' units: [raters who gave it, raters who did not] per unit. */
function asUnits(t: KappaTable): number[][] {
  return [
    ...Array.from({ length: t.both }, () => [2, 0]),
    ...Array.from({ length: t.onlyA + t.onlyB }, () => [1, 1]),
    ...Array.from({ length: t.neither }, () => [0, 2]),
  ];
}

describe("Fleiss' kappa", () => {
  it('gives the worked example: P̄ 0.378, P_e 0.213, κ 0.210 (10 subjects, 14 raters, 5 categories)', () => {
    const k = fleissKappa(WIKIPEDIA);
    expect(k.n).toBe(10);
    expect(k.ratings).toBe(140);
    expect(k.po.toFixed(3)).toBe('0.378');
    expect(k.pe.toFixed(3)).toBe('0.213');
    expect(k.kappa.toFixed(3)).toBe('0.210');
    // P_2 of the example: (0 + 2 + 30 + 12 + 2) / (14 · 13) = 0.253
    expect(fleissKappa([WIKIPEDIA[1], WIKIPEDIA[0]]).po).toBeCloseTo((46 / 182 + 1) / 2, 12);
  });

  it('equals the form of Fleiss (1971) when every unit has the same number of raters', () => {
    expect(fleissKappa(WIKIPEDIA).kappa).toBeCloseTo(fleiss1971(WIKIPEDIA), 12);
    const six = [
      [6, 0, 0],
      [3, 2, 1],
      [0, 4, 2],
      [1, 1, 4],
      [2, 2, 2],
    ];
    expect(fleissKappa(six).kappa).toBeCloseTo(fleiss1971(six), 12);
  });

  it('takes a number of raters that varies per unit (P_i over each unit’s own pairs, p_j over all ratings)', () => {
    // P_i: 2/6, 2/2, 12/12, so P̄ = 7/9; p = 4/9, 5/9, so P_e = 41/81; κ = (63 − 41) / (81 − 41) = 0.55.
    const k = fleissKappa([
      [2, 1],
      [2, 0],
      [0, 4],
    ]);
    expect(k.po).toBeCloseTo(7 / 9, 12);
    expect(k.pe).toBeCloseTo(41 / 81, 12);
    expect(k.kappa).toBeCloseTo(0.55, 12);
    // A unit with one rating has no pair and is left out.
    expect(
      fleissKappa([
        [2, 1],
        [2, 0],
        [0, 4],
        [1, 0],
      ]),
    ).toEqual(k);
  });

  it('is undefined with no units, or when every rating is in one category', () => {
    expect(fleissKappa([]).kappa).toBeNaN();
    expect(
      fleissKappa([
        [0, 3],
        [0, 2],
      ]).kappa,
    ).toBeNaN();
  });

  it("for two raters on binary data equals Cohen's κ when both give the label equally often (0.2 = 0.2)", () => {
    const t = { both: 3, onlyA: 2, onlyB: 2, neither: 3 };
    expect(fleissKappa(asUnits(t)).kappa).toBeCloseTo(0.2, 12);
    expect(cohensKappa(t).kappa).toBeCloseTo(0.2, 12);
    const perfect = { both: 4, onlyA: 0, onlyB: 0, neither: 6 };
    expect(fleissKappa(asUnits(perfect)).kappa).toBeCloseTo(1, 12);
    expect(cohensKappa(perfect).kappa).toBeCloseTo(1, 12);
  });

  it("for two raters differs from Cohen's κ when one gives the label more often: Scott's π 0.167 against κ 0.286", () => {
    // A gives it on 6 of 10 units, B on 2: po 0.6 for both; Cohen pe = .6·.2 + .4·.8 = .44, Fleiss P_e = .4² + .6² = .52.
    const t = { both: 2, onlyA: 4, onlyB: 0, neither: 4 };
    const f = fleissKappa(asUnits(t));
    const c = cohensKappa(t);
    expect(f.po).toBeCloseTo(c.po, 12);
    expect(c.pe).toBeCloseTo(0.44, 12);
    expect(f.pe).toBeCloseTo(0.52, 12);
    expect(c.kappa).toBeCloseTo(0.16 / 0.56, 12);
    expect(f.kappa).toBeCloseTo(0.08 / 0.48, 12);
  });
});
