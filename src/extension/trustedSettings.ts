// Settings that name a host, a database, a program or a checkout are the user's to choose, not a cloned folder's:
// in an untrusted workspace the value in its .vscode/settings.json is ignored (only the user settings apply), and
// the user is told which setting was ignored and why, once per setting and window (a log line and a notice).
// package.json's capabilities.untrustedWorkspaces.restrictedConfigurations lists the same keys.
import { join } from 'node:path';
import * as vscode from 'vscode';
import { readRegularText } from '../core/io/safeFs';
import { log } from './log';
import { namesSetting, type RestrictedKey } from './trustedKeys';

export { RESTRICTED_KEYS, type RestrictedKey } from './trustedKeys';

const told = new Set<string>();

/** The words a notice or log line uses for an ignored workspace value. */
export const ignoredMessage = (key: string): string =>
  `this workspace is not trusted, so the ${key} in its settings is ignored (a cloned folder must not choose where ` +
  'Persona Lab connects, what it writes to or what it runs); set it in your user settings, or trust the workspace';

/** The settings files of the open workspace: each folder's .vscode/settings.json and the .code-workspace file. */
function workspaceSettingsTexts(): string[] {
  const files = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => [join(f.uri.fsPath, '.vscode', 'settings.json'), f.uri.fsPath]);
  const ws = vscode.workspace.workspaceFile;
  if (ws?.scheme === 'file') files.push([ws.fsPath, ws.fsPath]);
  return files.flatMap(([file, within]) => {
    try {
      return [readRegularText(file, within)];
    } catch {
      return []; // none, or not a regular file inside the folder: nothing of it applies
    }
  });
}

function setByWorkspace(key: string, inspected: { workspaceValue?: unknown; workspaceFolderValue?: unknown }): boolean {
  if (inspected.workspaceValue !== undefined || inspected.workspaceFolderValue !== undefined) return true;
  return workspaceSettingsTexts().some((text) => namesSetting(text, key));
}

function tell(key: string): void {
  const message = ignoredMessage(key);
  log.warn(message);
  void vscode.window.showWarningMessage(`Persona Lab: ${message}.`, 'Manage Workspace Trust').then((choice) => {
    if (choice) void vscode.commands.executeCommand('workbench.trust.manage');
  });
}

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
  // Looked at once per setting and window: a notice is said once, and the files are not read on every call.
  if (!told.has(key)) {
    told.add(key);
    if (setByWorkspace(key, inspected)) tell(key);
  }
  return inspected.globalValue ?? inspected.defaultValue;
}
