// The labels bar's sheet, loaded as text like step.css (see assets.d.ts).
declare module '*/labels.css' {
  const css: string;
  export default css;
}
