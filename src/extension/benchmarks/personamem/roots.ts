// The PersonaMem benchmark's root in the Benchmarks tree, rebuilt when the store changes (a load, another run) or
// its persona order (Sort Users By…) changes.
import * as vscode from 'vscode';
import { personaMem } from '../../../core/personamem/format';
import type { PmRunScore } from '../../../core/personamem/score';
import type { PersonaMemBench, PmQuestion, PmRun } from '../../../core/personamem/types';
import { OrderSetting } from '../../tree/orderSetting';
import type { RootSource } from '../../tree/roots';
import type { OpenBenchmark } from '../types';
import { PmBenchmarkNode, PmPersonaNode, PmSplitNode, type PmQuestionNode } from './nodes';

const ORDER_KEY = 'personaLab.personamem.userOrder';

/** Badges another feature (labels) adds to the question rows of the benchmark at `root`. */
export interface PmTreeBadges {
  readonly onDidChange: vscode.Event<void>;
  badges(root: string): ((q: PmQuestion) => string | undefined) | undefined;
}

type Source = Pick<OpenBenchmark<PmRun, PersonaMemBench, PmRunScore>, 'bench' | 'run' | 'score' | 'onDidChange'>;

export class PersonaMemRoots implements RootSource, vscode.Disposable {
  private root: PmBenchmarkNode | undefined;
  private badges: PmTreeBadges | undefined;
  private badgesSubscription: vscode.Disposable | undefined;
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  readonly order: OrderSetting<string>;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly store: Source,
    state: vscode.Memento,
  ) {
    this.order = new OrderSetting(
      state,
      ORDER_KEY,
      Object.keys(personaMem.orderKeys),
      personaMem.orderKeys,
      personaMem.defaultOrder,
    );
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

  setBadges(badges: PmTreeBadges): vscode.Disposable {
    this.badgesSubscription?.dispose();
    this.badges = badges;
    this.badgesSubscription = badges.onDidChange(() => this.rebuild());
    this.rebuild();
    return { dispose: () => this.badgesSubscription?.dispose() };
  }

  roots(): PmBenchmarkNode[] {
    const bench = this.store.bench;
    if (!bench) return [];
    this.root ??= new PmBenchmarkNode({
      bench,
      run: this.store.run,
      score: this.store.score(),
      descending: this.order.value.direction === 'descending',
      badge: this.badges?.badges(bench.root),
    });
    return [this.root];
  }

  /** The tree's node of a question (for TreeView.reveal), built on the way down. */
  questionNode(split: string, questionId: string): PmQuestionNode | undefined {
    for (const top of this.roots().flatMap((r) => r.getChildren())) {
      const personas = top instanceof PmSplitNode ? (top.split === split ? top.getChildren() : []) : [top];
      for (const p of personas)
        if (p instanceof PmPersonaNode && p.split === split) {
          const q = p.getChildren().find((n) => n.question.questionId === questionId);
          if (q) return q;
        }
    }
    return undefined;
  }

  dispose(): void {
    for (const d of this.subscriptions.splice(0)) d.dispose();
    this.badgesSubscription?.dispose();
    this.emitter.dispose();
  }
}
