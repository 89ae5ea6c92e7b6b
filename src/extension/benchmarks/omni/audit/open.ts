// Opening an OmniBehavior finding: in the trace view at its test action with the finding outlined (a click), or its
// source line pretty-printed with the span selected (Open Finding in File, and a click on a finding of no test action).
import * as vscode from 'vscode';
import { findingTraceTarget, type OmniAuditFinding } from '../../../../core/omni/piAudit';
import { log } from '../../../log';
import { openFindingLine } from '../../../audit/sourceLine';
import type { TraceFindings } from './trace';

/** Opens the finding's line beside the view (pretty-printed when it is one JSON value), the span selected. */
export function openTraceSource(finding: OmniAuditFinding, root: string): Promise<void> {
  return openFindingLine(root, finding);
}

/**
 * Opens an OmniBehavior finding in the trace view at its test action, its history record revealed and the finding
 * outlined there; a finding that belongs to no test action opens its source line.
 */
export async function openTraceFinding(
  finding: OmniAuditFinding,
  root: string,
  trace: TraceFindings | undefined,
): Promise<void> {
  const at = findingTraceTarget(finding);
  if (!at || !trace?.open(finding)) return openTraceSource(finding, root);
  await vscode.commands.executeCommand('personaLab.revealTestAction', { userId: at.userId, index: at.index });
  log.info(`audit: opened the trace of ${at.userId} #${at.index} at ${finding.field} ${finding.start}-${finding.end}`);
}
