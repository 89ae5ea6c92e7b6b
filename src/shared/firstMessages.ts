// The messages an extension panel writes into its page's HTML for the page's first load (webviewPanel.ts's deferred
// load), so that the page shows them as it starts instead of one round trip after its `ready`. Read by
// webview/shared/host.ts; each message still passes the page's protocol guard there.
import { array, object, str, type Infer } from '../core/guards';

/** The <body> attribute that holds them, as JSON. */
export const FIRST_MESSAGES_ATTR = 'data-first-messages';

/** `id`: new with each HTML, so that a page loaded again from the same HTML knows it has used them. */
export const isFirstMessages = object({ id: str, messages: array });
export type FirstMessages = Infer<typeof isFirstMessages>;
