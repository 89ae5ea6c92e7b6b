// Sort Users By…: a quick pick of the orders of the open benchmarks' users (both, in sections, when both are open;
// only the one of the node it was invoked on from a context menu). The choice is kept in workspace state.
import * as vscode from 'vscode';
import { orderChoices, type UserOrder } from '../../core/userOrder';
import type { Benchmarks } from '../benchmarks';
import { OmniBenchmarkNode, OmniUserNode } from '../benchmarks/omni/nodes';
import type { OrderSetting } from './orderSetting';

interface Target {
  title: string;
  setting: OrderSetting<string>;
}

type Item = vscode.QuickPickItem & { apply?: () => Promise<void> };

function targets(benchmarks: Benchmarks, arg: unknown): Target[] {
  const spb: Target = { title: 'StreamProfileBench users', setting: benchmarks.spb.tree.order };
  const omni: Target = { title: 'OmniBehavior users', setting: benchmarks.omni.tree.order };
  if (arg instanceof OmniBenchmarkNode || arg instanceof OmniUserNode) return [omni];
  if (arg && typeof arg === 'object' && 'getTreeItem' in arg) return [spb];
  return [...(benchmarks.spb.bench ? [spb] : []), ...(benchmarks.omni.bench ? [omni] : [])];
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
