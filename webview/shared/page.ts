// Page set-up that every webview repeats: its style sheet under the CSP nonce.

/**
 * Adds a bundled style sheet. The page's CSP allows only styles carrying this load's nonce; currentScript is gone
 * once the bundle's first run is over, so later callers read the nonce off the script tag.
 */
export function injectStyle(cssText: string): void {
  const style = document.createElement('style');
  style.nonce =
    (document.currentScript as HTMLScriptElement | null)?.nonce ??
    document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce ??
    '';
  style.textContent = cssText;
  document.head.appendChild(style);
}
