// How Compare Runs writes a paired row's figures, for every format: each run's figure, B − A signed, and the
// interval, which is none over a single unit (every resample is that unit, so its width would say nothing). The
// pages and their tests read the same strings.
import { pyFixed, signedText } from '../io/pyNumber';

/** A paired row's figures as computed (pairedUnits.ts), null where undefined. */
export interface PairedFigures {
  a: number | null;
  b: number | null;
  diff: number | null;
  low: number | null;
  high: number | null;
  units: number;
}

export interface PairedTexts {
  a: string;
  b: string;
  /** B − A, signed */
  diff: string;
  /** "[low, high]", signed; "— (1 <unit>)" over a single unit */
  interval: string;
  /** whether the interval leaves 0 out */
  clear: boolean;
}

export interface PairedTextOptions {
  /** what a resampled unit is called: "persona", "user" */
  unit: string;
  digits: number;
  /** each figure is multiplied by this before it is written (100 for a share written in %) */
  scale?: number;
}

export function pairedTexts(r: PairedFigures, o: PairedTextOptions): PairedTexts {
  const scaled = (x: number | null) => (x === null || o.scale === undefined ? x : o.scale * x);
  const fixed = (x: number | null) => (x === null ? '—' : pyFixed(x, o.digits));
  const signed = (x: number | null) => signedText(scaled(x), o.digits);
  const shown = r.low !== null && r.high !== null && r.units > 1;
  return {
    a: fixed(scaled(r.a)),
    b: fixed(scaled(r.b)),
    diff: signed(r.diff),
    interval: !shown ? (r.units === 1 ? `— (1 ${o.unit})` : '—') : `[${signed(r.low)}, ${signed(r.high)}]`,
    clear: shown && r.low !== null && r.high !== null && (r.low > 0 || r.high < 0),
  };
}
