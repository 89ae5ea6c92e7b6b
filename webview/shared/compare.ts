// What every Compare Runs page shares: the buttons for other runs and for swapping A and B, a summary table's head,
// and the cells of B − A and its interval, coloured only when the interval leaves 0 out; and the page's loop: its
// sheets, `show` or `empty` from the extension, then `ready`. The figures' strings are the core's
// (core/stats/pairedTexts.ts); the page says which way is better.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { Guard } from '../../src/core/guards';
import type { PairedTexts } from '../../src/core/stats/pairedTexts';
import { el, type Child } from './dom';
import { onHostMessage, vscodeApi } from './host';
import { injectStyle } from './page';
import baseCss from './base.css';
import compareCss from './compare.css';
import reportCss from './report.css';

export type CompareAction = { type: 'pickRuns' } | { type: 'swapRuns' };

function button(text: string, icon: string, onClick: () => void): HTMLElement {
  const b = el('vscode-button', { text });
  b.icon = icon;
  b.secondary = true;
  b.addEventListener('click', onClick);
  return b;
}

export function compareActions(post: (m: CompareAction) => void): HTMLElement {
  return el('div', { className: 'actions' }, [
    button('Compare Other Runs…', 'git-compare', () => post({ type: 'pickRuns' })),
    button('Swap A and B', 'arrow-swap', () => post({ type: 'swapRuns' })),
  ]);
}

/** A table's head from [text, hover text] pairs. */
export function tableHead(heads: readonly (readonly [string, string])[]): HTMLElement {
  return el('thead', {}, [
    el(
      'tr',
      {},
      heads.map(([text, title]) => el('th', { text, title })),
    ),
  ]);
}

export const compareCell = (col: string, text: string, attrs: Record<string, string> = {}): HTMLElement =>
  el('td', { text, attrs: { 'data-col': col, ...attrs } });

/** The Δ and interval cells; `lowerIsBetter` for an error, where a fall is the gain. */
export function differenceCells(t: PairedTexts, diff: number | null, lowerIsBetter = false): HTMLElement[] {
  const up = diff !== null && diff > 0;
  const sign = diff === null || diff === 0 ? 'none' : up !== lowerIsBetter ? 'gain' : 'loss';
  const attrs = { 'data-clear': String(t.clear), 'data-sign': sign };
  return [compareCell('diff', t.diff, attrs), compareCell('interval', t.interval, attrs)];
}

type ShowOrEmpty<M> = { type: 'show'; model: M } | { type: 'empty'; message: string };

/**
 * Runs a compare page in the element `rootId`: each `show` replaces it with what `render` makes of the comparison
 * (its runs in `data-runs`, `data-state="shown"`), each `empty` with the message; `render` posts the page's messages.
 */
export function startComparePage<M extends { runA: string; runB: string }, Out>(o: {
  rootId: string;
  css: string;
  accepts: Guard<ShowOrEmpty<M>>;
  render(model: M, post: (msg: Out | CompareAction) => void): Child[];
}): void {
  const vscode = vscodeApi<Out | CompareAction | { type: 'ready' }>();
  const root = document.getElementById(o.rootId) ?? document.body;
  injectStyle(`${baseCss}\n${reportCss}\n${compareCss}\n${o.css}`);
  const post = (msg: Out | CompareAction) => vscode.postMessage(msg);
  onHostMessage(o.accepts, (msg) => {
    if (msg.type === 'show') {
      root.replaceChildren(...o.render(msg.model, post).filter((c): c is Node | string => !!c));
      root.dataset.state = 'shown';
      root.dataset.runs = `${msg.model.runA} ${msg.model.runB}`;
    } else {
      root.replaceChildren(el('p', { className: 'placeholder', text: msg.message }));
      root.dataset.state = 'empty';
    }
  });
  vscode.postMessage({ type: 'ready' });
}
