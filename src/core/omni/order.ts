// The order of an OmniBehavior benchmark's users and test actions wherever they are listed or walked: the Benchmarks
// tree, the trace view's [ and ] and its next unlabelled test action (`.`). Users by id unless the tree's order
// (Sort Users By…, userOrder.ts) is given as `ids`; a user's test actions by their position in action_history.
import type { OmniBenchmark, OmniUser, TestAction } from './types';

export function usersInOrder(bench: OmniBenchmark, ids?: readonly string[]): OmniUser[] {
  if (ids) return ids.flatMap((id) => bench.users.get(id) ?? []);
  return [...bench.users.values()].sort((a, b) => a.userId.localeCompare(b.userId));
}

export function actionsInOrder(user: OmniUser): TestAction[] {
  return [...user.testActions].sort((a, b) => a.index - b.index);
}

/** Every test action of the benchmark, user after user (in the order of `ids` when given). */
export function testActionOrder(bench: OmniBenchmark, ids?: readonly string[]): TestAction[] {
  return usersInOrder(bench, ids).flatMap(actionsInOrder);
}
