// The test runners' twin of esbuild's text loader for .py (scripts/build.mjs): a Python file imported from
// TypeScript is its source text, so the reference drivers run the same under vitest as in the bundles.
import type { Plugin } from 'vite';

export function pythonText(): Plugin {
  return {
    name: 'persona-lab-python-text',
    transform(code, id) {
      if (!id.endsWith('.py')) return null;
      return { code: `export default ${JSON.stringify(code)};`, map: null };
    },
  };
}
