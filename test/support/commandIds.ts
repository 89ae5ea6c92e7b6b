// The command ids the extension's tables register, read from their source (an entry is written `'personaLab.x': {`):
// the generic table (src/extension/commands/table.ts) and each format's own, under src/extension/benchmarks/.
// test/unit/commands-formats.test.ts checks the generic ones against the table the extension imports.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const src = join(__dirname, '../../src/extension');

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });

const entries = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/^\s*'(personaLab\.[\w.]+)': (?:\{|verdict\()/gm)].map((m) => m[1]);

/** The generic table's ids. */
export const GENERIC_COMMAND_IDS: readonly string[] = entries(join(src, 'commands/table.ts'));

/** The ids of the formats' own tables. */
export const FORMAT_COMMAND_IDS: readonly string[] = files(join(src, 'benchmarks')).flatMap(entries);

/** Every id a table registers. */
export const TABLE_COMMAND_IDS: readonly string[] = [...GENERIC_COMMAND_IDS, ...FORMAT_COMMAND_IDS];
