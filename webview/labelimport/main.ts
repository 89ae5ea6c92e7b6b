// Import Labels' conflict table: one row per conflicting target with both sides in full and a decision that starts
// empty (no radio checked). Apply asks the extension to write; it refuses, saying why, while a row is undecided.
// Cancel writes nothing. The extension holds the decisions: each `show` patches the rows in place, so that focus and
// scroll stay where the user is. Dataset text (labels, notes, authors, ids) is set as text only.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-radio/index.js';
import '@vscode-elements/elements/dist/vscode-radio-group/index.js';
import {
  CONFLICT_DECISIONS,
  DECISION_TEXT,
  isExtensionToWebview,
  type ConflictSideLabel,
  type ConflictTableRow,
  type LabelImportModel,
  type WebviewToExtension,
} from '../../src/shared/labelImportProtocol';
import baseCss from '../shared/base.css';
import { el, icon } from '../shared/dom';
import { onHostMessage, vscodeApi } from '../shared/host';
import { injectStyle } from '../shared/page';
import css from './labelimport.css';

const vscode = vscodeApi<WebviewToExtension>();
const root = document.getElementById('labelimport-root') ?? document.body;
injectStyle(`${baseCss}\n${css}`);

type Radio = HTMLElementTagNameMap['vscode-radio'];
type Button = HTMLElementTagNameMap['vscode-button'];

const STATUS_TEXT: Record<'mine' | 'theirs', Record<ConflictSideLabel['status'], string>> = {
  mine: { same: '', note: 'note differs', only: 'not in the file' },
  theirs: { same: '', note: 'note differs', only: 'not in your database' },
};

function side(labels: readonly ConflictSideLabel[], which: 'mine' | 'theirs'): HTMLElement {
  if (labels.length === 0) return el('span', { className: 'empty', text: '(none)' });
  return el(
    'ul',
    { className: 'side' },
    labels.map((l) =>
      el('li', { attrs: { 'data-label-id': l.label, 'data-status': l.status } }, [
        el('span', { className: 'label-name', text: l.name, title: l.label }),
        STATUS_TEXT[which][l.status] && el('span', { className: 'status', text: STATUS_TEXT[which][l.status] }),
        l.line !== undefined && el('span', { className: 'line', text: `line ${l.line}` }),
        l.note
          ? el('div', { className: 'note prose', text: l.note })
          : l.status === 'note' && el('div', { className: 'note empty', text: '(no note)' }),
      ]),
    ),
  );
}

function decisionCell(row: ConflictTableRow): HTMLElement {
  const group = el('vscode-radio-group', {
    attrs: { variant: 'vertical', 'aria-label': `Decision for row ${row.index}` },
  });
  for (const d of CONFLICT_DECISIONS) {
    const radio = el('vscode-radio', {
      text: DECISION_TEXT[d].label,
      title: DECISION_TEXT[d].detail,
      attrs: { name: `conflict-${row.index}`, value: d, 'data-decision': d },
    });
    group.appendChild(radio);
  }
  const post = () => {
    const checked = [...group.querySelectorAll<Radio>('vscode-radio')].find((r) => r.checked);
    const decision = CONFLICT_DECISIONS.find((d) => d === checked?.value);
    if (decision) vscode.postMessage({ type: 'decide', id: row.id, decision });
  };
  group.addEventListener('change', post);
  // The group's arrow keys check a radio without a change event; its own handler has run by now.
  group.addEventListener('keydown', (e) => {
    if (e.key.startsWith('Arrow')) post();
  });
  return group;
}

function tableRow(row: ConflictTableRow): HTMLTableRowElement {
  return el('tr', { attrs: { 'data-conflict-id': row.id, 'data-row': String(row.index) } }, [
    el('td', { className: 'num', text: String(row.index) }),
    el('th', { attrs: { scope: 'row' }, title: row.title }, [
      el('div', { className: 'where', text: row.where }),
      el('div', { className: 'target', text: row.target }),
    ]),
    el('td', { className: 'author', text: row.author }),
    el('td', { className: 'mine' }, [side(row.mine, 'mine')]),
    el('td', { className: 'theirs' }, [side(row.theirs, 'theirs')]),
    el('td', { className: 'decision' }, [decisionCell(row)]),
  ]);
}

function button(text: string, iconName: string, onClick: () => void, secondary = false): Button {
  const b = el('vscode-button', { text });
  b.icon = iconName;
  b.secondary = secondary;
  b.addEventListener('click', onClick);
  return b;
}

let shownIds = '';

function build(m: LabelImportModel): void {
  const bulk = el('div', { className: 'bulk' }, [
    el('span', { className: 'bulk-text' }),
    ...CONFLICT_DECISIONS.map((d) => {
      const b = button(DECISION_TEXT[d].label, '', () => vscode.postMessage({ type: 'decideRest', decision: d }), true);
      b.dataset.rest = d;
      b.title = `${DECISION_TEXT[d].label} on every row without a decision: ${DECISION_TEXT[d].detail}`;
      return b;
    }),
  ]);
  root.replaceChildren(
    el('header', { className: 'page-header' }, [
      el('h1', {}, [icon('cloud-download'), ' Import Labels']),
      el('p', { className: 'file', text: m.file }),
      el('p', { className: 'summary', text: m.summary }),
      el('p', {
        className: 'explain',
        text:
          'Nothing is written until you apply. Decide each conflict below: Keep mine, Take theirs or Keep both. ' +
          `${m.additions} new label(s) without a conflict are added as they are. Cancel writes nothing.`,
      }),
      el('div', { className: 'actions' }, [
        button('Apply Import', 'check', () => vscode.postMessage({ type: 'apply' })),
        button('Cancel', 'close', () => vscode.postMessage({ type: 'cancel' }), true),
        el('span', { className: 'progress', attrs: { role: 'status' } }),
      ]),
      el('p', { className: 'refusal', attrs: { role: 'alert' } }),
      bulk,
    ]),
    el('table', { className: 'conflicts' }, [
      el('thead', {}, [
        el(
          'tr',
          {},
          ['#', 'Target', 'Author', 'Mine (your database)', 'Theirs (the file)', 'Decision'].map((h) =>
            el('th', { text: h, attrs: { scope: 'col' } }),
          ),
        ),
      ]),
      el('tbody', {}, m.rows.map(tableRow)),
    ]),
  );
}

/** Brings the page to `m`: the rows' decisions, the count, the refusal. */
function patch(m: LabelImportModel): void {
  const undecided = m.rows.length - m.decided;
  root.dataset.undecided = String(undecided);
  root.querySelector('.progress')!.textContent = `${m.decided} of ${m.rows.length} conflict(s) decided`;
  const refusal = root.querySelector<HTMLElement>('.refusal')!;
  refusal.replaceChildren(...(m.refusal ? [icon('error'), ` ${m.refusal}`] : []));
  refusal.hidden = !m.refusal;
  const bulk = root.querySelector<HTMLElement>('.bulk')!;
  bulk.hidden = undecided === 0;
  bulk.querySelector('.bulk-text')!.textContent = `Decide the ${undecided} undecided row(s) at once:`;
  for (const row of m.rows) {
    const tr = root.querySelector<HTMLTableRowElement>(`tr[data-row="${row.index}"]`);
    if (!tr) continue;
    tr.dataset.decision = row.decision ?? '';
    tr.classList.toggle('missing', m.refusal !== null && row.decision === null);
    for (const r of tr.querySelectorAll<Radio>('vscode-radio')) r.checked = r.value === row.decision;
  }
}

onHostMessage(isExtensionToWebview, (msg) => {
  const ids = msg.model.rows.map((r) => r.id).join('\n');
  if (ids !== shownIds || !root.querySelector('table.conflicts')) build(msg.model);
  shownIds = ids;
  patch(msg.model);
});

vscode.postMessage({ type: 'ready' });
