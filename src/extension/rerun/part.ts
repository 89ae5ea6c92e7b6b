// A format's part of the re-runs, for a format whose item view re-runs its items (its descriptor lists `rerun`):
// made once the endpoint exists, from what every re-run shares. Its drafts are a kind of draft (draftKinds.ts).
import type * as vscode from 'vscode';
import type { EndpointService } from '../endpoint';

export interface RerunHost {
  endpoint: EndpointService;
}

/**
 * Batch Run… for a format that offers it: its items asked through its core runner, on the shared shell
 * (batchShell.ts). `arg` is the tree row it was run from (the scope), or nothing from the palette.
 */
export interface BatchPart {
  run(arg: unknown): Promise<void>;
}

/** What a format's re-run part leaves to dispose, and its batch runs when it offers them. */
export interface RerunPart extends vscode.Disposable {
  readonly batch?: BatchPart;
}
