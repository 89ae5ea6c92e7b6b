// Python's number rules where the benchmarks' reference code relies on them: float() of a value, and rounding to a
// number of decimals (round(x, d), f"{x:.{d}f}"), so that figures and reports come out as the reference's do.

// float() of a str: surrounding whitespace, a sign, digits with single underscores between them, an optional point
// and exponent, or inf / infinity / nan in any case. No hex, no empty string (unlike Number()).
const DIGITS = '\\d(?:_?\\d)*';
const PY_FLOAT = new RegExp(
  `^[+-]?(?:(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:[eE][+-]?${DIGITS})?|inf(?:inity)?|nan)$`,
  'i',
);

/** Python's float(value) for a JSON scalar: the number, or undefined where float() raises (None, "", "45秒", "0x1"). */
export function pyFloat(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
  if (!PY_FLOAT.test(s)) return undefined;
  const body = s.replace(/_/g, '').toLowerCase();
  const sign = body.startsWith('-') ? -1 : 1;
  const unsigned = body.replace(/^[+-]/, '');
  if (unsigned === 'nan') return Number.NaN;
  if (unsigned === 'inf' || unsigned === 'infinity') return sign * Number.POSITIVE_INFINITY;
  return Number(body);
}

/** A signed difference of shares in percentage points: "+12.5", "−3.0" (a minus sign), "0.0"; "—" for none. */
export function pointsText(x: number | null | undefined, digits = 1): string {
  return signedText(x === null || x === undefined ? x : 100 * x, digits);
}

/** A signed difference as it is: "+12.5", "−3.0" (a minus sign), "0.0"; "—" for none. */
export function signedText(x: number | null | undefined, digits = 1): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  const v = pyFixed(x, digits);
  if (Number(v) === 0) return (0).toFixed(digits);
  return x > 0 ? `+${v}` : `\u2212${v.slice(1)}`;
}

/**
 * Python's f"{x:.{digits}f}": the exact binary value rounded half to even. `toFixed` agrees except on exact ties,
 * where it rounds up; a double is an exact tie at `digits` decimals only when x · 2^(digits+1) is an odd integer
 * (x·10^d = n + ½ makes x = (2n+1) / (2^(d+1)·5^d), a dyadic number only when 5^d divides 2n+1).
 */
export function pyFixed(x: number, digits: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf';
  const scaled = x * 2 ** (digits + 1);
  if (Number.isInteger(scaled) && Math.abs(scaled % 2) === 1) {
    const down = Math.floor(x * 10 ** digits); // exact: x has at most digits + 1 fractional bits here
    const even = down % 2 === 0 ? down : down + 1;
    return (even / 10 ** digits).toFixed(digits);
  }
  return x.toFixed(digits);
}

/** Python's round(x, digits) for a float. */
export function pyRound(x: number, digits: number): number {
  return Number.isFinite(x) ? Number(pyFixed(x, digits)) : x;
}

/** Python's f"{v:.2%}" (100·v in floating point, then two decimals), or `N/A` for NaN as the reference's `fmt` writes it. */
export function pyPercent(v: number): string {
  return Number.isNaN(v) ? 'N/A' : `${pyFixed(v * 100, 2)}%`;
}

/** A fraction as a percentage with `digits` decimals, as f"{v:.{digits}%}" prints it (100·v, then half to even). */
export function pyPercentFixed(v: number, digits: number): string {
  return pyFixed(100 * v, digits);
}

/**
 * How Excel shows a number under the format "0.00" (the format `stats.py` gives its xlsx cells, from which the
 * paper's tables were taken): the value to 15 significant digits, then rounded half away from zero in decimal.
 */
export function excelFixed(x: number, digits: number): string {
  if (!Number.isFinite(x)) return pyFixed(x, digits);
  const [mantissa, exponent] = Math.abs(x).toExponential(14).split('e');
  const significant = mantissa.replace('.', '');
  const keep = Number(exponent) + 1 + digits; // significant digits left of the cut
  if (keep < 0) return (0).toFixed(digits);
  const head = BigInt(significant.slice(0, keep).padEnd(keep, '0') || '0');
  const n = head + (Number(significant[keep] ?? '0') >= 5 ? 1n : 0n);
  const text = n.toString().padStart(digits + 1, '0');
  const body = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return x < 0 && n > 0n ? `-${body}` : body;
}
