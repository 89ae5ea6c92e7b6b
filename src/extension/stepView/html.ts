// The step view's page: rendered by dist/webview/step.js from `show` messages.
import type * as vscode from 'vscode';
import { webviewHtml } from '../webviewHtml';

export { localRoots, newNonce } from '../webviewHtml';

export function stepViewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, nonce: string): string {
  return webviewHtml(webview, extensionUri, nonce, {
    title: 'Persona Lab step',
    bundle: 'step',
    rootId: 'step-root',
    placeholder: 'Loading step…',
  });
}
