// The part both benchmark stores share: the selected run (kept in workspace state) and each run's score, computed
// once per load.
import type * as vscode from 'vscode';

export class RunSelection<B extends { runs: ReadonlyMap<string, R> }, R extends { name: string }, S> {
  private selected: string | undefined;
  private readonly scores = new Map<string, S>();

  constructor(
    private readonly state: vscode.Memento,
    private readonly key: string,
    private readonly scoreOf: (bench: B, run: R) => S,
  ) {
    this.selected = state.get<string>(key);
  }

  get name(): string | undefined {
    return this.selected;
  }

  run(bench: B | undefined): R | undefined {
    return this.selected ? bench?.runs.get(this.selected) : undefined;
  }

  /** The score of the selected run (or a named one); undefined when there is no such run. */
  score(bench: B | undefined, runName = this.selected): S | undefined {
    const run = runName ? bench?.runs.get(runName) : undefined;
    if (!run || !bench) return undefined;
    let s = this.scores.get(run.name);
    if (!s) {
      s = this.scoreOf(bench, run);
      this.scores.set(run.name, s);
    }
    return s;
  }

  /** The run selected in `bench`: the selection while `bench` has its run, else `fallback`'s. */
  nameIn(bench: B, fallback: () => string | undefined): string | undefined {
    return this.selected && bench.runs.has(this.selected) ? this.selected : fallback();
  }

  /** After a load: forgets the scores, and keeps the selection while its run still exists, else takes `fallback`. */
  loaded(bench: B, fallback: () => string | undefined): void {
    this.scores.clear();
    this.selected = this.nameIn(bench, fallback);
  }

  async select(name: string): Promise<void> {
    this.selected = name;
    await this.state.update(this.key, name);
  }
}
