// The reference drivers are Python files in the source tree, bundled as their text (esbuild's text loader, and the
// same in the test configs), so that they are linted and compiled as Python rather than living in string literals.
declare module '*.py' {
  const source: string;
  export default source;
}
