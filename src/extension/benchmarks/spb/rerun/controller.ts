// The step view's re-run part: which attempt is shown beside the original for each step, what is running, and
// the last persona ablation per user. Answers the webview's re-run requests (StepViewAddon).
import * as vscode from 'vscode';
import { comparisonPiMarks } from '../../../../core/spb/pi/highlight';
import type { AblationTable } from '../../../../core/spb/rerun/ablation';
import { attemptRefusal } from '../../../../core/rerun/attemptCheck';
import { buildComparison, summarizeAttempt } from '../../../../core/spb/rerun/attemptCompare';
import { promptDiff } from '../../../../core/rerun/promptDiff';
import { personaReceived, resultFor } from '../../../../core/spb/score/run';
import type { RerunRequest, RerunState } from '../../../../shared/spb/stepViewProtocol';
import type { ReadOnlyDocs } from '../../../docs';
import type { EndpointService } from '../../../endpoint';
import { log } from '../../../log';
import type { StepPanel, StepViewAddon } from '../stepView';
import { piMinConfidence } from '../stepView/panel';
import type { SpbStore, StepRef } from '../store';
import { rawReplyDoc, requestDoc } from './documents';
import type { AttemptHistory } from './history';

const stepKey = (ref: StepRef) => `${ref.platform}/${ref.userId}/${ref.stepId}`;
const userKey = (ref: { platform: string; userId: string }) => `${ref.platform}/${ref.userId}`;

export class RerunController implements StepViewAddon {
  /** attempt shown per step; absent: the newest */
  private readonly selected = new Map<string, number>();
  private readonly running = new Map<string, string>();
  /** what cancels the re-run in progress per step (the inline Cancel) */
  private readonly cancels = new Map<string, () => void>();
  private readonly ablations = new Map<string, AblationTable>();
  /** sends a failed attempt again (./step's retryAttempt, set once the re-run deps exist) */
  retry: (ref: StepRef, id: number) => Promise<void> = async () => {};

  constructor(
    private readonly store: SpbStore,
    private readonly history: AttemptHistory,
    private readonly endpoint: EndpointService,
    private readonly stepView: StepPanel,
    private readonly docs: ReadOnlyDocs,
  ) {}

  async state(ref: StepRef): Promise<RerunState> {
    const found = this.store.step(ref);
    const rows = found ? await this.history.forStep(ref) : [];
    const base = {
      ref: { platform: ref.platform, userId: ref.userId, stepId: ref.stepId },
      running: this.running.get(stepKey(ref)) ?? null,
      ablation: this.ablations.get(userKey(ref)) ?? null,
      historyProblem: this.history.problem,
      endpoint: this.endpoint.describe(),
    };
    if (!found) return { ...base, attempts: [], selected: null, pi: {}, promptDiff: null };
    const { user, step } = found;
    const chronological = rows.map((r, i) => summarizeAttempt(step, r, i + 1));
    const attempts = [...chronological].reverse();
    const want = this.selected.get(stepKey(ref));
    const wanted = rows.findIndex((r) => r.id === want);
    const at = wanted >= 0 ? wanted : rows.length - 1;
    const row = rows[at];
    const before = at > 0 ? rows[at - 1] : undefined;
    const run = this.store.run;
    const selected = row
      ? buildComparison({
          step,
          original: resultFor(run, user, step.stepId),
          originalRun: run?.name ?? null,
          originalPersonaIn: personaReceived(run, user, step.stepId),
          attempt: row,
        })
      : null;
    if (selected) selected.attempt = chronological[at];
    return {
      ...base,
      attempts,
      selected,
      pi: comparisonPiMarks(selected, { minConfidence: piMinConfidence() }),
      promptDiff: row && before ? promptDiff(before, row, at) : null,
    };
  }

  onRequest(request: RerunRequest, ref: StepRef): void {
    switch (request.type) {
      case 'command':
        void vscode.commands.executeCommand(`personaLab.${request.command}`, ref);
        break;
      case 'selectAttempt':
        void this.ifOwnAttempt(ref, request.id, request.type, () => this.select(ref, request.id));
        break;
      case 'openAttempt':
        void this.ifOwnAttempt(ref, request.id, request.type, () => this.openAttempt(ref, request.id, request.which));
        break;
      case 'retryAttempt':
        void this.ifOwnAttempt(ref, request.id, request.type, () => this.retry(ref, request.id));
        break;
      case 'cancelRerun':
        this.cancels.get(stepKey(ref))?.();
        break;
    }
  }

  /** Acts on an attempt id from the page only when it is one of the shown step's attempts; logs a refusal. */
  private async ifOwnAttempt(ref: StepRef, id: number, what: string, act: () => unknown): Promise<void> {
    const ids = (await this.history.forStep(ref)).map((r) => r.id);
    const refusal = attemptRefusal(id, ref, ids);
    if (refusal) return log.warn(`rerun: ${what} refused: ${refusal}`);
    await act();
  }

  select(ref: StepRef, id: number): void {
    this.selected.set(stepKey(ref), id);
    this.stepView.updateRerun(ref);
  }

  /** `cancel`: what the inline Cancel calls while it runs. */
  setRunning(ref: StepRef, message: string | null, cancel?: () => void): void {
    if (message === null) this.running.delete(stepKey(ref));
    else this.running.set(stepKey(ref), message);
    if (message !== null && cancel) this.cancels.set(stepKey(ref), cancel);
    else this.cancels.delete(stepKey(ref));
    this.stepView.updateRerun(ref);
  }

  setAblation(table: AblationTable): void {
    this.ablations.set(userKey(table), table);
    this.stepView.updateRerun();
  }

  private async openAttempt(ref: StepRef, id: number, which: 'request' | 'raw'): Promise<void> {
    const row = await this.history.byId(id);
    if (!row) {
      void vscode.window.showWarningMessage(`Persona Lab: attempt #${id} is not in the history any more.`);
      return;
    }
    const where = `${ref.userId} step ${ref.stepId}`;
    const doc = which === 'request' ? requestDoc(row, where) : rawReplyDoc(row, where);
    await this.docs.open(doc.title, doc.text, { language: doc.language });
  }
}
