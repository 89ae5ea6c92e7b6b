// Issue #46's rule for the seam, as a check: outside each format's own folders, only the registries name a format.
// A third benchmark is then its folders and one line in each registry; a generic file that names one of the formats
// (in code, a message or a comment) is a place it would have to be added too.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = resolve(__dirname, '../..');

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.(ts|css|html)$/.test(name) ? [path] : [];
  });

/** The formats' folder names: a folder of src/core that defines a format. */
const FORMAT_DIRS = readdirSync(join(repo, 'src/core')).filter((name) => {
  const dir = join(repo, 'src/core', name);
  return statSync(dir).isDirectory() && files(dir).some((f) => /\bdefineFormat\(/.test(readFileSync(f, 'utf8')));
});

/** The words that name a format: its folder name, and the formats' names as the papers spell them. */
const NAMES = /spb|omni|streamprofile|personamem|tinybench/i;

/** The registries: one line each per format. */
const REGISTRIES = [
  'src/core/formats/index.ts',
  'src/core/formats/glossaries.ts',
  'src/cli/formats/index.ts',
  'src/extension/benchmarks/contributions.ts',
];

/** Generic files that still name a format, each with why (none since the label rules came from the descriptors). */
const PENDING: readonly string[] = [];

const inFormatFolder = (file: string) => file.split(sep).some((part) => FORMAT_DIRS.includes(part));

const GENERIC = ['src', 'webview']
  .flatMap((dir) => files(join(repo, dir)))
  .map((f) => relative(repo, f))
  .filter((f) => !inFormatFolder(f) && !REGISTRIES.includes(f));

const naming = (file: string) => NAMES.test(readFileSync(join(repo, file), 'utf8'));

describe('generic files name no format', () => {
  it('finds the formats and the generic files', () => {
    expect(FORMAT_DIRS).toEqual(expect.arrayContaining(['spb', 'omni', 'personamem']));
    expect(GENERIC).toEqual(expect.arrayContaining(['src/extension/main.ts', 'src/core/labels/model.ts']));
    expect(GENERIC.length).toBeGreaterThan(200);
    // the check sees a name where there is one
    expect(REGISTRIES.every(naming)).toBe(true);
  });

  it('outside the formats’ folders and the registries', () => {
    // each line that names one, file:line, so that the failure says where
    const lines = GENERIC.filter((f) => !PENDING.includes(f)).flatMap((f) =>
      readFileSync(join(repo, f), 'utf8')
        .split('\n')
        .flatMap((line, i) => (NAMES.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(lines).toEqual([]);
  });

  it('keeps the pending list to what still names one', () => {
    expect(PENDING.filter((f) => !naming(f))).toEqual([]);
  });
});
