// The resourceUri a tree item carries so that compare mode can badge it (compare/badges.ts): one per step (an item
// whose Recall fell) and one per user (the count of its steps that did).
import type * as vscode from 'vscode';
import { streamProfileBench } from '../../../core/spb/format/format';
import type { Platform } from '../../../core/spb/types';
import { compareBadgeUri } from '../../compare/badges';
import type { StepRef } from './stepRef';

export function stepDecorationUri(ref: StepRef): vscode.Uri {
  return compareBadgeUri(streamProfileBench.id, [ref.platform, ref.userId, String(ref.stepId)]);
}

export function userDecorationUri(platform: Platform, userId: string): vscode.Uri {
  return compareBadgeUri(streamProfileBench.id, [platform, userId]);
}
