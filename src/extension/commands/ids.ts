// Persona Lab's command ids. Which ones it contributes is package.json's `contributes.commands`, read here rather than
// listed again, so that a format's commands are named in its own folder only; test/unit/commands-*.test.ts check that
// the tables register exactly those. No vscode import.

/** A command id of ours: the key of an entry of a command table (table.ts, a format's `commands`). */
export type CommandId = `personaLab.${string}`;

/** The command ids a manifest (package.json, or `context.extension.packageJSON`) contributes. */
export function contributedCommands(manifest: unknown): string[] {
  const commands = (manifest as { contributes?: { commands?: unknown } } | undefined)?.contributes?.commands;
  if (!Array.isArray(commands)) return [];
  return commands.flatMap((c: unknown) => {
    const id = (c as { command?: unknown } | null)?.command;
    return typeof id === 'string' ? [id] : [];
  });
}
