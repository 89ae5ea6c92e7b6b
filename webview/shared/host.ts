// The page's side of the VS Code webview host: the API it posts through (typed by what the page may post), the page's
// saved state, and the one way it listens, which drops every message its protocol's guard rejects.
import { isRecord, type Guard } from '../../src/core/guards';
import { FIRST_MESSAGES_ATTR, isFirstMessages } from '../../src/shared/firstMessages';

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

export interface StateApi {
  getState(): unknown;
  setState(state: unknown): void;
}

/** Sets some keys of the page's saved state and keeps the others (open sections, what a reload restores). */
export function mergeState(api: StateApi, part: Record<string, unknown>): void {
  const saved = api.getState();
  api.setState({ ...(typeof saved === 'object' && saved !== null ? saved : {}), ...part });
}

/**
 * The messages the extension wrote into this page's HTML (src/extension/webviewHtml.ts), once: a webview hidden and
 * shown again loads the same HTML, whose messages are then old (the saved state says they were used).
 */
function firstMessages(api: StateApi): readonly unknown[] {
  const raw = document.body.getAttribute(FIRST_MESSAGES_ATTR);
  if (raw === null) return [];
  let first: unknown;
  try {
    first = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!isFirstMessages(first)) return [];
  const saved = api.getState();
  if (isRecord(saved) && saved.firstUsed === first.id) return [];
  mergeState(api, { firstUsed: first.id });
  return first.messages;
}

/**
 * Calls `handle` with each message from the extension that `guard` accepts; others are ignored. With `api`, the
 * messages written into the page's HTML come first (`fromHtml`), once the module that called this has run: its
 * `ready` is posted before they are handled.
 */
export function onHostMessage<In>(
  guard: Guard<In>,
  handle: (message: In, fromHtml: boolean) => void,
  api?: StateApi,
): void {
  if (api) {
    const first = firstMessages(api);
    if (first.length)
      queueMicrotask(() => {
        for (const msg of first) if (guard(msg)) handle(msg, true);
      });
  }
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const msg = event.data;
    if (guard(msg)) handle(msg, false);
  });
}
