// The Benchmarks view's welcome once the workspace search found no benchmark, in package.json's own words: tests
// wait for it without copying them (they name every format served, so they change when one is added).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './server';

interface ViewWelcome {
  view: string;
  contents: string;
  when?: string;
}

/** The first line of the no-benchmark welcome ("No … folder is open."). */
export function noBenchmarkWelcome(): string {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    contributes: { viewsWelcome: ViewWelcome[] };
  };
  const entry = pkg.contributes.viewsWelcome.find(
    (w) => w.view === 'personaLab.benchmarks' && (w.when ?? '').startsWith('personaLab.searched'),
  );
  if (!entry) throw new Error('package.json has no welcome for personaLab.benchmarks once the search is done');
  return entry.contents.split('\n')[0];
}
