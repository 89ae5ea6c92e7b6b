// The kinds of prompt draft a format's re-run adds beside the step drafts (one file extension and language
// for all, told apart by their header): how a kind is recognised, its problems as typed, what Ctrl+Enter does with
// it, and the block folded when it opens. A format's re-run registers its kind; the draft editor's squiggles,
// folding and Ctrl+Enter ask here and never name a format.
import * as vscode from 'vscode';
import type { DraftProblem } from '../../core/rerun/draft';

/** 0-based lines: `start`..`end` fold; `edit` is where the cursor goes. */
export interface DraftFold {
  start: number;
  end: number;
  edit: number;
}

export interface DraftKind {
  owns(text: string): boolean;
  problems(text: string): DraftProblem[];
  send(doc: vscode.TextDocument): Promise<void>;
  /** the block folded when the draft opens, and where editing starts */
  fold?(text: string): DraftFold | null;
}

const kinds: DraftKind[] = [];
const changed = new vscode.EventEmitter<void>();

/** Fires when a kind comes or goes (open drafts are checked again). */
export const onDidChangeDraftKinds = changed.event;

export function registerDraftKind(kind: DraftKind): vscode.Disposable {
  kinds.push(kind);
  changed.fire();
  return new vscode.Disposable(() => {
    const at = kinds.indexOf(kind);
    if (at >= 0) kinds.splice(at, 1);
    changed.fire();
  });
}

/** The registered kind a draft's text belongs to; undefined: a step draft (core/rerun/draft.ts). */
export function draftKindOf(text: string): DraftKind | undefined {
  return kinds.find((k) => k.owns(text));
}
