// The OmniBehavior part of the PI audit: test actions, raw user files and every run's predictions are audited; below
// each category comes one "OmniBehavior" row, then users, then findings (nodes.ts). The trace view lists the
// findings in the trace it shows (trace.ts).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { auditOmni, type OmniAuditResult } from '../../../../core/omni/piAudit';
import type { OmniBenchmark } from '../../../../core/omni/types';
import type { OmniStore } from '../store';
import type { TracePanel } from '../traceView/panel';
import { Attached, type AuditPart } from '../../../audit/part';
import { groupOmni } from './model';
import { omniFindings, omniSourceNode } from './nodes';
import { TraceFindings } from './trace';

/** Bytes of an OmniBehavior folder's files: test actions, raw user files and every run's predictions. */
export function omniBenchmarkBytes(bench: OmniBenchmark): number {
  const size = (p: string) => {
    try {
      return statSync(p).size;
    } catch {
      return 0; // gone since the load
    }
  };
  const inDir = (dir: string, ext: string) => {
    try {
      return readdirSync(dir)
        .filter((n) => n.endsWith(ext))
        .reduce((n, name) => n + size(join(dir, name)), 0);
    } catch {
      return 0;
    }
  };
  return (
    size(join(bench.root, 'test_actions.jsonl')) +
    inDir(join(bench.root, 'raw'), '.json') +
    [...bench.runs.keys()].reduce((n, run) => n + size(join(bench.root, 'results', run, 'predictions.jsonl')), 0)
  );
}

/** `trace`: the trace view, which lists the audit's findings in the trace it shows and outlines them. */
export function omniAuditPart(store: OmniStore, trace: TracePanel | undefined): AuditPart<OmniAuditResult> {
  const findings = new Attached<TraceFindings>();
  return {
    loaded: () => store.bench,
    bytes: () => (store.bench ? omniBenchmarkBytes(store.bench) : 0),
    run(opts) {
      const bench = store.bench;
      if (!bench) throw new Error('no OmniBehavior benchmark is loaded');
      return auditOmni(bench, opts);
    },
    category(result, category) {
      const group = groupOmni(result, category);
      if (!group) return undefined;
      const format = omniFindings(result.root, () => findings.current);
      return {
        findings: group.findings,
        placeholders: group.placeholders,
        hasRows: true,
        rows: (parent) => [omniSourceNode(parent, group, format)],
      };
    },
    attach: (results) => findings.attach(trace && new TraceFindings(results, trace)),
  };
}
