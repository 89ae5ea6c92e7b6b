// The settings an untrusted workspace may not set: each names a host, a database, a program or a checkout (or turns
// off the PI guard). package.json's capabilities.untrustedWorkspaces.restrictedConfigurations lists the same keys
// (a unit test checks); trustedSettings.ts reads them. No vscode import, so that the test can read this list.
export const RESTRICTED_KEYS = [
  'personaLab.benchmarkPath',
  'personaLab.endpoint.baseURL',
  'personaLab.judge.baseURL',
  'personaLab.labels.server',
  'personaLab.labels.dbPath',
  'personaLab.audit.dbPath',
  'personaLab.reference.path',
  'personaLab.reference.python',
  'personaLab.privacy.remoteGuard',
  'personaLab.privacy.guardLoopback',
] as const;

export type RestrictedKey = (typeof RESTRICTED_KEYS)[number];

/**
 * Whether a settings.json text sets `key`. In an untrusted workspace VS Code leaves a restricted setting's workspace
 * value out of the configuration altogether (inspect() has no workspaceValue), so the file is read to say which
 * setting was ignored. A key's name followed by a colon, in either form settings.json allows.
 */
export function namesSetting(text: string, key: string): boolean {
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const dot = key.lastIndexOf('.');
  const flat = new RegExp(`"${esc(key)}"\\s*:`);
  const nested = new RegExp(`"${esc(key.slice(0, dot))}"\\s*:\\s*\\{[^}]*"${esc(key.slice(dot + 1))}"\\s*:`);
  return flat.test(text) || nested.test(text);
}
