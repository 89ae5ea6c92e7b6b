// Opening a StreamProfileBench finding: its step in the step view with the finding outlined (a click), or its source
// line pretty-printed with the span selected (Open Finding in File).
import * as vscode from 'vscode';
import { stepFindingArea, type AuditFinding } from '../../../../core/spb/pi/audit';
import type { PiHighlight } from '../../../../core/pi/spans';
import type { SpbStore, StepRef } from '../store';
import { log } from '../../../log';
import { openFindingLine } from '../../../audit/sourceLine';

/** Opens the finding's JSONL line beside the view, pretty-printed, with the span selected. */
export function openSource(finding: AuditFinding, root: string): Promise<void> {
  return openFindingLine(root, finding);
}

/** What the step view outlines for a finding. */
export function stepHighlight(f: AuditFinding): PiHighlight {
  return { key: f.key, area: stepFindingArea(f.field), category: f.category, text: f.text };
}

/**
 * Opens the finding's step in the step view with its span outlined and scrolled to, switching to the finding's run
 * for personas, reasoning and picks.
 */
export async function openStep(finding: AuditFinding, ref: StepRef | undefined, store: SpbStore): Promise<void> {
  if (!ref) {
    void vscode.window.showWarningMessage(`Persona Lab: ${finding.userId} is not in the loaded benchmark.`);
    return;
  }
  const run = finding.run;
  if (run !== null && run !== store.runName && store.bench?.runs.has(run)) {
    await vscode.commands.executeCommand('personaLab.chooseRun', run);
    vscode.window.setStatusBarMessage(`Persona Lab: showing run ${run}, where the finding is`, 5000);
  }
  // The focus stays in the PI Audit view, as a click in the Explorer or the Problems panel leaves it: the verdict keys
  // (c, f, r) are that view's, and the step view taking the focus sent them to the step instead.
  await vscode.commands.executeCommand(
    'personaLab.openStep',
    { ...ref, highlight: stepHighlight(finding) },
    { preserveFocus: true },
  );
  log.info(
    `audit: opened ${ref.platform}/${ref.userId} step ${ref.stepId} at ${finding.field} ${finding.start}-${finding.end}`,
  );
}
