// Step view feature: the handlers of personaLab.openStep (StepRef, a tree node holding one, or a quick pick) and of
// the four navigation commands. Keybindings (package.json) apply while a step view is the active editor. An argument that
// names a run (`{ ...StepRef, run }`) opens that run's pinned panel, in the options' `viewColumn` if given.
import * as vscode from 'vscode';
import { isRecord } from '../../../../core/guards';
import { isPiHighlight } from '../../../../core/pi/spans';
import { isPlatform } from '../../../../core/spb/types';
import type { NavDirection } from '../../../../shared/spb/stepViewProtocol';
import type { SpbStore, StepRef } from '../store';
import type { StepPanel } from './panel';
import { pickStep } from './pick';
import { registerStepViewSerializer } from './restore';
import { StepViews } from './views';

export type { StepPanel, StepViewAddon } from './panel';
export type { StepViews } from './views';

/** A StepRef, or an object (tree node) that has its fields or holds one under `ref` / `step`. */
export function toStepRef(arg: unknown): StepRef | undefined {
  if (!isRecord(arg)) return undefined;
  const stepId = typeof arg.stepId === 'string' && /^\d+$/.test(arg.stepId) ? Number(arg.stepId) : arg.stepId;
  if (
    isPlatform(arg.platform) &&
    typeof arg.userId === 'string' &&
    typeof stepId === 'number' &&
    Number.isInteger(stepId)
  ) {
    return { platform: arg.platform, userId: arg.userId, stepId };
  }
  return toStepRef(arg.ref) ?? toStepRef(arg.step);
}

/**
 * The step a command acts on: its argument (a StepRef or tree node), else the step view's step, else asked for.
 * For commands that need an open benchmark (the command table checks it).
 */
export async function stepForCommand(store: SpbStore, stepView: StepPanel, arg: unknown): Promise<StepRef | undefined> {
  if (!store.bench) return undefined;
  const ref = toStepRef(arg) ?? stepView.currentRef ?? (await pickStep(store));
  if (ref && !store.step(ref)) {
    void vscode.window.showWarningMessage(
      `Persona Lab: step ${ref.stepId} of ${ref.userId} is not in the loaded benchmark.`,
    );
    return undefined;
  }
  return ref;
}

function field(arg: unknown, name: string): unknown {
  return isRecord(arg) ? arg[name] : undefined;
}

/** A view column from the options: ViewColumn.Beside/Active (negative) or a group number 1-9. */
function viewColumnOf(options: unknown): vscode.ViewColumn | undefined {
  const c = field(options, 'viewColumn');
  return typeof c === 'number' && Number.isInteger(c) && c >= -2 && c <= 9 && c !== 0
    ? (c as vscode.ViewColumn)
    : undefined;
}

const made = new WeakMap<SpbStore, StepViews>();

/** The step views of `store` (the generic features' parts add their bars to them); undefined before they are made. */
export function stepViewsOf(store: SpbStore): StepViews | undefined {
  return made.get(store);
}

/** Returns the panels, for features that add to the step view (labels, re-runs, templates; features.ts wires them). */
export function activateStepView(context: vscode.ExtensionContext, store: SpbStore): StepViews {
  const views = new StepViews(context.extensionUri, store);
  made.set(store, views);
  context.subscriptions.push(views, registerStepViewSerializer(views, store));
  return views;
}

/**
 * Opens a step (needs an open benchmark); `{ ...StepRef, run }` opens that run's pinned panel, and
 * `{ ...StepRef, highlight }` outlines a PI Audit finding on it (PiHighlight) and scrolls to it.
 */
export async function openStep(views: StepViews, store: SpbStore, arg: unknown, options: unknown): Promise<void> {
  if (!store.bench) return;
  let ref = toStepRef(arg);
  if (ref && !store.step(ref)) {
    void vscode.window.showWarningMessage(
      `Persona Lab: step ${ref.stepId} of ${ref.userId} is not in the loaded benchmark.`,
    );
    return;
  }
  const run = field(arg, 'run');
  if (typeof run === 'string' && !store.bench.runs.has(run)) {
    void vscode.window.showWarningMessage(`Persona Lab: run ${run} is not in the loaded benchmark.`);
    return;
  }
  ref ??= await pickStep(store);
  if (!ref) return;
  const panel = typeof run === 'string' ? views.forRun(run) : views.main;
  const highlight = field(arg, 'highlight');
  panel.show(
    ref,
    field(options, 'preserveFocus') === true,
    viewColumnOf(options),
    isPiHighlight(highlight) ? highlight : undefined,
  );
  // A caller opening several runs' views awaits each: two webviews loading at once can lose one (webviewPanel.ts).
  if (typeof run === 'string') await panel.whenReady(5_000);
}

export function navigate(views: StepViews, direction: NavDirection): void {
  const panel = views.active();
  if (!panel.currentRef) {
    void vscode.window.showInformationMessage('Persona Lab: open a step first (Persona Lab: Open Step).');
    return;
  }
  panel.navigate(direction);
}
