// OmniBehavior's part of the labels: labels on test actions and history records (targets.ts), the trace view's labels
// bar (controller.ts), badges in the Benchmarks tree (badges.ts), and labelling projects over test actions.
import * as vscode from 'vscode';
import { TRACE_PLATFORM } from '../../../../core/omni/labels/labelSet';
import type { OmniStore } from '../store';
import type { LabelHost, LabelPart } from '../../../labels/part';
import { tracePanelOf } from '../traceView';
import { traceTreeBadges } from './badges';
import { TraceLabelController } from './controller';
import { omniProjectSource } from './project';
import { OmniLabelTargets } from './targets';

export function omniLabelPart(omni: OmniStore, { labels }: LabelHost): LabelPart {
  const trace = tracePanelOf(omni);
  if (!trace) throw new Error('OmniBehavior labels need the trace view');
  const traces = new OmniLabelTargets(omni, labels);
  const controller = new TraceLabelController(trace, traces, labels);
  omni.tree.setAugment(traceTreeBadges(labels, traces));
  return {
    project: omniProjectSource(labels, omni, trace),
    // a test action of any benchmark opens in the trace view, which says when its benchmark is not open
    unitOpener: (ref) =>
      ref.platform === TRACE_PLATFORM
        ? async () => {
            await vscode.commands.executeCommand('personaLab.openTrace', { userId: ref.userId, index: ref.stepId });
          }
        : undefined,
    dispose: () => controller.dispose(),
  };
}
