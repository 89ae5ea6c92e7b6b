// What every compare view's protocol shares (a format's is in src/shared/<format>/compareProtocol.ts): the extension
// answers the page's `ready` with `show` (the format's comparison of run B against run A) or `empty`, and again when
// the benchmark reloads; the page's buttons ask for other runs (`pickRuns`) or a swap (`swapRuns`).
import { message, messages, str, type Guard } from '../core/guards';

/** The extension's messages to a compare page, whose `model` is the format's comparison. */
export const compareToWebview = <M>(model: Guard<M>) =>
  messages(message('show', { model }), message('empty', { message: str }));

/** The page's messages every compare view understands; a format's protocol adds its own (opening an item). */
export const COMPARE_FROM_WEBVIEW = [message('ready'), message('pickRuns'), message('swapRuns')] as const;
