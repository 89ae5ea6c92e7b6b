// How an agreement figure (κ, precision, recall) is written in every table, text and Markdown: three decimals, or a
// word when it is undefined. A κ that is zero but for rounding (chance agreement minus a hair) prints 0.000, not
// -0.000, which reads as a sign the data does not have.
export function fixed3(x: number, missing = 'n/a'): string {
  if (!Number.isFinite(x)) return missing;
  const text = x.toFixed(3);
  return text === '-0.000' ? '0.000' : text;
}
