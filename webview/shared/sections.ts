// The collapsible sections of the step and trace views, and which of them are open: kept in the webview's state so
// that a reload of the page keeps them.
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import { el, type Child } from './dom';
import { mergeState, type StateApi } from './host';

/** Remembered open state of a section, and a setter called when the user toggles it. */
export interface SectionState {
  isOpen(section: string, byDefault: boolean): boolean;
  setOpen(section: string, open: boolean): void;
}

export function openSections(api: StateApi): SectionState {
  const saved = api.getState();
  const open: Record<string, boolean> =
    typeof saved === 'object' &&
    saved !== null &&
    typeof (saved as { open?: unknown }).open === 'object' &&
    (saved as { open: unknown }).open !== null
      ? (saved as { open: Record<string, boolean> }).open
      : {};
  return {
    isOpen: (id, byDefault) => open[id] ?? byDefault,
    setOpen: (id, value) => {
      open[id] = value;
      mergeState(api, { open });
    },
  };
}

export function section(
  id: string,
  heading: string,
  description: string,
  body: Child[],
  state: SectionState,
  openByDefault = true,
): HTMLElement {
  const c = el('vscode-collapsible', { className: 'section', attrs: { 'data-section': id } }, [
    el('div', { className: 'section-body' }, body),
  ]);
  c.heading = heading;
  c.description = description;
  c.open = state.isOpen(id, openByDefault);
  c.addEventListener('vsc-collapsible-toggle', () => state.setOpen(id, c.open));
  return c;
}
