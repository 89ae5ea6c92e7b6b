// The user order of one benchmark's part of the Benchmarks tree, kept in workspace state (it comes back after a
// reload). Its roots listen to onDidChange and rebuild, so users are sorted once per change, not per expansion.
import * as vscode from 'vscode';
import { parseOrder, type OrderKeyInfo, type UserOrder } from '../../core/userOrder';

export class OrderSetting<K extends string> implements vscode.Disposable {
  private current: UserOrder<K>;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly state: vscode.Memento,
    private readonly stateKey: string,
    readonly keys: readonly K[],
    readonly info: Readonly<Record<K, OrderKeyInfo>>,
    readonly fallback: UserOrder<K>,
  ) {
    this.current = parseOrder(state.get(stateKey), keys, fallback);
  }

  get value(): UserOrder<K> {
    return this.current;
  }

  async set(order: UserOrder<K>): Promise<void> {
    if (order.key === this.current.key && order.direction === this.current.direction) return;
    this.current = order;
    await this.state.update(this.stateKey, order);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
