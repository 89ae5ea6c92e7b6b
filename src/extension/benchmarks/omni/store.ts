// The open OmniBehavior benchmark: its users and test actions, the selected run and that run's score.
import type * as vscode from 'vscode';
import { omniBehavior } from '../../../core/formats';
import { scoreOmniRun, type OmniRunScore } from '../../../core/omni/score';
import type { OmniBenchmark, OmniRun, OmniUser, TestAction } from '../../../core/omni/types';
import { BenchmarkSession } from '../session';
import type { LoadHost } from '../types';
import { OmniRoots } from './roots';

const RUN_KEY = 'personaLab.omni.selectedRun';

export class OmniStore extends BenchmarkSession<OmniBenchmark, OmniRun, OmniRunScore> {
  readonly format = omniBehavior;
  readonly tree = new OmniRoots(this, this.state);

  /**
   * The run last made in this window, in which folder, and how ("Run Test Actions…"): the views name it while it is
   * the selected run of that folder (another folder may have a run of the same name).
   */
  private made: { root: string | undefined; run: string; how: string } | undefined;

  constructor(state: vscode.Memento, host: LoadHost) {
    super(state, host, { runKey: RUN_KEY, loadTitle: 'Persona Lab: loading OmniBehavior', scoreOf: scoreOmniRun });
  }

  testAction(userId: string, index: number): { user: OmniUser; action: TestAction } | undefined {
    const user = this.benchmark?.users.get(userId);
    const action = user?.testActions.find((a) => a.index === index);
    return user && action ? { user, action } : undefined;
  }

  /** Selects a run just made in the window, so that the views can say the figures they show are that run's. */
  async selectMadeRun(name: string, how: string): Promise<void> {
    this.made = { root: this.benchmark?.root, run: name, how };
    await this.selectRun(name);
  }

  /** "made here by Run Test Actions…" while the selected run is the one last made in this window. */
  madeNote(): string | undefined {
    const made = this.made;
    return made && made.run === this.runName && made.root === this.benchmark?.root
      ? `made here by ${made.how}`
      : undefined;
  }

  /** `root`: the OmniBehavior folder itself (omniRoot of what the user opened). */
  protected async loadBench(root: string): Promise<OmniBenchmark> {
    return (await omniBehavior.load(root)).bench;
  }

  protected firstRun(bench: OmniBenchmark): string | undefined {
    return [...bench.runs.keys()].sort()[0];
  }
}
