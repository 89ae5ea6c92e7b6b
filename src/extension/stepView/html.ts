// The step view's HTML shell: a strict CSP with a per-load nonce, the codicon stylesheet and the webview bundle.
// All content is rendered by dist/webview/step.js from `show` messages, as text only.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export function newNonce(): string {
  return randomBytes(18).toString('base64');
}

/** Roots the webview may load from: media/ and dist/ of the extension, nothing else. */
export function localRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist')];
}

export function stepViewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, nonce: string): string {
  const asset = (...path: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', ...path)).toString();
  const src = webview.cspSource;
  // Styles: the codicon sheet comes from cspSource; the bundle injects its own CSS in a <style nonce>, and lit's
  // components use constructable stylesheets. No img-src / connect-src / frame-src: default-src 'none' denies them.
  const csp = [
    "default-src 'none'",
    `style-src ${src} 'nonce-${nonce}'`,
    `font-src ${src}`,
    `script-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('codicons', 'codicon.css')}" id="vscode-codicon-stylesheet">
<title>Persona Lab step</title>
</head>
<body>
<main id="step-root" aria-live="polite"><p class="placeholder">Loading step…</p></main>
<script nonce="${nonce}" src="${asset('webview', 'step.js')}"></script>
</body>
</html>`;
}
