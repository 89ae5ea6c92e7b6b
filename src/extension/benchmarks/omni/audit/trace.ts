// The PI Audit in the trace view: the audit's findings in the trace shown (its PI section lists them and marks each
// where it is, instead of offering a scan of its own), and a finding opened from the audit, outlined.
import * as vscode from 'vscode';
import {
  findingsInTrace,
  findingTraceTarget,
  traceFindingArea,
  type OmniAuditFinding,
  type OmniAuditResult,
} from '../../../../core/omni/piAudit';
import type { AuditPiFinding, TraceRef } from '../../../../shared/omni/traceProtocol';
import type { TraceAuditSource, TracePanel } from '../traceView/panel';
import type { AuditResults } from '../../../audit/part';

/** Findings sent to the page at most (a trace can hold thousands; the page says how many there are). */
const MAX_SENT = 500;

export function auditPiFinding(f: OmniAuditFinding): AuditPiFinding {
  return {
    key: f.key,
    area: traceFindingArea(f),
    index: f.recordIndex,
    field: f.field,
    category: f.category,
    confidence: f.confidence,
    value: f.text,
    reason: f.reason,
  };
}

export class TraceFindings implements TraceAuditSource, vscode.Disposable {
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly results: AuditResults<OmniAuditResult>,
    private readonly panel: TracePanel,
  ) {
    this.disposables = [panel.setAuditSource(this), results.onDidChange(() => panel.postAuditPi())];
  }

  findingsIn(ref: TraceRef): { findings: AuditPiFinding[]; found: number } | undefined {
    const result = this.results.result();
    if (!result || this.results.stale()) return undefined;
    const all = findingsInTrace(result.findings, ref.userId, ref.index);
    return { findings: all.slice(0, MAX_SENT).map(auditPiFinding), found: all.length };
  }

  /** Shows the finding's test action with its record revealed and the finding outlined; false when it has none. */
  open(f: OmniAuditFinding): boolean {
    const at = findingTraceTarget(f);
    if (!at) return false;
    const reveal = at.target.kind === 'history' ? at.target.historyIndex : undefined;
    this.panel.showFinding({ userId: at.userId, index: at.index }, f.key, reveal);
    return true;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
