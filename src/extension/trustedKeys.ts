// The settings an untrusted workspace may not set: each names a host, a database, a program or a checkout (or turns
// off the PI guard). package.json's capabilities.untrustedWorkspaces.restrictedConfigurations lists the same keys
// (a unit test checks); trustedSettings.ts reads them. No vscode import, so that the test can read this list.
export const RESTRICTED_KEYS = [
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
