// The command table's ids (src/extension/commands/ids.ts, the keys of the table the extension registers) against
// package.json: every registered command is contributed, every contributed one is registered, and every menu,
// keybinding and welcome link names one of them (or a built-in workbench command).
import { COMPARE_VIEW_TYPE, DASHBOARD_VIEW_TYPE } from '../../src/shared/dashboardProtocol';
import { OMNI_DASHBOARD_VIEW_TYPE } from '../../src/shared/omniDashboardProtocol';
import { STEP_VIEW_TYPE } from '../../src/shared/stepViewProtocol';
import { TRACE_VIEW_TYPE } from '../../src/shared/traceProtocol';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_IDS } from '../../src/extension/commands/ids';

interface Manifest {
  activationEvents: string[];
  contributes: {
    commands: { command: string }[];
    menus: Record<string, { command?: string }[]>;
    keybindings?: { command: string }[];
    viewsWelcome?: { contents: string }[];
  };
}

const manifest = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as Manifest;
const table = new Set<string>(COMMAND_IDS);
const contributed = manifest.contributes.commands.map((c) => c.command);
const ours = (id: string) => id.startsWith('personaLab.');

describe('command table and package.json', () => {
  it('lists each command once', () => {
    expect(table.size).toBe(COMMAND_IDS.length);
    expect(new Set(contributed).size).toBe(contributed.length);
  });

  it('registers every contributed command, and contributes every registered one', () => {
    expect([...table].sort()).toEqual([...contributed].sort());
  });

  it('has menus, keybindings and welcome links name registered commands only', () => {
    const refs = [
      ...Object.values(manifest.contributes.menus).flatMap((items) =>
        items.flatMap((m) => (m.command ? [m.command] : [])),
      ),
      ...(manifest.contributes.keybindings ?? []).map((k) => k.command),
      ...(manifest.contributes.viewsWelcome ?? []).flatMap((w) =>
        [...w.contents.matchAll(/command:([\w.]+)/g)].map((m) => m[1]),
      ),
    ];
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter(ours).filter((id) => !table.has(id))).toEqual([]);
  });

  it('activates on its views, its commands, workspaceContains and the restore of its own webviews only', () => {
    const panels = [STEP_VIEW_TYPE, TRACE_VIEW_TYPE, DASHBOARD_VIEW_TYPE, OMNI_DASHBOARD_VIEW_TYPE, COMPARE_VIEW_TYPE];
    const other = manifest.activationEvents.filter((e) => !/^(onView:personaLab\.|workspaceContains:)/.test(e));
    expect(other.sort()).toEqual(panels.map((t) => `onWebviewPanel:${t}`).sort());
  });
});
