// The page's side of the VS Code webview host: the API it posts through (typed by what the page may post) and the
// one way it listens, which drops every message its protocol's guard rejects.
import type { Guard } from '../../src/core/guards';

export interface VsCodeApi<Out> {
  postMessage(message: Out): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi<unknown>;

/** The host API. VS Code allows one call per page: call it once, in the page's main module. */
export function vscodeApi<Out>(): VsCodeApi<Out> {
  return acquireVsCodeApi();
}

/** Calls `handle` with each message from the extension that `guard` accepts; others are ignored. */
export function onHostMessage<In>(guard: Guard<In>, handle: (message: In) => void): void {
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const msg = event.data;
    if (guard(msg)) handle(msg);
  });
}
