// The labels' badges on the PersonaMem question rows of the Benchmarks tree: this author's labels on each question
// in the run its view shows ("⚑ Evidence ignored, Generic pick").
import { labelDef } from '../../../../core/labels/taxonomy';
import { QUESTION_LABEL_SET, questionUnit, unitKey, unitOfRow } from '../../../../core/personamem/labels';
import type { LabelService } from '../../../labels/service';
import type { PmTreeBadges } from '../roots';
import type { PmLabelTargets } from './targets';

export function questionTreeBadges(labels: LabelService, targets: PmLabelTargets): PmTreeBadges {
  return {
    onDidChange: labels.onDidChange,
    badges(root) {
      const bench = targets.open.bench;
      if (!bench) return undefined;
      let rows;
      try {
        rows = targets.mine(root).filter((r) => r.target.kind === 'step' && r.run === targets.runFor(r.platform));
      } catch {
        return undefined;
      }
      if (rows.length === 0) return undefined;
      const set = labels.labelsOf(QUESTION_LABEL_SET.key);
      const names = new Map<string, string[]>();
      for (const r of rows) {
        const key = unitKey(unitOfRow(r));
        names.set(key, [...(names.get(key) ?? []), labelDef(set, r.label).name]);
      }
      return (q) => {
        const unit = questionUnit(bench, q.split, q.questionId);
        const on = unit && names.get(unitKey(unit));
        return on ? `⚑ ${on.join(', ')}` : undefined;
      };
    },
  };
}
