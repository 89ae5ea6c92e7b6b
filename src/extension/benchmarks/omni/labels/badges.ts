// The trace labels' badges on the OmniBehavior test actions in the Benchmarks tree: this author's labels in the
// selected run.
import { TraceLabelIndex } from '../../../../core/omni/labels/trace';
import type { OmniTreeAugment } from '../roots';
import type { LabelService } from '../../../labels/service';
import type { OmniLabelTargets } from './targets';

export function traceTreeBadges(labels: LabelService, targets: OmniLabelTargets): OmniTreeAugment {
  return {
    onDidChange: labels.onDidChange,
    badges(root, run) {
      try {
        const rows = targets.mine(run ?? '', root);
        return rows.length ? { index: new TraceLabelIndex(rows), names: labels.names() } : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
