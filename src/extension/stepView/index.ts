// Step view feature: personaLab.openStep (StepRef, a tree node holding one, or a quick pick) and the four
// navigation commands. Keybindings (package.json) apply while the step view is the active editor.
import * as vscode from 'vscode';
import { isPlatform } from '../../core/types';
import type { NavDirection } from '../../shared/stepViewProtocol';
import type { BenchmarkStore, StepRef } from '../store';
import { StepPanel } from './panel';

export type { StepPanel, StepViewAddon } from './panel';
import { pickStep } from './pick';

/** A StepRef, or an object (tree node) that has its fields or holds one under `ref` / `step`. */
export function toStepRef(arg: unknown): StepRef | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const o = arg as Record<string, unknown>;
  const stepId = typeof o.stepId === 'string' && /^\d+$/.test(o.stepId) ? Number(o.stepId) : o.stepId;
  if (isPlatform(o.platform) && typeof o.userId === 'string' && typeof stepId === 'number' && Number.isInteger(stepId)) {
    return { platform: o.platform, userId: o.userId, stepId };
  }
  return toStepRef(o.ref) ?? toStepRef(o.step);
}

/** The step a command acts on: its argument (a StepRef or tree node), else the step view's step, else asked for. */
export async function stepForCommand(store: BenchmarkStore, stepView: StepPanel, arg: unknown): Promise<StepRef | undefined> {
  await store.ready();
  if (!store.bench) {
    void vscode.window.showWarningMessage('Persona Lab: no benchmark is open. Open a benchmark folder first.');
    return undefined;
  }
  const ref = toStepRef(arg) ?? stepView.currentRef ?? (await pickStep(store));
  if (ref && !store.step(ref)) {
    void vscode.window.showWarningMessage(`Persona Lab: step ${ref.stepId} of ${ref.userId} is not in the loaded benchmark.`);
    return undefined;
  }
  return ref;
}

function preserveFocusOf(arg: unknown): boolean {
  return typeof arg === 'object' && arg !== null && (arg as Record<string, unknown>).preserveFocus === true;
}

/** Returns the panel, for features that add to the step view (labels, re-runs, templates; main.ts wires them). */
export function activateStepView(context: vscode.ExtensionContext, store: BenchmarkStore): StepPanel {
  const panel = new StepPanel(context.extensionUri, store);
  context.subscriptions.push(panel);

  const open = async (arg?: unknown, options?: unknown): Promise<void> => {
    await store.ready();
    if (!store.bench) {
      void vscode.window.showWarningMessage('Persona Lab: no benchmark is open. Open a benchmark folder first.');
      return;
    }
    let ref = toStepRef(arg);
    if (ref && !store.step(ref)) {
      void vscode.window.showWarningMessage(`Persona Lab: step ${ref.stepId} of ${ref.userId} is not in the loaded benchmark.`);
      return;
    }
    ref ??= await pickStep(store);
    if (ref) panel.show(ref, preserveFocusOf(options));
  };

  const nav = (direction: NavDirection) => (): void => {
    if (!panel.currentRef) {
      void vscode.window.showInformationMessage('Persona Lab: open a step first (Persona Lab: Open Step).');
      return;
    }
    panel.navigate(direction);
  };

  context.subscriptions.push(
    vscode.commands.registerCommand('personaLab.openStep', open),
    vscode.commands.registerCommand('personaLab.nextStep', nav('nextStep')),
    vscode.commands.registerCommand('personaLab.previousStep', nav('previousStep')),
    vscode.commands.registerCommand('personaLab.nextUser', nav('nextUser')),
    vscode.commands.registerCommand('personaLab.previousUser', nav('previousUser')),
  );
  return panel;
}
