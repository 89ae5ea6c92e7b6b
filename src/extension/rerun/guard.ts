// The re-run guard's shell: reads personaLab.privacy.*, scans what is about to be sent (core/pi/guard) and, when it
// holds residual PI, asks with a modal: Send Anyway, Mask and Send, or Cancel (nothing is sent).
import * as vscode from 'vscode';
import {
  decideGuard,
  guardApplies,
  guardQuestion,
  parseGuardSettings,
  scanOutgoingAsync,
  type GuardSettings,
  type OutgoingPrompt,
} from '../../core/pi/guard';
import type { ResolvedEndpoint } from '../endpoint';
import { effective } from '../endpoint/settings';
import { log } from '../log';

export const PRIVACY_SECTION = 'personaLab.privacy';

/** Both settings are restricted (package.json): an untrusted workspace cannot turn the guard off. */
export function readGuardSettings(): GuardSettings {
  const config = vscode.workspace.getConfiguration(PRIVACY_SECTION);
  const trusted = vscode.workspace.isTrusted;
  return parseGuardSettings(
    effective(config.inspect('remoteGuard'), true, trusted),
    effective(config.inspect('guardLoopback'), true, trusted),
  );
}

export type GuardChoice = 'send' | 'mask';

const SEND: vscode.MessageItem = { title: 'Send Anyway' };
const MASK: vscode.MessageItem = { title: 'Mask and Send' };
const CANCEL: vscode.MessageItem = { title: 'Cancel', isCloseAffordance: true };

/**
 * Whether the prompts may go to the endpoint, and how: 'send' as they are, 'mask' with each finding replaced by its
 * placeholder; undefined: the user cancelled, send nothing. `prompts` is only rendered when the guard applies.
 */
export async function guardPrompts(
  target: ResolvedEndpoint,
  prompts: () => OutgoingPrompt[] | Promise<OutgoingPrompt[]>,
  what: string,
): Promise<GuardChoice | undefined> {
  const settings = readGuardSettings();
  if (!guardApplies(target.config.baseURL, settings)) return 'send';
  const list = await prompts();
  const many = list.length > 100;
  const scan = await vscode.window.withProgress(
    {
      location: many ? vscode.ProgressLocation.Notification : vscode.ProgressLocation.Window,
      title: `Persona Lab: scanning ${list.length} prompt${list.length === 1 ? '' : 's'} for PI`,
      cancellable: many,
    },
    (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      let shown = 0;
      return scanOutgoingAsync(list, {
        signal: abort.signal,
        onProgress: (done, total) => {
          const pct = Math.floor((100 * done) / total);
          progress.report({ message: `${done}/${total}`, increment: pct - shown });
          shown = pct;
        },
      });
    },
  );
  if (!scan) {
    log.info(`guard: ${what}: scan cancelled, nothing sent`);
    return undefined;
  }
  const action = decideGuard(settings, scan);
  log.info(
    `guard: ${what}: ${scan.findings.length} finding(s) in ${scan.affected}/${scan.prompts} prompt(s) → ${action}`,
  );
  if (action === 'mask')
    vscode.window.setStatusBarMessage(`Persona Lab: ${scan.findings.length} PI finding(s) masked before sending`, 8000);
  if (action !== 'ask') return action;
  const q = guardQuestion(scan, target.label || target.publicURL);
  // The first item is the dialog's primary (Enter) button: the safe choice that still sends.
  const choice = await vscode.window.showWarningMessage(
    `Persona Lab: ${q.message}`,
    { modal: true, detail: q.detail },
    MASK,
    SEND,
    CANCEL,
  );
  const result = choice === SEND ? 'send' : choice === MASK ? 'mask' : undefined;
  log.info(`guard: ${what}: the user chose ${result ?? 'cancel'}`);
  return result;
}
