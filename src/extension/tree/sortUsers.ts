// Sort Users By…: a quick pick of the orders of the open benchmarks' users (both, in sections, when both are open;
// only the one of the node it was invoked on from a context menu). The choice is kept in workspace state.
import * as vscode from 'vscode';
import { orderChoices, type UserOrder } from '../../core/userOrder';
import type { Benchmarks } from '../benchmarks';
import type { OpenBenchmark } from '../benchmarks/types';
import { ownerOf } from './roots';
import type { OrderSetting } from './orderSetting';

interface Target {
  title: string;
  setting: OrderSetting<string>;
}

type Item = vscode.QuickPickItem & { apply?: () => Promise<void> };

/** The open benchmark whose roots hold `arg` when it is a tree node (a context menu), else every open one. */
function targets(benchmarks: Benchmarks, arg: unknown): Target[] {
  const target = (b: OpenBenchmark): Target => ({ title: `${b.format.label} users`, setting: b.tree.order });
  const owner = ownerOf(benchmarks.all, arg);
  if (owner) return [target(owner)];
  return benchmarks.all.filter((b) => b.bench).map(target);
}

export async function sortUsersBy(benchmarks: Benchmarks, arg: unknown): Promise<void> {
  const shown = targets(benchmarks, arg);
  const items: Item[] = [];
  let active: Item | undefined;
  for (const t of shown) {
    if (shown.length > 1) items.push({ label: t.title, kind: vscode.QuickPickItemKind.Separator });
    for (const choice of orderChoices(t.setting.keys, t.setting.info, t.setting.value)) {
      const item: Item = {
        label: choice.label,
        description: choice.description,
        iconPath: choice.current ? new vscode.ThemeIcon('check') : undefined,
        apply: () => t.setting.set(choice.order as UserOrder<string>),
      };
      if (choice.current && !active) active = item;
      items.push(item);
    }
  }
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = 'Sort Users By';
  pick.placeholder = 'The order the Benchmarks view lists users in (kept for this workspace)';
  pick.matchOnDescription = true;
  pick.items = items;
  if (active) pick.activeItems = [active];
  const picked = await new Promise<Item | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.selectedItems[0]));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  await picked?.apply?.();
}
