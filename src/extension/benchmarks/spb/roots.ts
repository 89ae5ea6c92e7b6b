// The StreamProfileBench benchmark's root in the Benchmarks tree (benchmark → platform → user → step), with what
// the labels feature adds to it (badges, a step filter). The root is rebuilt when the store or the augment changes,
// with the same TreeItem ids, so VS Code keeps what was expanded and selected.
import * as vscode from 'vscode';
import type { TreeAugment } from '../../tree/augment';
import { findUser } from '../../tree/model';
import { BenchmarkNode, type TreeNode } from '../../tree/nodes';
import type { RootSource } from '../../tree/roots';
import type { SpbStore } from './store';

export class SpbRoots implements RootSource, vscode.Disposable {
  private root: BenchmarkNode | undefined;
  private augment: TreeAugment | undefined;
  private augmentSubscription: vscode.Disposable | undefined;
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly store: SpbStore) {
    this.subscription = store.onDidChange(() => this.rebuild());
  }

  private rebuild(): void {
    this.root = undefined;
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
    this.root ??= new BenchmarkNode({ bench, run: this.store.run, score: this.store.score(), augment: this.augment });
    return this.root;
  }

  roots(): TreeNode[] {
    const root = this.rootNode();
    return root ? [root] : [];
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
    this.subscription.dispose();
    this.augmentSubscription?.dispose();
    this.emitter.dispose();
  }
}
