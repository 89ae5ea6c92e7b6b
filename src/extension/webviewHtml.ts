// The HTML shell every Persona Lab webview uses: a strict CSP with a per-load nonce, the codicon stylesheet and one
// bundle from dist/webview/. Content is rendered by the bundle from messages, as text only: those posted after the
// page's `ready`, and those written into the HTML for its first load (`first`).
import * as vscode from 'vscode';
import { crypto } from '../core/io/builtins';
import { FIRST_MESSAGES_ATTR, type FirstMessages } from '../shared/firstMessages';

export function newNonce(): string {
  return crypto().randomBytes(18).toString('base64');
}

/** Roots a webview may load from: media/ and dist/ of the extension, nothing else. */
export function localRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist')];
}

export interface Shell {
  title: string;
  /** dist/webview/<bundle>.js */
  bundle: string;
  /** id of the element the bundle renders into */
  rootId: string;
  placeholder: string;
  rootAttrs?: Record<string, string>;
  /** Fonts to fetch at once, before the bundle asks for a glyph: webview URIs, exactly as the stylesheet names them. */
  preloadFonts?: string[];
  /** Messages for the page to handle as it starts (src/shared/firstMessages.ts); none when empty. */
  first?: readonly unknown[];
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, nonce: string, shell: Shell): string {
  const asset = (...path: string[]) =>
    webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', ...path)).toString();
  const src = webview.cspSource;
  // Styles: the codicon sheet comes from cspSource; a bundle injects its own CSS in a <style nonce>, and lit's
  // components use constructable stylesheets. No img-src / connect-src / frame-src: default-src 'none' denies them
  // (chart.js draws on a canvas and needs none of them, nor eval).
  const csp = [
    "default-src 'none'",
    `style-src ${src} 'nonce-${nonce}'`,
    `font-src ${src}`,
    `script-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const attrs = Object.entries(shell.rootAttrs ?? {})
    .map(([k, v]) => ` ${k}="${escapeAttr(v)}"`)
    .join('');
  // Dataset text inside: an attribute value, escaped, that the page reads with getAttribute and JSON.parse.
  const first: FirstMessages | undefined = shell.first?.length
    ? { id: newNonce(), messages: [...shell.first] }
    : undefined;
  const bodyAttrs = first ? ` ${FIRST_MESSAGES_ATTR}="${escapeAttr(JSON.stringify(first))}"` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('codicons', 'codicon.css')}" id="vscode-codicon-stylesheet">${(shell.preloadFonts ?? []).map((f) => `\n<link rel="preload" href="${escapeAttr(f)}" as="font" type="font/ttf" crossorigin>`).join('')}
<title>${escapeAttr(shell.title)}</title>
</head>
<body${bodyAttrs}>
<main id="${shell.rootId}"${attrs} aria-live="polite"><p class="placeholder">${escapeAttr(shell.placeholder)}</p></main>
<script nonce="${nonce}" src="${asset('webview', `${shell.bundle}.js`)}"></script>
</body>
</html>`;
}
