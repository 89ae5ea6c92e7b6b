// Labels feature, for both formats in one place: the label database and set (LabelService), each format's targets
// (spb/targets.ts: steps; omni/targets.ts: test actions and history records), labelling in the step view and the
// trace view, the Benchmarks tree's badges, counts and step filter, and the label commands' handlers.
import type * as vscode from 'vscode';
import type { Benchmarks } from '../benchmarks';
import type { StepViews } from '../stepView/views';
import type { TracePanel } from '../traceView/panel';
import type { TreeApi } from '../tree';
import { labelFileCommands, type LabelFileCommands } from './fileCommands';
import { filterMessage, type FilterDeps } from './filterCommands';
import { traceTreeBadges } from './omni/badges';
import { TraceLabelController } from './omni/controller';
import { OmniLabelTargets } from './omni/targets';
import { LabelProjects } from './projects';
import { omniProjectSource, spbProjectSource } from './projectSources';
import { LabelService } from './service';
import { LabelStepController } from './spb/controller';
import { SpbLabelTargets } from './spb/targets';
import { LabelTreeAugment } from './spb/treeLabels';

export interface LabelsApi {
  service: LabelService;
  /** The StreamProfileBench steps' labels (the index the tree's badges, the filter and the walkthrough read). */
  steps: SpbLabelTargets;
  filter: FilterDeps;
  files: LabelFileCommands;
  projects: LabelProjects;
}

export function activateLabels(
  context: vscode.ExtensionContext,
  benchmarks: Benchmarks,
  views: { steps: StepViews; trace: TracePanel },
  tree: TreeApi,
): LabelsApi {
  const { spb, omni } = benchmarks;
  const labels = new LabelService(spb, context.globalStorageUri.fsPath, context.secrets);
  const steps = new SpbLabelTargets(spb, labels);
  const augment = new LabelTreeAugment(steps, labels, context.workspaceState);
  const controller = new LabelStepController(views.steps.main, steps, labels, augment);
  context.subscriptions.push(
    labels,
    augment,
    controller,
    // A pinned panel labels the run it shows; its controller goes with it.
    views.steps.onDidCreatePinned((panel) => {
      const pinned = new LabelStepController(panel, steps, labels, augment);
      const sub = panel.onDidChangeOpen((open) => {
        if (open) return;
        pinned.dispose();
        sub.dispose();
      });
    }),
  );
  spb.tree.setAugment(augment);
  const traces = new OmniLabelTargets(omni, labels);
  context.subscriptions.push(new TraceLabelController(views.trace, traces, labels));
  omni.tree.setAugment(traceTreeBadges(labels, traces));
  for (const c of benchmarks.contributions) {
    const wired = c.withLabels?.(benchmarks.of(c), labels);
    if (wired) context.subscriptions.push(wired);
  }
  const filter: FilterDeps = { bench: spb, labels, steps, augment, panel: views.steps.main, tree };
  context.subscriptions.push(filterMessage(filter));
  const sources = [spbProjectSource(labels, spb, views.steps, augment), omniProjectSource(labels, omni, views.trace)];
  const projects = new LabelProjects(labels, sources, context.workspaceState, context.secrets, tree.message);
  context.subscriptions.push(
    projects,
    labels.onDidChange(() => void projects.refreshProgress()),
  );
  return { service: labels, steps, filter, files: labelFileCommands(context, labels), projects };
}
