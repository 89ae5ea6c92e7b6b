// The pieces that serve every format take what a format offers (its descriptor, its CLI part, its glossary) and never
// reach into a format's folder: the batch runs' shared parts, the demo endpoint, the glossary, the descriptor type,
// the labels, the PI audit, re-runs and tables, and the CLI's shared files. A format's folder is a top-level folder of src/core that defines a format
// (`defineFormat(`), or a folder of src/cli/formats/; the registries (core/formats/index.ts, glossaries.ts,
// cli/formats/index.ts) are how the generic pieces reach them.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = resolve(__dirname, '../..');
const core = join(repo, 'src/core');
const cliFormats = join(repo, 'src/cli/formats');

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });

const FORMAT_FOLDERS = [
  ...readdirSync(core)
    .map((name) => join(core, name))
    .filter((dir) => statSync(dir).isDirectory())
    .filter((dir) => files(dir).some((f) => /\bdefineFormat\(/.test(readFileSync(f, 'utf8')))),
  ...readdirSync(cliFormats)
    .map((name) => join(cliFormats, name))
    .filter((dir) => statSync(dir).isDirectory()),
];

/** The registries: the one place each generic piece reaches the formats through. */
const REGISTRIES = ['formats/index.ts', 'formats/glossaries.ts'].map((f) => join(core, f));

/** The generic files this guard holds to (every file of src/core outside the formats' folders but the registries,
 * and the CLI's shared files); paths from the repository's root. */
const GENERIC = [
  ...files(core).filter((f) => !REGISTRIES.includes(f) && !FORMAT_FOLDERS.some((dir) => f.startsWith(dir + sep))),
  ...[
    'run',
    'runArgs',
    'batchRun',
    'commands',
    'spec',
    'main',
    'cacheOption',
    'output',
    'labels',
    'audit',
    'optionTypes',
    'usageError',
    'commandSpec',
    'compare',
    'compareReport',
  ].map((f) => join(repo, 'src/cli', `${f}.ts`)),
].map((f) => relative(repo, f));

/**
 * Generic files that still import a format's folder, each with the folders it may import and why. None: the labels'
 * rules about platforms, target kinds, label sets and judge dimensions come from the formats' descriptors.
 */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {};

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\1/g;

/** The format folders a file imports from (relative imports only: a format's folder is never a package). */
function formatImports(file: string): string[] {
  const text = readFileSync(join(repo, file), 'utf8');
  const found = new Set<string>();
  for (const m of text.matchAll(SPECIFIER)) {
    const target = resolve(dirname(join(repo, file)), m[2]);
    const folder = FORMAT_FOLDERS.find((dir) => target === dir || target.startsWith(dir + sep));
    if (folder) found.add(relative(repo, folder));
  }
  return [...found].sort();
}

describe('generic pieces import no format', () => {
  it('finds the format folders and the generic files it guards', () => {
    const folders = FORMAT_FOLDERS.map((d) => relative(repo, d));
    expect(folders).toEqual(expect.arrayContaining(['src/core/spb', 'src/core/omni', 'src/cli/formats/spb']));
    for (const f of GENERIC) expect(existsSync(join(repo, f)), f).toBe(true);
    expect(GENERIC).toEqual(expect.arrayContaining(['src/core/stats/pairedUnits.ts', 'src/core/labels/model.ts']));
    expect(GENERIC).not.toContain('src/core/formats/index.ts');
    // the guard sees an import when there is one
    expect(formatImports('src/core/formats/index.ts')).toContain('src/core/spb');
  });

  it("every shared file of src/core and the CLI's shared files", () => {
    const offending = GENERIC.flatMap((file) => {
      const allowed = ALLOWED[file] ?? [];
      return formatImports(file)
        .filter((folder) => !allowed.includes(folder))
        .map((folder) => `${file} imports ${folder}`);
    });
    expect(offending).toEqual([]);
  });

  it('keeps the allow-list to what is still needed', () => {
    const stale = (allowed: Readonly<Record<string, readonly string[]>>) =>
      Object.entries(allowed).flatMap(([file, folders]) =>
        folders.filter((folder) => !formatImports(file).includes(folder)).map((folder) => `${file}: ${folder}`),
      );
    expect(stale(ALLOWED)).toEqual([]);
    // an entry a file no longer needs is found
    expect(stale({ 'src/core/labels/model.ts': ['src/core/spb'] })).toEqual(['src/core/labels/model.ts: src/core/spb']);
  });
});
