// The command tables' ids (test/support/commandIds.ts, the keys of the tables the extension registers) against
// package.json: every registered command is contributed, every contributed one is registered, and every menu,
// keybinding, welcome link and walkthrough button or completion event names one of them (or a built-in workbench
// command).
import { COMPARE_VIEW_TYPE, DASHBOARD_VIEW_TYPE } from '../../src/shared/spb/dashboardProtocol';
import { OMNI_DASHBOARD_VIEW_TYPE } from '../../src/shared/omni/dashboardProtocol';
import { OMNI_COMPARE_VIEW_TYPE } from '../../src/shared/omni/compareProtocol';
import { STEP_VIEW_TYPE } from '../../src/shared/spb/stepViewProtocol';
import { TRACE_VIEW_TYPE } from '../../src/shared/omni/traceProtocol';
import { QUESTION_VIEW_TYPE } from '../../src/shared/personamem/questionProtocol';
import { PM_DASHBOARD_VIEW_TYPE } from '../../src/shared/personamem/dashboardProtocol';
import { PM_COMPARE_VIEW_TYPE } from '../../src/shared/personamem/compareProtocol';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TABLE_COMMAND_IDS } from '../support/commandIds';
import { LABELLED_CONTEXT, WALKTHROUGH } from '../../src/extension/walkthrough/ids';
import { AGREEMENT_VIEW_TYPE } from '../../src/shared/agreementProtocol';
import { EXPERIMENT_TABLE_VIEW_TYPE } from '../../src/shared/spb/experimentTableProtocol';

interface WalkthroughStep {
  id: string;
  description: string;
  media: { markdown?: string };
  completionEvents?: string[];
}

interface Manifest {
  name: string;
  publisher: string;
  activationEvents: string[];
  contributes: {
    commands: { command: string }[];
    menus: Record<string, { command?: string }[]>;
    keybindings?: { command: string }[];
    viewsWelcome?: { contents: string }[];
    walkthroughs?: { id: string; steps: WalkthroughStep[] }[];
  };
}

const manifest = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as Manifest;
const table = new Set<string>(TABLE_COMMAND_IDS);
const contributed = manifest.contributes.commands.map((c) => c.command);
const ours = (id: string) => id.startsWith('personaLab.');
const root = join(__dirname, '../..');
const walkthroughs = manifest.contributes.walkthroughs ?? [];
const steps = walkthroughs.flatMap((w) => w.steps);
const commandLinks = (text: string) => [...text.matchAll(/command:([\w.]+)/g)].map((m) => m[1]);

describe('command table and package.json', () => {
  it('lists each command once', () => {
    expect(table.size).toBe(TABLE_COMMAND_IDS.length);
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

  it('has walkthrough buttons, media links and completion events name registered commands only', () => {
    const media = steps.flatMap((st) => (st.media.markdown ? [st.media.markdown] : []));
    expect(media.filter((f) => !existsSync(join(root, f)))).toEqual([]);
    const links = [
      ...steps.flatMap((st) => commandLinks(st.description)),
      ...media.flatMap((f) => commandLinks(readFileSync(join(root, f), 'utf8'))),
    ];
    const events = steps.flatMap((st) => st.completionEvents ?? []);
    const onCommand = events.flatMap((e) => (e.startsWith('onCommand:') ? [e.slice('onCommand:'.length)] : []));
    expect(links.length).toBeGreaterThan(0);
    expect([...links, ...onCommand].filter(ours).filter((id) => !table.has(id))).toEqual([]);
    // Built-in commands, by name: a typo would leave a button that does nothing.
    expect([...new Set([...links, ...onCommand].filter((id) => !ours(id)))].sort()).toEqual([
      'workbench.action.openSettings',
      'workbench.actions.view.problems',
      'workbench.view.extension.personaLab',
    ]);
  });

  it('gives every walkthrough step a button and a completion event that a button or the extension fires', () => {
    expect(steps.length).toBeGreaterThan(0);
    for (const st of steps) {
      const links = commandLinks(st.description);
      expect(links.length, st.id).toBeGreaterThan(0);
      for (const e of st.completionEvents ?? []) {
        const fired =
          e === 'onView:personaLab.benchmarks' ||
          e === `onContext:${LABELLED_CONTEXT}` ||
          (e.startsWith('onCommand:') && links.includes(e.slice('onCommand:'.length)));
        expect(fired, `${st.id}: ${e}`).toBe(true);
      }
      expect(st.completionEvents?.length, st.id).toBeGreaterThan(0);
    }
  });

  it('opens its own walkthrough: publisher.name#id', () => {
    expect(walkthroughs.map((w) => `${manifest.publisher}.${manifest.name}#${w.id}`)).toEqual([WALKTHROUGH]);
  });

  const panels = {
    STEP_VIEW_TYPE,
    TRACE_VIEW_TYPE,
    QUESTION_VIEW_TYPE,
    PM_DASHBOARD_VIEW_TYPE,
    PM_COMPARE_VIEW_TYPE,
    DASHBOARD_VIEW_TYPE,
    OMNI_DASHBOARD_VIEW_TYPE,
    OMNI_COMPARE_VIEW_TYPE,
    COMPARE_VIEW_TYPE,
    AGREEMENT_VIEW_TYPE,
    EXPERIMENT_TABLE_VIEW_TYPE,
  };

  it('activates on its views, its commands, workspaceContains and the restore of its own webviews only', () => {
    const other = manifest.activationEvents.filter((e) => !/^(onView:personaLab\.|workspaceContains:)/.test(e));
    expect(other.sort()).toEqual(
      Object.values(panels)
        .map((t) => `onWebviewPanel:${t}`)
        .sort(),
    );
  });

  it('registers a serializer for every webview it activates on, so that each comes back after a reload', () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
      );
    const text = sources(join(root, 'src', 'extension'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    for (const name of Object.keys(panels))
      expect(text, name).toMatch(new RegExp(`(registerWebviewPanelSerializer|restoreReusedPanel)\\(\\s*${name}\\b`));
  });
});
