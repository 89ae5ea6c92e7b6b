// Labels in the Benchmarks tree: badges on steps, labelled-step counts on users and platforms, and the step filter
// (kept per workspace). Also the step order that j/k and "Next Unlabelled Step" walk through.
import * as vscode from 'vscode';
import {
  describeFilter,
  findStep,
  isFilterActive,
  matchesFilter,
  normalizeFilter,
  orderedSteps,
  type FilterSource,
  type OrderedStep,
  type StepAt,
  type StepFilter,
} from '../../../../core/spb/labels/filter';
import { resultFor } from '../../../../core/spb/score/run';
import type { Platform, Step, User } from '../../../../core/spb/types';
import type { TreeAugment } from '../treeAugment';
import type { LabelService } from '../../../labels/service';
import type { SpbLabelTargets } from './targets';

const FILTER_KEY = 'personaLab.stepFilter';
export const FILTER_CONTEXT = 'personaLab.filterActive';

export class LabelTreeAugment implements TreeAugment, vscode.Disposable {
  private filterValue: StepFilter;
  private readonly matches = new Map<string, boolean>();
  /** The steps in tree order, for the tree root they were read from (a new root: a new load, run, order or labels). */
  private order: { root: object; steps: OrderedStep[] } | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly filterChanged = new vscode.EventEmitter<void>();
  /** Fires when the filter itself changes (set or cleared). */
  readonly onDidChangeFilter = this.filterChanged.event;
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly targets: SpbLabelTargets,
    private readonly labels: LabelService,
    private readonly state: vscode.Memento,
  ) {
    this.filterValue = normalizeFilter(state.get(FILTER_KEY));
    const invalidate = () => {
      this.matches.clear();
      this.changed.fire();
    };
    this.disposables = [
      this.changed,
      this.filterChanged,
      labels.onDidChange(invalidate),
      targets.open.onDidChange(() => this.matches.clear()),
    ];
    void vscode.commands.executeCommand('setContext', FILTER_CONTEXT, isFilterActive(this.filterValue));
  }

  get filter(): StepFilter {
    return this.filterValue;
  }

  get filterActive(): boolean {
    return isFilterActive(this.filterValue);
  }

  async setFilter(filter: StepFilter): Promise<void> {
    this.filterValue = normalizeFilter(filter);
    this.matches.clear();
    await this.state.update(FILTER_KEY, isFilterActive(this.filterValue) ? this.filterValue : undefined);
    await vscode.commands.executeCommand('setContext', FILTER_CONTEXT, this.filterActive);
    this.changed.fire();
    this.filterChanged.fire();
  }

  describe(): string {
    return describeFilter(this.filterValue, this.labels.names());
  }

  platformBadge(platform: Platform): string | undefined {
    const n = this.targets.index().labelledStepsOfPlatform(platform);
    return n ? `${n.toLocaleString('en-US')} labelled` : undefined;
  }

  userBadge(user: User): string | undefined {
    const n = this.labelledSteps(user);
    return n ? `${n} labelled` : undefined;
  }

  labelledSteps(user: User): number {
    return this.targets.index().labelledStepsOfUser(user.platform, user.userId);
  }

  stepBadge(user: User, step: Step): string | undefined {
    const ids = this.targets.index().labelsOf(user.platform, user.userId, step.stepId);
    if (ids.length === 0) return undefined;
    const names = this.labels.names();
    return `⚑ ${ids.map((id) => names.get(id) ?? id).join(', ')}`;
  }

  stepFilter(): ((user: User, step: Step) => boolean) | undefined {
    return this.filterActive ? (user, step) => this.matchesFilter(user, step) : undefined;
  }

  matchesFilter(user: User, step: Step): boolean {
    const key = `${user.platform}\u0000${user.userId}\u0000${step.stepId}`;
    let m = this.matches.get(key);
    if (m === undefined) {
      m = matchesFilter(this.filterValue, this.source(), user, step);
      this.matches.set(key, m);
    }
    return m;
  }

  /** Steps that match the filter (all steps without one). */
  matchCount(): number {
    return this.steps().filter((o) => !this.filterActive || this.matchesFilter(o.user, o.step)).length;
  }

  isUnlabelled(user: User, step: Step): boolean {
    return this.targets.index().labelsOf(user.platform, user.userId, step.stepId).length === 0;
  }

  /** The next (previous) step in tree order that the filter shows; stops at the ends. */
  neighbour(from: StepAt, delta: 1 | -1): StepAt | undefined {
    const found = findStep(
      this.steps(),
      from,
      delta,
      (o) => !this.filterActive || this.matchesFilter(o.user, o.step),
      false,
    );
    return found && at(found);
  }

  /** The next unlabelled step (this author, the selected run) that the filter shows, going round once. */
  nextUnlabelled(from: StepAt | undefined): StepAt | undefined {
    const found = findStep(
      this.steps(),
      from,
      1,
      (o) => this.isUnlabelled(o.user, o.step) && (!this.filterActive || this.matchesFilter(o.user, o.step)),
      true,
    );
    return found && at(found);
  }

  private steps(): OrderedStep[] {
    const bench = this.targets.open.bench;
    const root = this.targets.open.tree.rootNode();
    if (!bench || !root) return [];
    if (this.order?.root !== root)
      this.order = { root, steps: orderedSteps(bench, (platform) => this.targets.open.tree.userIds(platform)) };
    return this.order.steps;
  }

  private source(): FilterSource {
    const bench = this.targets.open.bench;
    return {
      selectedRun: this.targets.run,
      labelsOf: (run, user, step) => this.targets.index(run).labelsOf(user.platform, user.userId, step.stepId),
      resultOf: (run, user, step) => resultFor(bench?.runs.get(run), user, step.stepId),
    };
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

function at(o: OrderedStep): StepAt {
  return { platform: o.user.platform, userId: o.user.userId, stepId: o.step.stepId };
}
