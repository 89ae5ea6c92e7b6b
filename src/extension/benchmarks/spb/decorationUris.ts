// The resourceUri a tree item carries so that a FileDecorationProvider can badge it (compare mode's regressed steps
// and users, compare/decorations.ts): one per step and one per user, under one scheme.
import * as vscode from 'vscode';
import type { Platform } from '../../../core/spb/types';
import type { StepRef } from './stepRef';

export const DECORATION_SCHEME = 'persona-lab-step';

export function stepDecorationUri(ref: StepRef): vscode.Uri {
  return vscode.Uri.from({ scheme: DECORATION_SCHEME, path: `/${ref.platform}/${ref.userId}/${ref.stepId}` });
}

export function userDecorationUri(platform: Platform, userId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: DECORATION_SCHEME, path: `/${platform}/${userId}` });
}
