// The dashboard and compare pages: both rendered by dist/webview/dashboard.js, which reads data-page.
import type * as vscode from 'vscode';
import { webviewHtml } from '../../webviewHtml';

export { localRoots, newNonce } from '../../webviewHtml';

export type Page = 'dashboard' | 'compare';

export function dashboardHtml(webview: vscode.Webview, extensionUri: vscode.Uri, nonce: string, page: Page): string {
  return webviewHtml(webview, extensionUri, nonce, {
    title: page === 'dashboard' ? 'Persona Lab dashboard' : 'Persona Lab compare',
    bundle: 'dashboard',
    rootId: 'dash-root',
    rootAttrs: { 'data-page': page },
    placeholder: 'Loading…',
  });
}
