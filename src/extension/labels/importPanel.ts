// The conflict table of Import Labels: a panel that shows every conflict with both sides and no decision, and
// settles with the decisions once each row has one (Apply), or with nothing (Cancel, or the panel closed). It writes
// nothing itself: the command writes the import after it settles. One at a time: a new import cancels an open one.
import * as vscode from 'vscode';
import { ConflictTable } from '../../core/labels/importTable';
import type { ConflictDecision, ImportConflict } from '../../core/labels/merge';
import {
  LABEL_IMPORT_VIEW_TYPE,
  isWebviewToExtension,
  type ExtensionToWebview,
  type LabelImportModel,
} from '../../shared/labelImportProtocol';
import { log } from '../log';
import { newNonce, webviewHtml } from '../webviewHtml';
import { PanelHost } from '../webviewPanel';

export interface ConflictTableRequest {
  extensionUri: vscode.Uri;
  file: string;
  summary: string;
  additions: number;
  conflicts: readonly ImportConflict[];
  names: ReadonlyMap<string, string>;
}

let open: PanelHost<ExtensionToWebview> | undefined;

/** Resolves with a decision for every conflict, or undefined when the user cancelled (nothing is to be written). */
export function decideConflicts(req: ConflictTableRequest): Promise<Map<string, ConflictDecision> | undefined> {
  open?.panel.dispose();
  const table = new ConflictTable(req.conflicts, req.names);
  let refusal: string | null = null;
  let settle: (d: Map<string, ConflictDecision> | undefined) => void = () => {};
  const settled = new Promise<Map<string, ConflictDecision> | undefined>((resolve) => {
    settle = (d) => {
      settle = () => {};
      resolve(d);
    };
  });
  const name = req.file.split(/[\\/]/).pop() ?? req.file;
  const model = (): LabelImportModel => ({
    file: req.file,
    summary: req.summary,
    additions: req.additions,
    rows: table.rows(),
    decided: table.decidedCount,
    refusal,
  });
  const host: PanelHost<ExtensionToWebview> = new PanelHost<ExtensionToWebview>({
    viewType: LABEL_IMPORT_VIEW_TYPE,
    title: `Import Labels: ${name}`,
    viewColumn: vscode.ViewColumn.Active,
    extensionUri: req.extensionUri,
    html: (webview) =>
      webviewHtml(webview, req.extensionUri, newNonce(), {
        title: 'Persona Lab: Import Labels',
        bundle: 'labelimport',
        rootId: 'labelimport-root',
        placeholder: 'Loading the conflicts…',
      }),
    onMessage: (raw) => {
      if (!isWebviewToExtension(raw)) {
        log.warn('label import: ignored an unknown message from the webview');
        return;
      }
      switch (raw.type) {
        case 'ready':
          break;
        case 'decide':
          if (!table.decide(raw.id, raw.decision)) log.warn(`label import: no conflict ${raw.id}`);
          refusal = null;
          break;
        case 'decideRest':
          table.decideRest(raw.decision);
          refusal = null;
          break;
        case 'apply': {
          const check = table.apply();
          if (check.ok) {
            log.info(`label import: ${check.decisions.size} conflict(s) decided for ${req.file}`);
            settle(check.decisions);
            host.panel.dispose();
            return;
          }
          refusal = check.message;
          log.info(`label import: apply refused, ${check.undecided.length} conflict(s) undecided`);
          break;
        }
        case 'cancel':
          host.panel.dispose();
          return;
      }
      host.post({ type: 'show', model: model() });
    },
    onDispose: () => {
      if (open === host) open = undefined;
      settle(undefined);
    },
  });
  open = host;
  return settled;
}
