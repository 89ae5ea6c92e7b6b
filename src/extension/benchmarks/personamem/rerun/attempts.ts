// The attempts of the open PersonaMem benchmark (.personalab/personamem-attempts.jsonl in its folder), and each
// question's attempts as the question view lists them.
import { PM_ATTEMPTS_FILE, PmAttemptStore, pmAttemptView } from '../../../../core/personamem/run/attempts';
import type { PmAttemptView } from '../../../../core/personamem/run/attempts';
import type { QuestionRef } from '../../../../shared/personamem/questionProtocol';
import { AttemptFile } from '../../../rerun/attemptFile';
import type { PersonaMemStore } from '../store';

export class PmAttempts {
  private readonly file: AttemptFile<PmAttemptStore>;

  constructor(private readonly store: PersonaMemStore) {
    this.file = new AttemptFile(() => store.bench?.root, PM_ATTEMPTS_FILE, PmAttemptStore.open);
  }

  get(): PmAttemptStore | undefined {
    return this.file.get();
  }

  views(ref: QuestionRef): PmAttemptView[] {
    const q = this.store.question(ref.split, ref.questionId);
    if (!q) return [];
    return (this.get()?.list(ref.split, ref.questionId) ?? []).map((a) => pmAttemptView(a, q.correctAnswer));
  }

  dispose(): void {
    this.file.dispose();
  }
}
