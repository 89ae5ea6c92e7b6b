// The trace labels' badges on the OmniBehavior test actions in the Benchmarks tree: this author's labels in the
// selected run.
import { TraceLabelIndex, traceBenchmarkId } from '../../../core/labels/trace';
import type { OmniTreeAugment } from '../../benchmarks/omni/roots';
import type { LabelService } from '../service';

export function traceTreeBadges(labels: LabelService): OmniTreeAugment {
  return {
    onDidChange: labels.onDidChange,
    badges(root, run) {
      try {
        const rows =
          labels.store(false)?.list({ benchmark: traceBenchmarkId(root), run: run ?? '', author: labels.author }) ?? [];
        return rows.length ? { index: new TraceLabelIndex(rows), names: labels.names() } : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
