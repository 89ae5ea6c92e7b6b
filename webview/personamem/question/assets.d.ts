// esbuild loads `.css` imports as text (scripts/build.mjs). The pattern names only this view's sheet.
declare module '*/question.css' {
  const css: string;
  export default css;
}
