// The paired summary of two runs per metric: means, mean difference B − A, win/tie/loss per user and per step, and a
// bootstrap confidence interval that resamples users (steps of one user are not independent). Pure TypeScript.
import type { Scope } from './figures';
import { COMPARE_RESAMPLES, COMPARE_SEED, quantile, type BootstrapOptions } from '../../stats/bootstrap';
import { mulberry32 } from '../../stats/random';
import { nanMean } from './step';
import {
  COMPARE_METRICS,
  TIE_EPSILON,
  improvement,
  type CompareMetric,
  type RunComparison,
  type StepDelta,
  type UserPair,
} from './runCompare';
import { PLATFORMS } from '../types';

export { quantile };

export interface WinTieLoss {
  win: number;
  tie: number;
  loss: number;
}

export interface PairedSummaryRow {
  metric: CompareMetric;
  /** the scope's figure for A and B over the paired steps (tables' convention: "all" is the mean over platforms) */
  meanA: number;
  meanB: number;
  /** mean difference B − A: per platform, M̄(B) − M̄(A) over the paired users; for "all", the mean over platforms */
  diff: number;
  /** 95 % percentile bootstrap interval of diff, resampling users within each platform */
  ciLow: number;
  ciHigh: number;
  /** users where both per-user values are defined */
  users: number;
  /** per user: B better (win), equal (tie), worse (loss), by the sign of improvement() */
  userWtl: WinTieLoss;
  /** per step; null for F1NS, which is defined per user only */
  stepWtl: WinTieLoss | null;
}

export type { Scope };

export { COMPARE_RESAMPLES, COMPARE_SEED };

export type { BootstrapOptions };

function wtl(metric: CompareMetric, deltas: Iterable<number>): WinTieLoss {
  const out = { win: 0, tie: 0, loss: 0 };
  for (const d of deltas) {
    if (Number.isNaN(d)) continue;
    const g = improvement(metric, d);
    if (Math.abs(g) <= TIE_EPSILON) out.tie++;
    else if (g > 0) out.win++;
    else out.loss++;
  }
  return out;
}

/** NaN-skipping mean of values[idx[i]] (or of all values when idx is undefined). */
function meanAt(values: Float64Array, idx: Int32Array | undefined): number {
  let sum = 0;
  let n = 0;
  const len = idx ? idx.length : values.length;
  for (let i = 0; i < len; i++) {
    const v = values[idx ? idx[i] : i];
    if (v === v) {
      sum += v;
      n++;
    }
  }
  return n === 0 ? NaN : sum / n;
}

interface Group {
  a: Float64Array[];
  b: Float64Array[];
  n: number;
}

/** Per metric: nanMean over groups of (M̄_B − M̄_A) for the users picked by idx (one index array per group). */
function statistic(
  groups: readonly Group[],
  idx: readonly (Int32Array | undefined)[],
  metric: number,
): { a: number; b: number; diff: number } {
  const as: number[] = [];
  const bs: number[] = [];
  const ds: number[] = [];
  groups.forEach((g, gi) => {
    const a = meanAt(g.a[metric], idx[gi]);
    const b = meanAt(g.b[metric], idx[gi]);
    as.push(a);
    bs.push(b);
    ds.push(b - a);
  });
  return { a: nanMean(as), b: nanMean(bs), diff: nanMean(ds) };
}

/** Σ/n of B minus Σ/n of A over the users picked by idx, NaN-skipping each side (one pass, no allocation). */
function groupDiff(g: Group, metric: number, idx: Int32Array): number {
  const a = g.a[metric];
  const b = g.b[metric];
  let sa = 0;
  let na = 0;
  let sb = 0;
  let nb = 0;
  for (let i = 0; i < idx.length; i++) {
    const j = idx[i];
    const x = a[j];
    if (x === x) {
      sa += x;
      na++;
    }
    const y = b[j];
    if (y === y) {
      sb += y;
      nb++;
    }
  }
  return (nb ? sb / nb : NaN) - (na ? sa / na : NaN);
}

/**
 * Paired summary of B against A per metric over the users of the scope. The bootstrap draws, for each platform,
 * as many users as it has, with replacement (seeded, so the interval is reproducible), and recomputes the diff.
 * run(k) does k more resamples, so a caller can spread the work over several turns of the event loop; the result
 * does not depend on how the resamples were split.
 */
export class PairedBootstrap {
  readonly resamples: number;
  private done = 0;
  private readonly level: number;
  private readonly rng: () => number;
  private readonly users: UserPair[];
  private readonly steps: StepDelta[];
  private readonly groups: Group[] = [];
  private readonly idx: Int32Array[];
  private readonly boot: number[][] = COMPARE_METRICS.map(() => []);

  constructor(cmp: RunComparison, scope: Scope = 'all', opts: BootstrapOptions = {}) {
    this.resamples = opts.resamples ?? 2000;
    this.level = opts.level ?? 0.95;
    this.rng = mulberry32(opts.seed ?? 1);
    this.users = cmp.users.filter((u) => scope === 'all' || u.platform === scope);
    this.steps = cmp.steps.filter((s) => scope === 'all' || s.platform === scope);
    for (const platform of PLATFORMS) {
      const us = this.users.filter((u) => u.platform === platform);
      if (!us.length) continue;
      this.groups.push({
        n: us.length,
        a: COMPARE_METRICS.map((m) => Float64Array.from(us, (u) => u.a[m])),
        b: COMPARE_METRICS.map((m) => Float64Array.from(us, (u) => u.b[m])),
      });
    }
    this.idx = this.groups.map((g) => new Int32Array(g.n));
  }

  /** Runs up to k more resamples; true when all are done. */
  run(k: number): boolean {
    const { groups, idx, rng, boot } = this;
    const end = Math.min(this.resamples, this.done + k);
    for (; this.done < end; this.done++) {
      for (let gi = 0; gi < groups.length; gi++) {
        const n = groups[gi].n;
        const ix = idx[gi];
        for (let i = 0; i < n; i++) ix[i] = Math.floor(rng() * n);
      }
      for (let mi = 0; mi < COMPARE_METRICS.length; mi++) {
        let sum = 0;
        let count = 0;
        for (let gi = 0; gi < groups.length; gi++) {
          const d = groupDiff(groups[gi], mi, idx[gi]);
          if (d === d) {
            sum += d;
            count++;
          }
        }
        if (count) boot[mi].push(sum / count);
      }
    }
    return this.done >= this.resamples;
  }

  result(): PairedSummaryRow[] {
    this.run(Infinity);
    const { groups, users, steps, level } = this;
    const none = groups.map(() => undefined);
    const tail = (1 - level) / 2;
    return COMPARE_METRICS.map((metric, mi) => {
      const point = statistic(groups, none, mi);
      const sorted = [...this.boot[mi]].sort((x, y) => x - y);
      const userDeltas = users.map((u) => u.b[metric] - u.a[metric]);
      return {
        metric,
        meanA: point.a,
        meanB: point.b,
        diff: point.diff,
        ciLow: quantile(sorted, tail),
        ciHigh: quantile(sorted, 1 - tail),
        users: userDeltas.filter((d) => !Number.isNaN(d)).length,
        userWtl: wtl(metric, userDeltas),
        stepWtl:
          metric === 'F1NS'
            ? null
            : wtl(
                metric,
                steps.map((s) => s.delta[metric]),
              ),
      };
    });
  }
}

export function pairedSummary(
  cmp: RunComparison,
  scope: Scope = 'all',
  opts: BootstrapOptions = {},
): PairedSummaryRow[] {
  return new PairedBootstrap(cmp, scope, opts).result();
}
