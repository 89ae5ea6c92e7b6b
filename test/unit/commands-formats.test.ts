// The command table split between the generic commands (commands/table.ts) and each format's own (its features'
// `commands`): every id package.json contributes is in exactly one table, a format's table may not take a generic id,
// and `own` is resolved to the format whose table has the command.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

// The draft kinds' registry (reached through Ctrl+Enter's generic command) makes its change event on load.
vi.mock('vscode', () => ({
  EventEmitter: class {
    event = () => ({ dispose() {} });
    fire() {}
  },
}));

const { COMMAND_IDS } = await import('../../src/extension/commands/ids');
const { COMMANDS, commandEntries, missingCommands } = await import('../../src/extension/commands/table');

const root = join(__dirname, '../../src/extension/benchmarks');
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
/** The ids a format's own table lists: its entries are written `'personaLab.x': {` in its folder. */
const formatIds = files(root).flatMap((f) =>
  [...readFileSync(f, 'utf8').matchAll(/^\s*'(personaLab\.[\w.]+)': \{/gm)].map((m) => m[1]),
);

describe('command tables', () => {
  it('puts every contributed id in exactly one table', () => {
    const generic = Object.keys(COMMANDS);
    const all = [...generic, ...formatIds].sort();
    expect(all).toEqual([...COMMAND_IDS].sort());
    expect(new Set(all).size).toBe(all.length);
  });

  it('keeps format commands out of the generic table', () => {
    for (const id of ['personaLab.openStep', 'personaLab.openTrace', 'personaLab.rerunStep']) {
      expect(Object.keys(COMMANDS)).not.toContain(id);
      expect(formatIds).toContain(id);
    }
  });

  it("resolves 'own' to the contributing format, and refuses an id in two tables", () => {
    const make = () => () => undefined;
    const contribution = { format: { id: 'tiny' } } as never;
    const entries = commandEntries([{ contribution, commands: { 'personaLab.openTrace': { needs: 'own', make } } }]);
    expect(entries.get('personaLab.openTrace')?.own).toBe(contribution);
    expect(entries.get('personaLab.refresh')?.own).toBeUndefined();
    expect(() => commandEntries([{ contribution, commands: { 'personaLab.refresh': { make } } }])).toThrow(
      'command personaLab.refresh is in two tables',
    );
  });

  it('names the ids no table of this build registers', () => {
    const entries = commandEntries([]);
    const missing = missingCommands(new Set(entries.keys()));
    expect(missing).toContain('personaLab.openStep');
    expect(missing).not.toContain('personaLab.refresh');
    expect(missing.length + entries.size).toBe(COMMAND_IDS.length);
  });
});
