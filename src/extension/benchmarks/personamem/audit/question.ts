// The PI Audit in the question view: the audit's findings in the question shown (its history up to the end index,
// the question, its options, the selected run's response) listed and marked in the page, and a finding opened from
// the audit shown at its question with its message revealed and the value outlined.
import type * as vscode from 'vscode';
import type { PmAuditFinding, PmAuditResult } from '../../../../core/personamem/audit';
import type { QuestionRef } from '../../../../shared/personamem/questionProtocol';
import type { AuditResults } from '../../../audit/part';
import type { QuestionAuditSource, QuestionPanel } from '../questionView';
import type { PersonaMemStore } from '../store';
import { questionFindings, refOf } from './model';

export class QuestionFindings implements QuestionAuditSource, vscode.Disposable {
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly results: AuditResults<PmAuditResult>,
    private readonly store: PersonaMemStore,
    private readonly panel: QuestionPanel,
  ) {
    this.disposables = [panel.setAuditSource(this), results.onDidChange(() => panel.postAuditPi())];
  }

  findingsIn(ref: QuestionRef): ReturnType<QuestionAuditSource['findingsIn']> {
    const result = this.results.result();
    if (!result || this.results.stale()) return undefined;
    // the responses of the run the view shows (none when the selected run is of another split)
    const run = this.store.run;
    const q = this.store.question(ref.split, ref.questionId);
    return questionFindings(result.findings, q, run?.split === ref.split ? run.name : '');
  }

  /** Shows the finding's question with the finding outlined; false when no question sees it. */
  open(f: PmAuditFinding): boolean {
    const ref = refOf(f);
    if (!ref) return false;
    this.panel.showFinding(ref, f.key);
    return true;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
