// The PersonaMem part of the PI audit: every message of the shared contexts, the questions and their options, and
// every run's responses (core/personamem/audit.ts); below each category a "PersonaMem" row, then splits, contexts
// and findings (nodes.ts). The question view lists the findings in the question it shows (question.ts).
import { auditPersonaMem, type PmAuditResult } from '../../../../core/personamem/audit';
import { sizeOf } from '../../../../core/pi/tally';
import type { PersonaMemBench } from '../../../../core/personamem/types';
import { Attached, type AuditPart } from '../../../audit/part';
import { questionPanelOf } from '../questionView';
import type { PersonaMemStore } from '../store';
import { groupPersonaMem } from './model';
import { personaMemFindings, personaMemSourceNode } from './nodes';
import { QuestionFindings } from './question';

/** Bytes a PersonaMem audit reads: the contexts, the questions files and the runs' results. */
export function personaMemBytes(bench: PersonaMemBench): number {
  let n = 0;
  for (const s of bench.splits.values()) {
    n += sizeOf(s.questionsFile);
    if (s.contextsFile) n += sizeOf(s.contextsFile);
  }
  for (const r of bench.runs.values()) n += sizeOf(r.file);
  return n;
}

export function personaMemAuditPart(store: PersonaMemStore): AuditPart<PmAuditResult> {
  const shown = new Attached<QuestionFindings>();
  return {
    loaded: () => store.bench,
    bytes: () => (store.bench ? personaMemBytes(store.bench) : 0),
    run(opts) {
      const bench = store.bench;
      if (!bench) throw new Error('no PersonaMem folder is loaded');
      return auditPersonaMem(bench, opts);
    },
    category(result, category) {
      const group = groupPersonaMem(result, category);
      if (!group) return undefined;
      const format = personaMemFindings(result.root, (f) => shown.current?.open(f) ?? false);
      return {
        findings: group.findings,
        placeholders: group.placeholders,
        hasRows: true,
        rows: (parent) => [personaMemSourceNode(parent, group, format)],
      };
    },
    attach(results) {
      // The question view is made with the benchmarks, before the audit is activated.
      const panel = questionPanelOf(store);
      return shown.attach(panel && new QuestionFindings(results, store, panel));
    },
  };
}
