// Page set-up that every webview repeats: its style sheet under the CSP nonce, and which sections are open.

/**
 * Adds a bundled style sheet. The page's CSP allows only styles carrying this load's nonce; currentScript is gone
 * once the bundle's first run is over, so later callers read the nonce off the script tag.
 */
export function injectStyle(cssText: string): void {
  const style = document.createElement('style');
  style.nonce = (document.currentScript as HTMLScriptElement | null)?.nonce ?? document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce ?? '';
  style.textContent = cssText;
  document.head.appendChild(style);
}

interface StateApi {
  getState(): unknown;
  setState(state: unknown): void;
}

/** Which collapsible sections are open, kept in the webview's state so that a reload keeps them. */
export function openSections(api: StateApi): { isOpen(id: string, byDefault: boolean): boolean; setOpen(id: string, open: boolean): void } {
  const saved = api.getState();
  const open: Record<string, boolean> =
    typeof saved === 'object' && saved !== null && typeof (saved as { open?: unknown }).open === 'object' && (saved as { open: unknown }).open !== null
      ? (saved as { open: Record<string, boolean> }).open
      : {};
  return {
    isOpen: (id, byDefault) => open[id] ?? byDefault,
    setOpen: (id, value) => {
      open[id] = value;
      api.setState({ open });
    },
  };
}
