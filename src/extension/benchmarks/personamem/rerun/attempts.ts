// The attempts of the open PersonaMem benchmark: one store per benchmark folder (.personalab/ inside it), opened on
// first use, and each question's attempts as the question view lists them.
import { join } from 'node:path';
import { mkdirInside } from '../../../../core/io/safeFs';
import { PM_ATTEMPTS_FILE, PmAttemptStore, pmAttemptView } from '../../../../core/personamem/run/attempts';
import type { PmAttemptView } from '../../../../core/personamem/run/attempts';
import type { QuestionRef } from '../../../../shared/personamem/questionProtocol';
import type { PersonaMemStore } from '../store';

export class PmAttempts {
  private opened: { root: string; store: PmAttemptStore } | undefined;

  constructor(private readonly store: PersonaMemStore) {}

  get(): PmAttemptStore | undefined {
    const root = this.store.bench?.root;
    if (!root) return undefined;
    if (this.opened?.root !== root) {
      this.opened?.store.close();
      const dir = join(root, '.personalab');
      mkdirInside(root, dir);
      this.opened = { root, store: PmAttemptStore.open(join(dir, PM_ATTEMPTS_FILE)) };
    }
    return this.opened.store;
  }

  views(ref: QuestionRef): PmAttemptView[] {
    const q = this.store.question(ref.split, ref.questionId);
    if (!q) return [];
    return (this.get()?.list(ref.split, ref.questionId) ?? []).map((a) => pmAttemptView(a, q.correctAnswer));
  }

  dispose(): void {
    this.opened?.store.close();
    this.opened = undefined;
  }
}
