// The labels bar's word on the team's label server, alike in the step view and the trace view: a cloud icon while
// everything is sent (its tooltip names the server), a line while changes wait here or the server is away.
import type { LabelServerLine } from '../../src/shared/labelProtocol';
import { el, icon } from './dom';

/** The icon at the end of the bar's first row when the server has everything; else null. */
export function serverIcon(s: LabelServerLine | null): HTMLElement | null {
  if (!s || s.state !== 'online' || s.pending > 0) return null;
  return el('span', { className: 'labels-server-ok', title: s.text, attrs: { role: 'img', 'aria-label': s.text } }, [
    icon('cloud'),
  ]);
}

/** The line under the bar's first row while changes wait or the server cannot be used; else null. */
export function serverLine(s: LabelServerLine | null): HTMLElement | null {
  if (!s || (s.state === 'online' && s.pending === 0)) return null;
  const away = s.state === 'offline' || s.state === 'error';
  return el('p', { className: 'labels-server', attrs: { 'data-state': s.state, role: 'status' } }, [
    icon(away ? 'debug-disconnect' : 'sync'),
    ' ',
    s.text,
  ]);
}
