// Fleiss' kappa: agreement of any number of raters on a nominal scale (Fleiss, 1971, "Measuring nominal scale
// agreement among many raters"), for a table of units x categories where cell n_ij counts the raters who put unit i
// in category j.
//
// The number of raters may vary from unit to unit (n_i = Σ_j n_ij, at least 2). We use the usual generalisation:
//   P_i = Σ_j n_ij (n_ij − 1) / (n_i (n_i − 1))   the share of agreeing pairs among unit i's raters,
//   P̄   = the mean of P_i over the units          (observed agreement),
//   p_j = Σ_i n_ij / Σ_i n_i                      (category j's share of all ratings),
//   P_e = Σ_j p_j²                                (chance agreement),
//   κ   = (P̄ − P_e) / (1 − P_e), undefined (NaN) when P_e = 1.
// With the same number of raters n on every unit, Σ_i n_i = N·n and this is exactly Fleiss (1971). With two raters
// per unit it is Scott's π, which equals Cohen's κ only when the two raters' marginals are equal (Cohen's chance
// term multiplies each rater's own shares; this one squares the pooled share).

export interface FleissKappa {
  /** Units (rows with at least two ratings). */
  n: number;
  /** Ratings, Σ n_i. */
  ratings: number;
  /** Observed agreement P̄. */
  po: number;
  /** Chance agreement P_e. */
  pe: number;
  kappa: number;
}

/** κ of a units x categories count table; units with fewer than two ratings are left out (P_i is undefined). */
export function fleissKappa(table: readonly (readonly number[])[]): FleissKappa {
  const rows = table.filter((r) => r.reduce((a, b) => a + b, 0) >= 2);
  const categories = Math.max(0, ...rows.map((r) => r.length));
  const totals = new Array<number>(categories).fill(0);
  let ratings = 0;
  let sumP = 0;
  for (const r of rows) {
    const ni = r.reduce((a, b) => a + b, 0);
    let pairs = 0;
    r.forEach((nij, j) => {
      pairs += nij * (nij - 1);
      totals[j] += nij;
    });
    sumP += pairs / (ni * (ni - 1));
    ratings += ni;
  }
  const n = rows.length;
  if (n === 0) return { n, ratings, po: NaN, pe: NaN, kappa: NaN };
  const po = sumP / n;
  const pe = totals.reduce((s, t) => s + (t / ratings) ** 2, 0);
  return { n, ratings, po, pe, kappa: pe === 1 ? NaN : (po - pe) / (1 - pe) };
}
