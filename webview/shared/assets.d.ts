// esbuild loads `.css` imports as text (scripts/build.mjs): the shared sheets of webview/shared/.
declare module '*/vlist.css' {
  const css: string;
  export default css;
}
declare module '*/labelChips.css' {
  const css: string;
  export default css;
}
declare module '*/base.css' {
  const css: string;
  export default css;
}
declare module '*/sides.css' {
  const css: string;
  export default css;
}
declare module '*/piMarks.css' {
  const css: string;
  export default css;
}
declare module '*/cheatSheet.css' {
  const css: string;
  export default css;
}
declare module '*/paperTable.css' {
  const css: string;
  export default css;
}
declare module '*/compare.css' {
  const css: string;
  export default css;
}
declare module '*/report.css' {
  const css: string;
  export default css;
}
