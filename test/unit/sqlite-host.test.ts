// The check that runs before better-sqlite3 is ever required: which hosts can load a Node-API 10 addon, and the
// plain words a person gets on one that cannot.
import { describe, expect, it } from 'vitest';
import { storageUnavailableReason } from '../../src/core/storage/sqlite';

const versions = (v: Record<string, string>) =>
  ({ ...process.versions, napi: '', electron: undefined, ...v }) as NodeJS.ProcessVersions;

describe('storageUnavailableReason', () => {
  it('lets Node-API 10 and later through', () => {
    expect(storageUnavailableReason(versions({ node: '22.14.0', napi: '10' }))).toBeUndefined();
    expect(storageUnavailableReason(versions({ node: '24.21.0', napi: '10' }))).toBeUndefined();
    expect(storageUnavailableReason(versions({ node: '26.0.0', napi: '11' }))).toBeUndefined();
  });

  it('names what is needed and what this CLI host runs', () => {
    const why = storageUnavailableReason(versions({ node: '20.20.2', napi: '9' }));
    expect(why).toContain('needs Node-API 10: VS Code 1.101 or newer, or Node.js 22.14 or newer for the CLI');
    expect(why).toContain('This host runs Node.js 20.20.2 (Node-API 9).');
  });

  it('names the Electron of a VS Code before 1.101', () => {
    const why = storageUnavailableReason(versions({ node: '20.18.1', napi: '9', electron: '34.3.2' }));
    expect(why).toContain('This VS Code runs Electron 34.3.2 (Node.js 20.18.1, Node-API 9).');
  });

  it('treats a host that reports no Node-API version as too old', () => {
    expect(storageUnavailableReason(versions({ node: '18.0.0', napi: '' }))).toContain('Node-API unknown');
  });
});
