// The percentile bootstrap every interval in Persona Lab uses: resample the units (users, steps, labelled items) with
// replacement from a seeded PRNG, recompute the statistic, and read the interval off the sorted resampled values.
// One rule, so that an interval in Compare Runs, an experiment and the label agreement tables means the same thing.
import { mulberry32 } from './random';

/** Quantile of sorted values with linear interpolation between order statistics (R type 7, numpy's default). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** The bootstrap of *Compare Runs* and of experiments (one setting, so that their intervals are the same). */
export const COMPARE_RESAMPLES = 2000;
export const COMPARE_SEED = 20240611;

export interface BootstrapOptions {
  resamples?: number;
  seed?: number;
  /** confidence level, default 0.95 */
  level?: number;
}

export interface Interval {
  low: number;
  high: number;
  /** Resamples whose statistic was defined (a κ is undefined on a resample where one side is constant). */
  defined: number;
  resamples: number;
}

/**
 * The percentile interval of `statistic` over `n` units: each resample draws n indices uniformly with replacement
 * (`Math.floor(rng() * n)`, in order) and calls `statistic` with them; NaN values are left out of the quantiles.
 * NaN bounds when n is 0 or no resample gives a defined value.
 */
export function bootstrapInterval(
  n: number,
  statistic: (indices: Int32Array) => number,
  opts: BootstrapOptions = {},
): Interval {
  const resamples = opts.resamples ?? 2000;
  const tail = (1 - (opts.level ?? 0.95)) / 2;
  if (n === 0) return { low: NaN, high: NaN, defined: 0, resamples };
  const rng = mulberry32(opts.seed ?? 1);
  const idx = new Int32Array(n);
  const values: number[] = [];
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) idx[i] = Math.floor(rng() * n);
    const v = statistic(idx);
    if (!Number.isNaN(v)) values.push(v);
  }
  values.sort((a, b) => a - b);
  return { low: quantile(values, tail), high: quantile(values, 1 - tail), defined: values.length, resamples };
}
