// What every Compare Runs page shares: the buttons for other runs and for swapping A and B, a summary table's head,
// and the cells of B − A and its interval, coloured only when the interval leaves 0 out. The figures' strings are
// the core's (core/stats/pairedTexts.ts); the page says which way is better.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { PairedTexts } from '../../src/core/stats/pairedTexts';
import { el } from './dom';

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
