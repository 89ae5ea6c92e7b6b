// An untrusted workspace chooses no server, no database, no program and no checkout: every setting that names one
// is restricted in package.json (VS Code then keeps the workspace's value away), and the extension reads the same
// list through restrictedSetting, which uses only the user's value there and says so.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { namesSetting, RESTRICTED_KEYS } from '../../src/extension/trustedKeys';

interface Manifest {
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
  contributes: {
    configuration: { properties: Record<string, { description?: string; markdownDescription?: string }> }[];
  };
}
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Manifest;
const configuration = manifest.contributes.configuration;
const properties: Record<string, unknown> = Object.assign(
  {},
  ...(Array.isArray(configuration) ? configuration : [configuration]).map((c: { properties: object }) => c.properties),
);

describe('restricted settings', () => {
  it('package.json restricts exactly the keys the extension reads as restricted', () => {
    expect([...manifest.capabilities.untrustedWorkspaces.restrictedConfigurations].sort()).toEqual(
      [...RESTRICTED_KEYS].sort(),
    );
  });

  it('every setting that names a host, a database, a program or a checkout is restricted', () => {
    const naming = Object.keys(properties).filter((k) => /server|baseURL|dbPath|reference\.(path|python)/.test(k));
    expect(naming.length).toBeGreaterThanOrEqual(7);
    for (const key of naming) expect(RESTRICTED_KEYS as readonly string[]).toContain(key);
    expect(RESTRICTED_KEYS).toContain('personaLab.labels.server');
    // The folder opened at start is chosen by the user, not by a cloned folder's settings.
    expect(RESTRICTED_KEYS).toContain('personaLab.benchmarkPath');
  });
});

describe('namesSetting', () => {
  it('finds a key set in a settings.json, flat or nested, and nothing else', () => {
    const key = 'personaLab.labels.server';
    expect(namesSetting('{\n  // team\n  "personaLab.labels.server": "postgres://x@h/db",\n}', key)).toBe(true);
    expect(namesSetting('{ "personaLab.labels": { "author": "a", "server": "postgres://h/db" } }', key)).toBe(true);
    expect(namesSetting('{ "personaLab.labels.serverless": 1, "personaLab.labels.author": "a" }', key)).toBe(false);
    expect(namesSetting('{ "note": "personaLab.labels.server" }', key)).toBe(false);
  });
});
