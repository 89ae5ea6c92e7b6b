// A format's part of the re-runs, for a format whose item view re-runs its items (its descriptor lists `rerun`):
// made once the endpoint exists, from what every re-run shares. Its drafts are a kind of draft (draftKinds.ts).
import type * as vscode from 'vscode';
import type { EndpointService } from '../endpoint';

export interface RerunHost {
  endpoint: EndpointService;
}

/** What a format's re-run part leaves to dispose. */
export type RerunPart = vscode.Disposable;
