// The StreamProfileBench benchmark's root in the Benchmarks tree (benchmark → platform → user → step), with what
// the labels feature adds to it (badges, a step filter), its users in the order kept for this workspace. The root is
// rebuilt when the store, the augment or the order changes, with the same TreeItem ids, so VS Code keeps what was
// expanded and selected.
import * as vscode from 'vscode';
import type { Benchmark, Platform, Run } from '../../../core/spb/types';
import { SPB_DEFAULT_ORDER, SPB_ORDER_INFO, SPB_ORDER_KEYS, type SpbOrderKey } from '../../../core/spb/view/userOrder';
import type { TreeAugment } from './treeAugment';
import { findUser } from './treeModel';
import { BenchmarkNode } from './nodes';
import type { TreeNode } from '../../tree/node';
import { OrderSetting } from '../../tree/orderSetting';
import { SampleChoice } from './sampleChoice';
import { scoreRun, type RunScore } from '../../../core/spb/score/run';
import type { RootSource } from '../../tree/roots';
import type { OpenBenchmark } from '../types';

const ORDER_KEY = 'personaLab.userOrder';
const SAMPLE_KEY = 'personaLab.sampleFilter';

/** The figures of the index worker's first read of a folder, shown until its open ends (coldLoad/worker.ts). */
export interface EarlyFigures {
  /** A figures-only benchmark: its figures, no users or rows. */
  bench: Benchmark;
  run: Run | undefined;
}

/** What the roots read of the open benchmark that owns them (SpbStore). */
export type SpbRootsSource = Pick<
  OpenBenchmark<Run, Benchmark, RunScore>,
  'bench' | 'run' | 'score' | 'onDidChange'
> & {
  readonly early: EarlyFigures | undefined;
  readonly onDidChangeEarly: vscode.Event<void>;
};

export class SpbRoots implements RootSource, vscode.Disposable {
  private root: BenchmarkNode | undefined;
  private earlyRoot: BenchmarkNode | undefined;
  private augment: TreeAugment | undefined;
  private augmentSubscription: vscode.Disposable | undefined;
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[];
  /** Sort Users By…, kept in workspace state. */
  readonly order: OrderSetting<SpbOrderKey>;
  /** Filter Tree to Sample…, kept per benchmark folder in workspace state. */
  readonly sample: SampleChoice;

  constructor(
    private readonly store: SpbRootsSource,
    state: vscode.Memento,
  ) {
    this.order = new OrderSetting(state, ORDER_KEY, SPB_ORDER_KEYS, SPB_ORDER_INFO, SPB_DEFAULT_ORDER);
    this.sample = new SampleChoice(state, () => store.bench, {
      stateKey: SAMPLE_KEY,
      view: 'the Benchmarks tree',
      context: 'personaLab.sampleFilterActive',
    });
    this.subscriptions = [
      this.order,
      this.sample,
      store.onDidChange(() => {
        this.sample.syncContext();
        this.rebuild();
      }),
      this.order.onDidChange(() => this.rebuild()),
      store.onDidChangeEarly(() => this.rebuild()),
      this.sample.onDidChange(() => this.rebuild()),
    ];
  }

  private rebuild(): void {
    this.root = undefined;
    this.earlyRoot = undefined;
    this.emitter.fire();
  }

  /** Adds another feature's badges and filter; the root rebuilds whenever it changes. */
  setAugment(augment: TreeAugment): void {
    this.augmentSubscription?.dispose();
    this.augment = augment;
    this.augmentSubscription = augment.onDidChange(() => this.rebuild());
    this.rebuild();
  }

  rootNode(): BenchmarkNode | undefined {
    const bench = this.store.bench;
    if (!bench) return undefined;
    if (!this.root) {
      // With a sample, the figures shown are the core's over the sample's users (named so on the benchmark row).
      const sample = this.sample.scope();
      const run = this.store.run;
      this.root = new BenchmarkNode({
        bench,
        run,
        score: sample && run ? scoreRun(bench, run, sample.users) : this.store.score(),
        order: this.order.value,
        augment: this.augment,
        sample,
      });
    }
    return this.root;
  }

  roots(): TreeNode[] {
    const root = this.earlyNode() ?? this.rootNode();
    return root ? [root] : [];
  }

  /**
   * The early tree: the figures of a folder the open is still reading, over the whole benchmark (a sample's need its
   * users, so a folder with a sample chosen shows nothing early). Its rows offer no command.
   */
  private earlyNode(): BenchmarkNode | undefined {
    const early = this.store.early;
    if (!early || this.sample.chosenFor(early.bench.root)) return undefined;
    this.earlyRoot ??= new BenchmarkNode({
      bench: early.bench,
      run: early.run,
      score: early.run && scoreRun(early.bench, early.run),
      order: this.order.value,
      early: true,
    });
    return this.earlyRoot;
  }

  /**
   * A platform's user ids in the order the tree lists them (Sort Users By…), whatever the step filter hides; only
   * the sample's users when the tree is filtered to one (the step view's Next User and the label walks follow it).
   */
  userIds(platform: Platform): string[] {
    return (
      this.rootNode()
        ?.userRows(platform)
        .map((row) => row.user.userId) ?? []
    );
  }

  /** The node of a user (or of one of its steps), built through the same cached children the view shows. */
  find(userId: string, stepId?: number): TreeNode | undefined {
    const root = this.rootNode();
    const user = root && findUser(root.ctx.bench, userId);
    const userNode = user && root.platform(user.platform)?.user(user.userId);
    if (!userNode || stepId === undefined) return userNode;
    return userNode.step(stepId);
  }

  dispose(): void {
    for (const d of this.subscriptions.splice(0)) d.dispose();
    this.augmentSubscription?.dispose();
    this.emitter.dispose();
  }
}
