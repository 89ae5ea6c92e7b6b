// The kinds of prompt draft a format's re-run adds beside the step drafts (one file extension and language
// for all, told apart by their header): how a kind is recognised, its problems as typed, what Ctrl+Enter does with
// it, and the block folded when it opens. A format's re-run registers its kind; the draft editor's squiggles,
// folding and Ctrl+Enter ask here and never name a format.
import * as vscode from 'vscode';
import type { DraftProblem } from '../../core/rerun/draft';
import type { EndpointService, ResolvedEndpoint } from '../endpoint';

/** 0-based lines: `start`..`end` fold; `edit` is where the cursor goes. */
export interface DraftFold {
  start: number;
  end: number;
  edit: number;
}

export type DraftKindParse<D> = { ok: true; draft: D } | { ok: false; problems: DraftProblem[] };

export interface DraftKind<D> {
  owns(text: string): boolean;
  /** the draft, or its problems, each on its line */
  parse(text: string): DraftKindParse<D>;
  /** Ctrl+Enter on a draft that parsed */
  send(doc: vscode.TextDocument, draft: D): Promise<void>;
  /** the block folded when the draft opens, and where editing starts */
  fold?(text: string): DraftFold | null;
}

/** A registered kind, whatever its draft's type. */
export interface AnyDraftKind {
  owns(text: string): boolean;
  problems(text: string): DraftProblem[];
  /** parses; a draft with a problem is not sent, and the first problem is said with its file and line */
  send(doc: vscode.TextDocument): Promise<void>;
  fold?(text: string): DraftFold | null;
}

const kinds: AnyDraftKind[] = [];
const changed = new vscode.EventEmitter<void>();

/** Fires when a kind comes or goes (open drafts are checked again). */
export const onDidChangeDraftKinds = changed.event;

export function registerDraftKind<D>(kind: DraftKind<D>): vscode.Disposable {
  const any: AnyDraftKind = {
    owns: (text) => kind.owns(text),
    problems: (text) => {
      const parsed = kind.parse(text);
      return parsed.ok ? [] : parsed.problems;
    },
    send: async (doc) => {
      const parsed = kind.parse(doc.getText());
      if (parsed.ok) return kind.send(doc, parsed.draft);
      const first = parsed.problems[0];
      const name = vscode.workspace.asRelativePath(doc.uri);
      void vscode.window.showErrorMessage(`Persona Lab: ${name}:${first.line}: ${first.message}`);
    },
    fold: kind.fold && ((text) => kind.fold!(text)),
  };
  kinds.push(any);
  changed.fire();
  return new vscode.Disposable(() => {
    const at = kinds.indexOf(any);
    if (at >= 0) kinds.splice(at, 1);
    changed.fire();
  });
}

/** The registered kind a draft's text belongs to; undefined: a step draft (core/rerun/draft.ts). */
export function draftKindOf(text: string): AnyDraftKind | undefined {
  return kinds.find((k) => k.owns(text));
}

/** Where a draft goes: saved first (what is sent is what the file holds), the endpoint with the draft's model. */
export async function draftTarget(
  doc: vscode.TextDocument,
  endpoint: EndpointService,
  model: string,
): Promise<ResolvedEndpoint | undefined> {
  if (doc.isDirty) await doc.save();
  const resolved = await endpoint.resolve();
  return resolved && { ...resolved, config: { ...resolved.config, model } };
}
