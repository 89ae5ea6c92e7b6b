// What every bench stage times and prints with: wall-clock timing in ms, medians and ranges of repeats, MiB.

export function time<T>(fn: () => T): [number, T] {
  const t0 = process.hrtime.bigint();
  const v = fn();
  return [Number(process.hrtime.bigint() - t0) / 1e6, v];
}

export async function timeAsync<T>(fn: () => Promise<T> | T): Promise<[number, T]> {
  const t0 = process.hrtime.bigint();
  const v = await fn();
  return [Number(process.hrtime.bigint() - t0) / 1e6, v];
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
export const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)];
export const range = (xs: number[], digits: number) =>
  `${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}`;
export const mb = (b: number) => (b / 2 ** 20).toFixed(1) + ' MiB';
