// esbuild loads `.css` imports as text (scripts/build.mjs). The pattern names only this view's sheet, so it cannot
// collide with another webview's declaration.
declare module '*/step.css' {
  const css: string;
  export default css;
}
declare module '*/rerun.css' {
  const css: string;
  export default css;
}
declare module '*/pi.css' {
  const css: string;
  export default css;
}
