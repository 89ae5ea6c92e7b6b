// The open StreamProfileBench benchmark: its users and steps, the selected run and cached scores, and the target
// it was opened from (kept for the next session). Features listen to onDidChange.
import type * as vscode from 'vscode';
import { streamProfileBench } from '../../../core/formats';
import { scoreRun, type RunScore } from '../../../core/spb/score/run';
import type { Benchmark, Platform, Run, Step, User } from '../../../core/spb/types';
import { BenchmarkSession } from '../session';
import type { LoadHost } from '../types';
import { SpbRoots } from './roots';
import { log } from '../../log';

const RUN_KEY = 'personaLab.selectedRun';
const TARGET_KEY = 'personaLab.openedTarget';

export interface StepRef {
  platform: Platform;
  userId: string;
  stepId: number;
}

export class SpbStore extends BenchmarkSession<Benchmark, Run, RunScore> {
  readonly format = streamProfileBench;
  readonly tree = new SpbRoots(this);

  constructor(state: vscode.Memento, host: LoadHost) {
    super(state, host, { runKey: RUN_KEY, loadTitle: 'Persona Lab: loading benchmark', scoreOf: scoreRun });
  }

  user(platform: Platform, userId: string): User | undefined {
    return this.benchmark?.users.get(platform)?.get(userId);
  }

  step(ref: StepRef): { user: User; step: Step } | undefined {
    const user = this.user(ref.platform, ref.userId);
    const step = user?.steps.find((s) => s.stepId === ref.stepId);
    return user && step ? { user, step } : undefined;
  }

  /** The folder or tasks file given to the last open(), kept for reload() and for the next session. */
  get target(): string | undefined {
    return this.openedTarget ?? this.state.get<string>(TARGET_KEY);
  }

  protected async loadBench(target: string, onProgress: (done: number, total: number) => void): Promise<Benchmark> {
    const loaded = await streamProfileBench.load(target, { onProgress });
    if (loaded.format !== 'streamprofilebench') throw new Error(`${target}: not a StreamProfileBench benchmark`);
    return loaded.bench;
  }

  protected firstRun(bench: Benchmark): string | undefined {
    const preferred = this.host.preferredRun();
    return preferred && bench.runs.has(preferred) ? preferred : bench.runs.keys().next().value;
  }

  protected override async loaded(target: string, bench: Benchmark, ms: number): Promise<void> {
    await this.state.update(TARGET_KEY, target);
    let users = 0;
    let steps = 0;
    for (const m of bench.users.values()) {
      users += m.size;
      for (const u of m.values()) steps += u.steps.length;
    }
    log.info(`loaded ${bench.root}: ${users} users, ${steps} steps, ${bench.runs.size} run(s) in ${ms} ms`);
  }
}
