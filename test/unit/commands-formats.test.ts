// The command table split between the generic commands (commands/table.ts) and each format's own (its features'
// `commands`): every id package.json contributes is in exactly one table, a format's table may not take a generic id,
// and `own` is resolved to the format whose table has the command.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

// The draft kinds' registry (reached through Ctrl+Enter's generic command) makes its change event on load.
vi.mock('vscode', () => ({
  EventEmitter: class {
    event = () => ({ dispose() {} });
    fire() {}
  },
}));

const { contributedCommands } = await import('../../src/extension/commands/ids');
const { COMMANDS, commandEntries, missingCommands } = await import('../../src/extension/commands/table');
const { FORMAT_COMMAND_IDS, GENERIC_COMMAND_IDS } = await import('../support/commandIds');
const CONTRIBUTED = contributedCommands(JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')));

const formatIds = FORMAT_COMMAND_IDS;

describe('command tables', () => {
  it('puts every contributed id in exactly one table', () => {
    const generic = Object.keys(COMMANDS);
    // the source reading of test/support/commandIds.ts sees what the table holds
    expect([...GENERIC_COMMAND_IDS].sort()).toEqual([...generic].sort());
    const all = [...generic, ...formatIds].sort();
    expect(CONTRIBUTED.length).toBeGreaterThan(50);
    expect(all).toEqual([...CONTRIBUTED].sort());
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
    const missing = missingCommands(new Set(entries.keys()), CONTRIBUTED);
    expect(missing).toContain('personaLab.openStep');
    expect(missing).not.toContain('personaLab.refresh');
    expect(missing.length + entries.size).toBe(CONTRIBUTED.length);
  });
});
