// The kinds of prompt draft the formats' re-runs register (one file extension and language for all, told apart by
// their header): how a kind is recognised, its problems as typed, what Ctrl+Enter does with it, the block folded when
// it opens and the commands above it. A kind that owns its drafts by their header is asked first; a fallback kind
// (registerFallbackDraftKind) reads the drafts no header kind owns. The draft editor (draftEditor.ts) asks here and
// never names a format.
import * as vscode from 'vscode';
import type { DraftProblem } from '../../core/rerun/draft';
import type { EndpointService, ResolvedEndpoint } from '../endpoint';

/** 0-based lines: `start`..`end` fold; `edit` is where the cursor goes. */
export interface DraftFold {
  start: number;
  end: number;
  edit: number;
}

/** A command shown above a draft of the kind (a code lens), run with the draft's uri. */
export interface DraftCommand {
  title: string;
  tooltip: string;
  command: string;
}

export type DraftKindParse<D> = { ok: true; draft: D } | { ok: false; problems: DraftProblem[] };

/** A kind asked only when no kind owns the draft by its header. */
export interface FallbackDraftKind<D> {
  /** the draft, or its problems, each on its line */
  parse(text: string): DraftKindParse<D>;
  /** Ctrl+Enter on a draft that parsed */
  send(doc: vscode.TextDocument, draft: D): Promise<void>;
  /** the block folded when the draft opens, and where editing starts */
  fold?(text: string): DraftFold | null;
  /** shown above its drafts after Re-run */
  commands?: readonly DraftCommand[];
}

export interface DraftKind<D> extends FallbackDraftKind<D> {
  owns(text: string): boolean;
}

/** A registered kind, whatever its draft's type. */
export interface AnyDraftKind {
  problems(text: string): DraftProblem[];
  /** parses; a draft with a problem is not sent, and the first problem is said with its file and line */
  send(doc: vscode.TextDocument): Promise<void>;
  fold?(text: string): DraftFold | null;
  readonly commands: readonly DraftCommand[];
}

interface Registered extends AnyDraftKind {
  owns(text: string): boolean;
}

const owning: Registered[] = [];
const fallbacks: Registered[] = [];
const changed = new vscode.EventEmitter<void>();

/** Fires when a kind comes or goes (open drafts are checked again). */
export const onDidChangeDraftKinds = changed.event;

function register<D>(list: Registered[], kind: FallbackDraftKind<D>, owns: (text: string) => boolean) {
  const any: Registered = {
    owns,
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
    commands: kind.commands ?? [],
  };
  list.push(any);
  changed.fire();
  return new vscode.Disposable(() => {
    const at = list.indexOf(any);
    if (at >= 0) list.splice(at, 1);
    changed.fire();
  });
}

/** A kind that owns its drafts by their header. */
export function registerDraftKind<D>(kind: DraftKind<D>): vscode.Disposable {
  return register(owning, kind, (text) => kind.owns(text));
}

/** The kind of the drafts no header kind owns; with several, the first registered is asked. */
export function registerFallbackDraftKind<D>(kind: FallbackDraftKind<D>): vscode.Disposable {
  return register(fallbacks, kind, () => true);
}

/** The kind a draft's text belongs to: the first that owns it by its header, else the fallback; undefined: none. */
export function draftKindOf(text: string): AnyDraftKind | undefined {
  return owning.find((k) => k.owns(text)) ?? fallbacks[0];
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
