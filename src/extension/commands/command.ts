// The shape of a format's entries of the command table (table.ts registers them with the generic ones): a factory
// from the features a format's own command may use (FormatCtx) to its handler, and what the command needs open.
// Apart from table.ts, so that a contribution names the shape without importing the open benchmarks.
import type * as vscode from 'vscode';
import type { CapabilityName } from '../../core/formats/descriptor';
import type { DashboardPart } from '../dashboard/part';
import type { LabelPart } from '../labels/part';
import type { TreeApi } from '../tree/api';
import type { CommandId } from './ids';

/** What a format's own commands may use of the generic features (the generic table's Ctx has more). */
export interface FormatCtx {
  tree: TreeApi;
  /** The label part a format's contribution made (its own commands read theirs). */
  labels: { partOf(formatId: string): LabelPart | undefined };
  dashboard: { of(formatId: string): DashboardPart | undefined };
  secrets: vscode.SecretStorage;
}

export type Handler = (...args: unknown[]) => unknown;

/**
 * `loads`: waits for the loads in progress; `own`: also needs a benchmark of the format whose table has the command
 * open; `{ capability }`: one open whose format offers it; `any`: any open benchmark.
 */
export type Needs = 'loads' | 'any' | 'own' | { capability: CapabilityName };

export interface FormatCommand {
  needs?: Needs;
  make(ctx: FormatCtx): Handler;
}

/** A format's entries of the command table. */
export type FormatCommands = { readonly [id in CommandId]?: FormatCommand };
