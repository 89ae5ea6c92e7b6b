// One step answered by two runs, for the compare view's side-by-side: run B against run A, each with the persona it
// received (its own thread), its picks, written persona and reasoning. Pure and JSON-safe.
import { personaReceived, resultFor } from '../score/run';
import { compareSides, type SidesCompared } from './sides';
import type { Platform, Run, Step, User } from '../types';

export interface RunPairStep extends SidesCompared {
  ref: { platform: Platform; userId: string; stepId: number };
  runA: string;
  runB: string;
  username: string;
  totalSteps: number;
  dateInput: string;
  dateTarget: string;
  /** candidates in the pool */
  poolSize: number;
  /** positives |T_keep ∪ T_new| */
  positives: number;
}

function sideOf(run: Run | undefined, user: User, step: Step) {
  const r = resultFor(run, user, step.stepId);
  return {
    prediction: r ? r.prediction : null,
    personaIn: personaReceived(run, user, step.stepId),
    personaWritten: r?.personaSummary ?? '',
    reasoning: r?.reasoning ?? '',
  };
}

/** `before` is run A's side and `after` run B's. */
export function runPairStep(user: User, step: Step, runA: Run | undefined, runB: Run | undefined): RunPairStep {
  return {
    ...compareSides(step, sideOf(runA, user, step), sideOf(runB, user, step)),
    ref: { platform: user.platform, userId: user.userId, stepId: step.stepId },
    runA: runA?.name ?? '',
    runB: runB?.name ?? '',
    username: user.username,
    totalSteps: step.totalSteps,
    dateInput: step.dateInput,
    dateTarget: step.dateTarget,
    poolSize: step.pool.length,
    positives: new Set([...step.split.tKeep, ...step.split.tNew]).size,
  };
}
