// The HTML shell of the dashboard and compare webviews: a strict CSP with a per-load nonce, the codicon sheet and the
// one bundle dist/webview/dashboard.js (chart.js is bundled into it and needs no eval). Content is rendered by the
// bundle from messages, as text only.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export type Page = 'dashboard' | 'compare';

export function newNonce(): string {
  return randomBytes(18).toString('base64');
}

/** Roots the webview may load from: media/ and dist/ of the extension, nothing else. */
export function localRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist')];
}

export function dashboardHtml(webview: vscode.Webview, extensionUri: vscode.Uri, nonce: string, page: Page): string {
  const asset = (...path: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', ...path)).toString();
  const src = webview.cspSource;
  // No img-src / connect-src: chart.js draws on a canvas and sets sizes through the CSSOM (allowed); the bundle's
  // own CSS goes in a <style nonce>; lit components use constructable stylesheets.
  const csp = [
    "default-src 'none'",
    `style-src ${src} 'nonce-${nonce}'`,
    `font-src ${src}`,
    `script-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const title = page === 'dashboard' ? 'Persona Lab dashboard' : 'Persona Lab compare';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('codicons', 'codicon.css')}" id="vscode-codicon-stylesheet">
<title>${title}</title>
</head>
<body>
<main id="dash-root" data-page="${page}" aria-live="polite"><p class="placeholder">Loading…</p></main>
<script nonce="${nonce}" src="${asset('webview', 'dashboard.js')}"></script>
</body>
</html>`;
}
