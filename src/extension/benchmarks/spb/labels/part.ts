// StreamProfileBench's part of the labels: labels on steps (targets.ts), the step view's labels bar in the main view
// and in each pinned one (controller.ts), the Benchmarks tree's badges, counts and step filter (treeLabels.ts,
// filterCommands.ts), and labelling projects over steps (project.ts).
import { streamProfileBench } from '../../../../core/formats';
import type { SpbStore } from '../store';
import type { LabelHost, LabelPart } from '../../../labels/part';
import { stepViewsOf } from '../stepView';
import { LabelStepController } from './controller';
import { filterMessage, type FilterDeps } from './filterCommands';
import { spbProjectSource } from './project';
import { SpbLabelTargets } from './targets';
import { LabelTreeAugment } from './treeLabels';

export interface SpbLabelPart extends LabelPart {
  /** The steps' labels (the index the tree's badges, the filter and the walkthrough read). */
  readonly steps: SpbLabelTargets;
  /** What Filter Steps…, Clear Step Filter and Next Unlabelled Step work on. */
  readonly filter: FilterDeps;
}

export function spbLabelPart(spb: SpbStore, { labels, tree, state }: LabelHost): SpbLabelPart {
  const stepViews = stepViewsOf(spb);
  if (!stepViews) throw new Error('StreamProfileBench labels need the step view');
  const steps = new SpbLabelTargets(spb, labels);
  const augment = new LabelTreeAugment(steps, labels, state);
  const controller = new LabelStepController(stepViews.main, steps, labels, augment);
  const disposables = [
    augment,
    controller,
    // A pinned panel labels the run it shows; its controller goes with it.
    stepViews.onDidCreatePinned((panel) => {
      const pinned = new LabelStepController(panel, steps, labels, augment);
      const sub = panel.onDidChangeOpen((open) => {
        if (open) return;
        pinned.dispose();
        sub.dispose();
      });
    }),
  ];
  spb.tree.setAugment(augment);
  const filter: FilterDeps = { bench: spb, labels, steps, augment, panel: stepViews.main, tree };
  disposables.push(filterMessage(filter));
  return {
    steps,
    filter,
    project: spbProjectSource(labels, spb, stepViews, augment),
    dispose: () => disposables.forEach((d) => d.dispose()),
  };
}

/** The StreamProfileBench label part of the labels feature (its commands and the walkthrough read it). */
export function spbLabels(api: { partOf(formatId: string): LabelPart | undefined }): SpbLabelPart {
  // The StreamProfileBench contribution's `labels` made it (benchmarks/spb/contribution.ts).
  const part = api.partOf(streamProfileBench.id) as SpbLabelPart | undefined;
  if (!part) throw new Error('the StreamProfileBench labels are not wired');
  return part;
}
