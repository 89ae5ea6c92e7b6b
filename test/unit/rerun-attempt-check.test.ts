// The step view's selectAttempt / openAttempt / retryAttempt act only on an attempt of the shown step.
import { describe, expect, it } from 'vitest';
import { attemptRefusal } from '../../src/core/rerun/attemptCheck';

const shown = { platform: 'weibo', userId: 'we_1', stepId: 3 };

describe('attemptRefusal', () => {
  it("accepts the shown step's attempts, stored (positive ids) or kept in memory (negative ids)", () => {
    expect(attemptRefusal(12, shown, [4, 12])).toBeNull();
    expect(attemptRefusal(-2, shown, [4, -1, -2])).toBeNull();
  });

  it('refuses an attempt of another step, an unknown id, and any id when the step has no attempts', () => {
    expect(attemptRefusal(5, shown, [4, 12])).toBe('attempt #5 is not an attempt of weibo/we_1 step 3');
    expect(attemptRefusal(-3, shown, [-1, -2])).toMatch(/not an attempt of weibo\/we_1 step 3/);
    expect(attemptRefusal(0, shown, [])).not.toBeNull();
  });
});
