// The step view names a re-run attempt by its id (select, open, retry); the page is not trusted to name one of the
// shown step's attempts, so the extension checks the id against that step's attempts before acting on it.

export interface ShownStep {
  platform: string;
  userId: string;
  stepId: number;
}

/**
 * Why attempt `id` is refused for the step shown, or null when it is one of `stepAttemptIds` (the step's attempts,
 * from the history and from memory).
 */
export function attemptRefusal(id: number, shown: ShownStep, stepAttemptIds: readonly number[]): string | null {
  if (stepAttemptIds.includes(id)) return null;
  return `attempt #${id} is not an attempt of ${shown.platform}/${shown.userId} step ${shown.stepId}`;
}
