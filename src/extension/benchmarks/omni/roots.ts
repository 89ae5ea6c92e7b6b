// The OmniBehavior benchmark's root in the Benchmarks tree, rebuilt when the store changes (a new load or another
// run), when what the labels feature adds to it (badges) changes, or when its user order (Sort Users By…) changes.
import * as vscode from 'vscode';
import type { TraceLabelIndex } from '../../../core/omni/labels/trace';
import { OMNI_DEFAULT_ORDER, OMNI_ORDER_INFO, OMNI_ORDER_KEYS, type OmniOrderKey } from '../../../core/omni/userOrder';
import { OrderSetting } from '../../tree/orderSetting';
import type { RootSource } from '../../tree/roots';
import { OmniBenchmarkNode } from './nodes';
import type { OmniRunScore } from '../../../core/omni/score';
import type { OmniBenchmark, OmniRun } from '../../../core/omni/types';
import type { OpenBenchmark } from '../types';

/** Badges another feature (labels) adds to the test actions of a benchmark's run. */
export interface OmniTreeAugment {
  readonly onDidChange: vscode.Event<void>;
  badges(
    root: string,
    run: string | undefined,
  ): { index: TraceLabelIndex; names: ReadonlyMap<string, string> } | undefined;
}

const ORDER_KEY = 'personaLab.omni.userOrder';

/** What the root reads of the open benchmark that owns it (OmniStore). */
export type OmniRootsSource = Pick<
  OpenBenchmark<OmniRun, OmniBenchmark, OmniRunScore>,
  'bench' | 'run' | 'runName' | 'score' | 'onDidChange'
> & { madeNote?(): string | undefined };

export class OmniRoots implements RootSource, vscode.Disposable {
  private root: OmniBenchmarkNode | undefined;
  private augment: OmniTreeAugment | undefined;
  private augmentSubscription: vscode.Disposable | undefined;
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[];
  readonly order: OrderSetting<OmniOrderKey>;

  constructor(
    private readonly store: OmniRootsSource,
    state: vscode.Memento,
  ) {
    this.order = new OrderSetting(state, ORDER_KEY, OMNI_ORDER_KEYS, OMNI_ORDER_INFO, OMNI_DEFAULT_ORDER);
    this.subscriptions = [
      this.order,
      store.onDidChange(() => this.rebuild()),
      this.order.onDidChange(() => this.rebuild()),
    ];
  }

  private rebuild(): void {
    this.root = undefined;
    this.emitter.fire();
  }

  setAugment(augment: OmniTreeAugment): void {
    this.augmentSubscription?.dispose();
    this.augment = augment;
    this.augmentSubscription = augment.onDidChange(() => this.rebuild());
    this.rebuild();
  }

  rootNode(): OmniBenchmarkNode | undefined {
    const bench = this.store.bench;
    if (!bench) return undefined;
    this.root ??= new OmniBenchmarkNode({
      bench,
      run: this.store.run,
      score: this.store.score(),
      order: this.order.value,
      madeNote: this.store.madeNote?.(),
      labels: this.augment?.badges(bench.root, this.store.runName),
    });
    return this.root;
  }

  /** The user ids in the order the tree lists them (Sort Users By…): the trace labels' next unlabelled walks it. */
  userIds(): string[] {
    return (
      this.rootNode()
        ?.getChildren()
        .map((node) => node.user.userId) ?? []
    );
  }

  roots(): OmniBenchmarkNode[] {
    const root = this.rootNode();
    return root ? [root] : [];
  }

  dispose(): void {
    for (const d of this.subscriptions.splice(0)) d.dispose();
    this.augmentSubscription?.dispose();
    this.emitter.dispose();
  }
}
