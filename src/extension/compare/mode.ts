// Compare mode (personaLab.compareMode.on / .off; context key personaLab.compareMode): the Benchmarks tree badges
// the items where run B is worse than run A, for every format whose compare part offers `badges`, and the status bar
// counts them. It follows the part's compared pair (a new pair from Compare Runs, a reload) while it is on.
import * as vscode from 'vscode';
import type { Benchmarks } from '../benchmarks';
import { log } from '../log';
import { CompareBadgeDecorations } from './badges';
import type { ComparePart, RunPair } from './part';
import { pickRunPair, type Comparable } from './pick';

const MODE_CONTEXT = 'personaLab.compareMode';
/** Whether an open benchmark's compare part badges tree rows (package.json shows the mode's buttons on it). */
const OFFERED_CONTEXT = 'personaLab.compareBadges';

interface Badging {
  id: string;
  label: string;
  part: ComparePart;
}

export interface CompareMode {
  setMode(on: boolean): Promise<void>;
}

export function activateCompareMode(
  context: vscode.ExtensionContext,
  benchmarks: Benchmarks,
  parts: ReadonlyMap<string, ComparePart>,
): CompareMode {
  const decorations = new CompareBadgeDecorations();
  const status = vscode.window.createStatusBarItem('personaLab.compareMode', vscode.StatusBarAlignment.Left, 50);
  status.name = 'Persona Lab compare mode';
  status.command = 'personaLab.compareRuns';
  let active: Badging | undefined;

  const open = (): Badging[] =>
    benchmarks.all.flatMap((b) => {
      const part = parts.get(b.format.id);
      return b.bench && part?.badges ? [{ id: b.format.id, label: b.format.label, part }] : [];
    });

  const show = async (on: Badging | undefined, pairGiven?: RunPair) => {
    const badges = on ? await on.part.badges?.(pairGiven) : undefined;
    if (active !== on) return;
    decorations.set(on?.id ?? '', badges);
    if (!on || !badges) {
      status.hide();
      return;
    }
    const { a, b } = badges.pair;
    status.text = `$(git-compare) ${a} vs ${b}: ${badges.items.size} regressed`;
    status.tooltip = `${badges.explain} Click to compare other runs.`;
    status.show();
    log.info(`compare mode: ${badges.items.size} regressed ${badges.unit}(s) of ${a} vs ${b}`);
  };

  const off = async () => {
    active = undefined;
    await vscode.commands.executeCommand('setContext', MODE_CONTEXT, false);
    await show(undefined);
  };
  const publish = () => {
    const offering = open();
    void vscode.commands.executeCommand('setContext', OFFERED_CONTEXT, offering.length > 0);
    // The benchmark compare mode badges has closed (or no longer loads): the mode ends with it, its buttons too.
    if (active && !offering.some((o) => o.id === active?.id)) {
      log.info(`compare mode: off, ${active.label} is no longer open`);
      void off();
    }
  };
  for (const b of benchmarks.all) context.subscriptions.push(b.onDidChange(publish));
  for (const [id, part] of parts)
    if (part.onDidChangeBadges)
      context.subscriptions.push(part.onDidChangeBadges(() => void (active?.id === id ? show(active) : undefined)));
  context.subscriptions.push(decorations, status, vscode.window.registerFileDecorationProvider(decorations));
  void vscode.commands.executeCommand('setContext', MODE_CONTEXT, false);
  publish();

  return {
    setMode: async (on) => {
      if (!on) return off();
      const offering = open();
      if (offering.length === 0) {
        void vscode.window.showInformationMessage('Persona Lab: no open benchmark badges its rows in compare mode.');
        return;
      }
      // The benchmark compared last, if one is; else a pair is picked, as Compare Runs picks one.
      let chosen: Badging | undefined;
      for (const o of offering) if (!chosen && (await o.part.badges?.())) chosen = o;
      let pair: RunPair | undefined;
      if (!chosen) {
        const picked = await pickRunPair(offering.map((o): Comparable => ({ label: o.label, part: o.part })));
        if (!picked) return;
        chosen = offering.find((o) => o.part === picked.owner.part);
        pair = picked.pair;
      }
      active = chosen;
      await vscode.commands.executeCommand('setContext', MODE_CONTEXT, true);
      await show(chosen, pair);
    },
  };
}
