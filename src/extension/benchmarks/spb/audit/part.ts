// The StreamProfileBench part of the PI audit: the tasks files and every run's results files are audited, and
// below each category come its platforms, then users, then findings (nodes.ts).
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { auditBenchmark, type AuditResult } from '../../../../core/spb/pi/audit';
import type { Benchmark } from '../../../../core/spb/types';
import type { SpbStore } from '../store';
import type { AuditPart } from '../../../audit/part';
import { groupAudit, type CategoryGroup } from './model';
import { AuditPlatformNode, spbFindings } from './nodes';

/** Total size of the files an audit reads: the tasks files and every run's results files. */
export function benchmarkBytes(bench: Benchmark): number {
  const rels = [...bench.taskFiles.values(), ...[...bench.runs.values()].flatMap((r) => [...r.files.values()])];
  let total = 0;
  for (const rel of rels) {
    try {
      total += statSync(join(bench.root, rel)).size;
    } catch {
      // a file that vanished counts as empty
    }
  }
  return total;
}

export function spbAuditPart(store: SpbStore): AuditPart<AuditResult> {
  /** The load each result is about (its users open the findings' steps), and its categories, grouped once. */
  const audited = new WeakMap<AuditResult, Benchmark>();
  const grouped = new WeakMap<AuditResult, CategoryGroup[]>();
  return {
    loaded: () => store.bench,
    bytes: () => (store.bench ? benchmarkBytes(store.bench) : 0),
    async run(opts) {
      const bench = store.bench;
      if (!bench) throw new Error('no StreamProfileBench benchmark is loaded');
      const result = await auditBenchmark(bench, opts);
      audited.set(result, bench);
      return result;
    },
    category(result, category) {
      let groups = grouped.get(result);
      if (!groups) grouped.set(result, (groups = groupAudit(result)));
      const group = groups.find((g) => g.category === category);
      if (!group) return undefined;
      const source = { result, bench: audited.get(result), store };
      return {
        findings: group.findings,
        placeholders: group.placeholders,
        hasRows: group.platforms.length > 0,
        rows: (parent) => group.platforms.map((p) => new AuditPlatformNode(parent, p, spbFindings(source, p.platform))),
      };
    },
  };
}
