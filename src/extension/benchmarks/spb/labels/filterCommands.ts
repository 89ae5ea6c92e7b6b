// The handlers of Filter Steps… (a multi-select quick pick: the unlabelled mode, labels, failure signatures, runs), Clear
// Step Filter, and Next Unlabelled Step; the tree's message says when a filter is active and how many steps it lets
// through.
import * as vscode from 'vscode';
import {
  FAILURE_SIGNATURES,
  SIGNATURE_TEXT,
  normalizeFilter,
  type FailureSignature,
  type StepFilter,
} from '../../../../core/spb/labels/filter';
import type { StepPanel } from '../stepView/panel';
import { toStepRef } from '../stepView';
import type { SpbStore, StepRef } from '../store';
import type { TreeApi } from '../../../tree/api';
import { StepNode } from '../nodes';
import type { LabelService } from '../../../labels/service';
import type { SpbLabelTargets } from './targets';
import type { LabelTreeAugment } from './treeLabels';

/** A checkable row of the filter pick; `id` is a label id, a signature or a run name (none for "unlabelled"). */
type Pick = vscode.QuickPickItem &
  (
    | { group: 'label' | 'run'; id: string }
    | { group: 'signature'; id: FailureSignature }
    | { group: 'unlabelled'; id?: undefined }
  );

function separator(label: string): vscode.QuickPickItem {
  return { label, kind: vscode.QuickPickItemKind.Separator };
}

export async function pickFilter(
  bench: SpbStore,
  labels: LabelService,
  steps: SpbLabelTargets,
  current: StepFilter,
): Promise<StepFilter | undefined> {
  const counts = steps.index();
  const perLabel = new Map<string, number>();
  const b = bench.bench;
  if (b) {
    for (const users of b.users.values()) {
      for (const u of users.values())
        for (const s of u.steps)
          for (const id of counts.labelsOf(u.platform, u.userId, s.stepId))
            perLabel.set(id, (perLabel.get(id) ?? 0) + 1);
    }
  }
  const items: (Pick | vscode.QuickPickItem)[] = [
    // The mode is a section of its own: inside the label list it read as one more label to pick.
    separator('Mode'),
    {
      label: '$(circle-large-outline) Unlabelled only',
      description: 'steps you have not labelled yet (or with a label checked below)',
      group: 'unlabelled',
    },
    separator('Labels (yours, in the run)'),
    ...labels.labels.map((l): Pick => ({
      label: `$(tag) ${l.name}`,
      description: `${l.key ? `key ${l.key} · ` : ''}${perLabel.get(l.id) ?? 0} step(s)`,
      detail: l.description,
      group: 'label',
      id: l.id,
    })),
    separator('Failure signature (the run’s result)'),
    ...FAILURE_SIGNATURES.map((id): Pick => ({
      label: `$(warning) ${SIGNATURE_TEXT[id].label}`,
      description: SIGNATURE_TEXT[id].detail,
      group: 'signature',
      id,
    })),
    separator('Run (default: the selected run)'),
    ...[...(b?.runs.keys() ?? [])].map((name): Pick => ({
      label: `$(beaker) ${name}`,
      description: name === bench.runName ? 'selected' : undefined,
      group: 'run',
      id: name,
    })),
  ];
  const picks = items.filter((i): i is Pick => 'group' in i);
  const isOn = (p: Pick): boolean =>
    p.group === 'unlabelled'
      ? current.unlabelled
      : p.group === 'label'
        ? current.labels.includes(p.id)
        : p.group === 'signature'
          ? current.signatures.includes(p.id)
          : current.runs.includes(p.id);

  const qp = vscode.window.createQuickPick<Pick | vscode.QuickPickItem>();
  qp.title = 'Persona Lab: Filter Steps';
  qp.placeholder =
    'Check what a step must match (OR inside a group, AND across groups); nothing checked clears the filter';
  qp.canSelectMany = true;
  qp.matchOnDescription = true;
  qp.items = items;
  qp.selectedItems = picks.filter(isOn);
  const clear: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('clear-all'), tooltip: 'Clear the filter' };
  qp.buttons = [clear];
  return new Promise<StepFilter | undefined>((resolve) => {
    let done = false;
    const finish = (f: StepFilter | undefined) => {
      if (done) return;
      done = true;
      resolve(f);
      qp.hide();
    };
    qp.onDidTriggerButton(() => finish(normalizeFilter({})));
    qp.onDidAccept(() => {
      const sel = qp.selectedItems.filter((i): i is Pick => 'group' in i);
      finish(
        normalizeFilter({
          unlabelled: sel.some((p) => p.group === 'unlabelled'),
          labels: sel.flatMap((p) => (p.group === 'label' ? [p.id] : [])),
          signatures: sel.flatMap((p) => (p.group === 'signature' ? [p.id] : [])),
          runs: sel.flatMap((p) => (p.group === 'run' ? [p.id] : [])),
        }),
      );
    });
    qp.onDidHide(() => {
      finish(undefined);
      qp.dispose();
    });
    qp.show();
  });
}

/** What the filter commands act on. */
export interface FilterDeps {
  bench: SpbStore;
  labels: LabelService;
  steps: SpbLabelTargets;
  augment: LabelTreeAugment;
  panel: StepPanel;
  tree: TreeApi;
}

/** Keeps the tree's message saying when a filter is active and how many steps it lets through. */
export function filterMessage({ bench, augment, tree }: FilterDeps): vscode.Disposable {
  const updateMessage = () => {
    tree.message.set(
      'steps',
      augment.filterActive && bench.bench
        ? `Filter: ${augment.describe()} — ${augment.matchCount().toLocaleString('en-US')} step(s) match. Clear it with the filter button above.`
        : undefined,
    );
  };
  updateMessage();
  // The tree's roots change with the sample filter too: the count is of the steps the tree can show.
  return vscode.Disposable.from(
    augment.onDidChange(updateMessage),
    bench.onDidChange(updateMessage),
    bench.tree.onDidChange(updateMessage),
  );
}

/** Needs an open benchmark. A filter object as argument (tests, keybindings with args) skips the pick. */
export async function filterSteps({ bench, labels, steps, augment }: FilterDeps, arg: unknown): Promise<void> {
  if (!bench.bench) return;
  const given =
    typeof arg === 'object' && arg !== null && ['labels', 'unlabelled', 'signatures', 'runs'].some((k) => k in arg);
  const filter = given ? normalizeFilter(arg) : await pickFilter(bench, labels, steps, augment.filter);
  if (filter) await augment.setFilter(filter);
}

export async function clearStepFilter({ augment }: FilterDeps): Promise<void> {
  await augment.setFilter(normalizeFilter({}));
}

/** Needs an open benchmark. */
export async function nextUnlabelled({ bench, steps, augment, panel, tree }: FilterDeps, arg: unknown): Promise<void> {
  if (!bench.bench) return;
  const selected = tree.view.selection[0];
  const from: StepRef | undefined =
    toStepRef(arg) ?? panel.currentRef ?? (selected instanceof StepNode ? selected.ref : undefined);
  const target = augment.nextUnlabelled(from);
  if (!target) {
    void vscode.window.showInformationMessage(
      `Persona Lab: no unlabelled step${augment.filterActive ? ' matches the filter' : ' left'} in run ${steps.run || '(none)'}.`,
    );
    return;
  }
  panel.show(target, toStepRef(arg) !== undefined);
  if (tree.view.visible) {
    const node = bench.tree.find(target.userId, target.stepId);
    if (node) await tree.view.reveal(node, { select: true, focus: false }).then(undefined, () => undefined);
  }
}
