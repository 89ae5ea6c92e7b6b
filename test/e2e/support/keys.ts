// Keys go to whatever has the keyboard focus when they are dispatched, and the focus often moves a moment after the
// action that gives it: a click in an editor, a quick input that closes and hands it back, a webview that takes it
// from its own focus handler. Keys typed before it lands go elsewhere (or are lost), only on a busy machine. So keys
// are typed through here: first `target` must say it has the focus (it holds its document's active element, or is
// it, and that document has the focus), then the keys go.
import type { Locator } from 'playwright-core';
import { waitFor } from './wait';

/** Waits until `target` (an element of the page or of a webview frame) has the keyboard focus. */
export async function waitForFocus(target: Locator, opts: { timeout?: number; what?: string } = {}): Promise<void> {
  await waitFor(
    () =>
      target
        .first()
        .evaluate(
          (el) => {
            const doc = el.ownerDocument;
            // A context menu lives in a shadow root: the document's active element is then its host, so the focus is
            // followed down into open shadow roots to the element that holds it.
            let active = doc.activeElement;
            while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
            return doc.hasFocus() && active !== null && (el === active || el.contains(active));
          },
          undefined,
          { timeout: 1_000 },
        )
        .catch(() => false),
    {
      timeout: opts.timeout ?? 15_000,
      message: () => `${opts.what ?? String(target)} to have the keyboard focus`,
    },
  );
}

/** Presses `keys` one after the other, once `target` has the focus. */
export async function pressIn(target: Locator, ...keys: string[]): Promise<void> {
  await waitForFocus(target);
  for (const key of keys) await target.page().keyboard.press(key);
}

/** Types `text` (key by key), once `target` has the focus. */
export async function typeInto(target: Locator, text: string): Promise<void> {
  await waitForFocus(target);
  await target.page().keyboard.type(text);
}

/** Inserts `text` as one input event (for text no key produces), once `target` has the focus. */
export async function insertInto(target: Locator, text: string): Promise<void> {
  await waitForFocus(target);
  await target.page().keyboard.insertText(text);
}
