// Two runs scored right or wrong on the same items, grouped in units (a persona's questions, a user's steps): the
// difference of their shares right, with a paired interval that resamples whole units, since the items of one unit
// share a history and are not independent. The interval is the one bootstrap rule of bootstrap.ts.
import { bootstrapInterval, COMPARE_RESAMPLES, COMPARE_SEED, type BootstrapOptions } from './bootstrap';

/** One unit's paired items: how many, and how many of them each run got right. */
export interface PairedUnit {
  items: number;
  rightA: number;
  rightB: number;
}

/** What every paired comparison gives besides its figures: its units, the interval of B − A and the units' tally. */
export interface PairedInterval {
  units: number;
  /** percentile bootstrap interval of B − A, resampling units; null where B − A is */
  low: number | null;
  high: number | null;
  /** per unit: B better (win), as good (tie), worse (loss) */
  win: number;
  tie: number;
  loss: number;
  resamples: number;
  seed: number;
}

export interface PairedShareDifference extends PairedInterval {
  items: number;
  /** right / items over all the units' items (null without items) */
  shareA: number | null;
  shareB: number | null;
  /** shareB − shareA; a unit wins when B is right on more of its items */
  diff: number | null;
}

const share = (right: number, items: number) => (items === 0 ? null : right / items);
const finite = (x: number) => (Number.isFinite(x) ? x : null);

/**
 * The pooled shares of A and B and their difference over `units`; each resample draws as many units as there are,
 * with replacement, and recomputes (ΣrightB − ΣrightA) / Σitems over the drawn units.
 */
export function pairedShareDifference(
  units: readonly PairedUnit[],
  opts: BootstrapOptions = {},
): PairedShareDifference {
  const resamples = opts.resamples ?? COMPARE_RESAMPLES;
  const seed = opts.seed ?? COMPARE_SEED;
  let items = 0;
  let rightA = 0;
  let rightB = 0;
  let win = 0;
  let tie = 0;
  let loss = 0;
  for (const u of units) {
    items += u.items;
    rightA += u.rightA;
    rightB += u.rightB;
    if (u.rightB > u.rightA) win++;
    else if (u.rightB < u.rightA) loss++;
    else tie++;
  }
  const shareA = share(rightA, items);
  const shareB = share(rightB, items);
  const diff = shareA === null || shareB === null ? null : shareB - shareA;
  const interval = bootstrapInterval(
    units.length,
    (idx) => {
      let n = 0;
      let d = 0;
      for (let i = 0; i < idx.length; i++) {
        const u = units[idx[i]];
        n += u.items;
        d += u.rightB - u.rightA;
      }
      return n === 0 ? NaN : d / n;
    },
    { resamples, seed, level: opts.level },
  );
  return {
    units: units.length,
    items,
    shareA,
    shareB,
    diff,
    low: diff === null ? null : finite(interval.low),
    high: diff === null ? null : finite(interval.high),
    win,
    tie,
    loss,
    resamples,
    seed,
  };
}

/**
 * A figure that is not a share (an F1, a mean error, a judge's mean), pooled over units from what each unit holds for
 * run A and run B: `figure(units, side)` is that side's figure over the given units (NaN where it is undefined).
 */
export interface PairedFigure<U> {
  figure(units: readonly U[], side: 'a' | 'b'): number;
  /** an error: a unit where B's figure is lower counts as a win */
  lowerIsBetter?: boolean;
}

export interface PairedFigureDifference extends PairedInterval {
  figureA: number | null;
  figureB: number | null;
  /** figureB − figureA; a unit wins on its own figure, and is undecided where either side's is undefined */
  diff: number | null;
  undecided: number;
  /** resamples whose B − A was defined (the interval is over these): fewer when a drawn set can lack the figure */
  defined: number;
}

/** Differences smaller than this are ties (floating point noise of equal figures). */
const TIE = 1e-12;

/** B − A of a pooled figure over `units`, with the paired interval of bootstrap.ts resampling whole units. */
export function pairedFigureDifference<U>(
  units: readonly U[],
  f: PairedFigure<U>,
  opts: BootstrapOptions = {},
): PairedFigureDifference {
  const resamples = opts.resamples ?? COMPARE_RESAMPLES;
  const seed = opts.seed ?? COMPARE_SEED;
  const figureA = finite(f.figure(units, 'a'));
  const figureB = finite(f.figure(units, 'b'));
  const diff = figureA === null || figureB === null ? null : figureB - figureA;
  let win = 0;
  let tie = 0;
  let loss = 0;
  let undecided = 0;
  for (const u of units) {
    const d = f.figure([u], 'b') - f.figure([u], 'a');
    if (!Number.isFinite(d)) undecided++;
    else if (Math.abs(d) <= TIE) tie++;
    else if (d > 0 !== (f.lowerIsBetter === true)) win++;
    else loss++;
  }
  const interval =
    diff === null
      ? undefined
      : bootstrapInterval(
          units.length,
          (idx) => {
            const drawn = Array.from(idx, (i) => units[i]);
            return f.figure(drawn, 'b') - f.figure(drawn, 'a');
          },
          { resamples, seed, level: opts.level },
        );
  return {
    units: units.length,
    figureA,
    figureB,
    diff,
    low: interval ? finite(interval.low) : null,
    high: interval ? finite(interval.high) : null,
    win,
    tie,
    loss,
    undecided,
    defined: interval?.defined ?? 0,
    resamples,
    seed,
  };
}
