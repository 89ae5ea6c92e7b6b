// The dashboard's choices above its tables: what the figures are computed on (the whole benchmark or a sample, and
// which shown runs cover only part of it), and the select element both pages use.
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import type { DashboardModel, WebviewToExtension } from '../../../src/shared/spb/dashboardProtocol';
import { el, icon } from './dom';

type Post = (m: WebviewToExtension) => void;

/** "Computed on": the whole benchmark (the value "") or one of the benchmark's samples. */
export function sampleControls(m: DashboardModel, post: Post): HTMLElement {
  const names = ['', ...m.samples.map((s) => s.name)];
  const users = new Map(m.samples.map((s) => [s.name, s.users]));
  const choice = select(
    names,
    // the chosen one as the model says it ("Whole benchmark" only when every shown run covers all of it)
    (n) =>
      n === (m.sample?.name ?? '')
        ? m.scopeLabel
        : n === ''
          ? 'Whole benchmark'
          : `Sample ${n} (${users.get(n) ?? 0} users)`,
    m.sample?.name ?? '',
    (n) => post({ type: 'setSample', ...(n ? { name: n } : {}) }),
    'Users the tables and figures are computed over',
  );
  choice.dataset.sampleChoice = '';
  const parts: HTMLElement[] = [el('span', { className: 'label', text: 'Computed on:' }), choice];
  if (m.sample) {
    const note = el('span', { className: 'sample-note', attrs: { role: 'status', 'data-sample': m.sample.name } }, [
      icon('beaker'),
      ` On ${m.sample.label}: every table and figure below is over its users only, not the whole-benchmark figure.`,
    ]);
    parts.push(note);
    for (const p of m.sample.problems) parts.push(el('span', { className: 'sample-problem', text: p }));
  }
  const partial = m.selected.filter((run) => m.coverage[run]);
  if (partial.length)
    parts.push(
      el('span', { className: 'coverage-note', attrs: { role: 'status' } }, [
        icon('warning'),
        ` Over part of ${m.sample ? 'the sample' : 'the benchmark'}, not ranked against the others: ${partial.map((run) => `${run} (${m.coverage[run]})`).join('; ')}.`,
      ]),
    );
  return el(
    'div',
    { className: 'run-choice sample-choice', attrs: { role: 'group', 'aria-label': 'Computed on' } },
    parts,
  );
}

/** A vscode-single-select over known values; onChange only ever gets one of them. */
export function select<T extends string>(
  values: readonly T[],
  labels: (v: T) => string,
  value: T,
  onChange: (v: T) => void,
  aria: string,
): HTMLElement {
  const s = el('vscode-single-select', { attrs: { 'aria-label': aria } });
  for (const v of values) {
    const o = el('vscode-option', { text: labels(v), attrs: { value: v } });
    if (v === value) o.selected = true;
    s.appendChild(o);
  }
  s.addEventListener('change', () => {
    const picked = values.find((v) => v === s.value);
    if (picked !== undefined) onChange(picked);
  });
  return s;
}
