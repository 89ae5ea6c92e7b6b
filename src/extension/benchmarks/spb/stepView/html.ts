// The step view's page: rendered by dist/webview/step.js from `show` messages, the first of them written into the
// HTML (the panel is made with its step at hand: it paints without waiting for a round trip after its `ready`).
// The codicon font is preloaded: it is otherwise requested only when the first step's icons are laid out, and arrived
// after that step was painted.
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { webviewHtml } from '../../../webviewHtml';
import type { ExtensionToWebview } from '../../../../shared/spb/stepViewProtocol';

export { localRoots, newNonce } from '../../../webviewHtml';

let codiconFont: string | null | undefined;

/** The font file as dist/codicons/codicon.css names it (its query string included, or the preload is not used). */
function codiconFontName(extensionUri: vscode.Uri): string | null {
  if (codiconFont === undefined) {
    try {
      const css = readFileSync(vscode.Uri.joinPath(extensionUri, 'dist', 'codicons', 'codicon.css').fsPath, 'utf8');
      codiconFont = /url\("\.\/(codicon\.ttf(?:\?[0-9a-z]*)?)"\)/.exec(css)?.[1] ?? null;
    } catch {
      codiconFont = null;
    }
  }
  return codiconFont;
}

export function stepViewHtml(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  nonce: string,
  first?: readonly ExtensionToWebview[],
): string {
  const font = codiconFontName(extensionUri);
  const [file, query] = (font ?? '').split('?');
  const fontUri = font && webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'codicons', file));
  return webviewHtml(webview, extensionUri, nonce, {
    title: 'Persona Lab step',
    bundle: 'step',
    rootId: 'step-root',
    placeholder: 'Loading step…',
    preloadFonts: fontUri ? [`${fontUri.toString()}${query ? `?${query}` : ''}`] : [],
    first,
  });
}
