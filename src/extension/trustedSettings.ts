// Settings that name a host, a database, a program or a checkout are the user's to choose, not a cloned folder's:
// in an untrusted workspace the value in its .vscode/settings.json is ignored (only the user settings apply), and
// the user is told which setting was ignored and why, once per setting and window (a log line and a notice).
// package.json's capabilities.untrustedWorkspaces.restrictedConfigurations lists the same keys.
import * as vscode from 'vscode';
import { log } from './log';
import { type RestrictedKey } from './trustedKeys';

export { RESTRICTED_KEYS, type RestrictedKey } from './trustedKeys';

const told = new Set<string>();

/** The words a notice or log line uses for an ignored workspace value. */
export const ignoredMessage = (key: string): string =>
  `this workspace is not trusted, so the ${key} in its settings is ignored (a cloned folder must not choose where ` +
  'Persona Lab connects, what it writes to or what it runs); set it in your user settings, or trust the workspace';

/**
 * The value of a restricted setting that applies: the workspace's (or its folder's) only when the workspace is
 * trusted, else the user's. Says once when a workspace value was ignored.
 */
export function restrictedSetting<T>(key: RestrictedKey): T | undefined {
  const dot = key.lastIndexOf('.');
  const inspected = vscode.workspace.getConfiguration(key.slice(0, dot)).inspect<T>(key.slice(dot + 1));
  if (!inspected) return undefined;
  if (vscode.workspace.isTrusted)
    return vscode.workspace.getConfiguration(key.slice(0, dot)).get<T>(key.slice(dot + 1));
  if ((inspected.workspaceValue !== undefined || inspected.workspaceFolderValue !== undefined) && !told.has(key)) {
    told.add(key);
    const message = ignoredMessage(key);
    log.warn(message);
    void vscode.window.showWarningMessage(`Persona Lab: ${message}.`, 'Manage Workspace Trust').then((choice) => {
      if (choice) void vscode.commands.executeCommand('workbench.trust.manage');
    });
  }
  return inspected.globalValue ?? inspected.defaultValue;
}
