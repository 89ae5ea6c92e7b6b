// What another feature (labels) may add to the Benchmarks tree: text after a node's description, and a filter
// on steps. The tree rebuilds when it fires onDidChange.
import type * as vscode from 'vscode';
import type { Platform, Step, User } from '../../../core/spb/types';

export interface TreeAugment {
  readonly onDidChange: vscode.Event<void>;
  platformBadge(platform: Platform): string | undefined;
  userBadge(user: User): string | undefined;
  /** How many of the user's steps carry labels (Sort Users By… "Labelled first"). */
  labelledSteps(user: User): number;
  stepBadge(user: User, step: Step): string | undefined;
  /** undefined: no filter is active; otherwise whether a step shows (users and platforms without one are hidden). */
  stepFilter(): ((user: User, step: Step) => boolean) | undefined;
}

export function withBadge(description: string, badge: string | undefined): string {
  return badge ? `${description} · ${badge}` : description;
}
