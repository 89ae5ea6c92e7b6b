// esbuild loads `.css` imports as text (scripts/build.mjs). The pattern names only this view's sheet, so it cannot
// collide with another webview's declaration.
declare module '*/dashboard.css' {
  const css: string;
  export default css;
}
