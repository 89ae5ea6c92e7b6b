// A benchmark held in memory for the compare, figures and dashboard tests (not a test file itself).
import type { Benchmark, Platform, PoolSplit, Run, StepResult, User } from '../../src/core/spb/types';

export const split = (s: Partial<PoolSplit>): PoolSplit => ({
  tKeep: [],
  tNew: [],
  dDecay: [],
  dPeer: [],
  dViral: [],
  dRandom: [],
  ...s,
});

/** A benchmark held in memory: users with steps, and runs as userId -> stepId -> prediction. */
export function memBench(
  users: { platform: Platform; userId: string; steps: PoolSplit[] }[],
  runs: Record<string, Record<string, Record<number, unknown[]>>>,
): Benchmark {
  const bench: Benchmark = { root: '/mem', users: new Map(), runs: new Map(), diagnostics: [], taskFiles: new Map() };
  for (const u of users) {
    const user: User = {
      userId: u.userId,
      platform: u.platform,
      username: 'U_00000000',
      bio: '',
      totalSteps: u.steps.length,
      file: 'x',
      ref: { file: 'x', offset: 0, length: 0, line: 1 },
      steps: u.steps.map((sp, i) => ({
        stepId: i + 1,
        totalSteps: u.steps.length,
        dateInput: '',
        dateTarget: '',
        pool: Object.values(sp).flat(),
        split: sp,
        index: i,
      })),
    };
    if (!bench.users.has(u.platform)) bench.users.set(u.platform, new Map());
    bench.users.get(u.platform)!.set(u.userId, user);
  }
  for (const [name, byUser] of Object.entries(runs)) {
    const run: Run = { name, results: new Map(), files: new Map() };
    for (const [userId, steps] of Object.entries(byUser)) {
      const platform = users.find((u) => u.userId === userId)!.platform;
      if (!run.results.has(platform)) run.results.set(platform, new Map());
      const map = new Map<number, StepResult>();
      for (const [sid, prediction] of Object.entries(steps)) {
        map.set(Number(sid), {
          stepId: Number(sid),
          prediction,
          storedMetrics: undefined,
          reasoning: '',
          personaSummary: '',
          line: 1,
        });
      }
      run.results.get(platform)!.set(userId, { userId, platform, username: '', steps: map, file: 'x', line: 1 });
    }
    bench.runs.set(name, run);
  }
  return bench;
}
