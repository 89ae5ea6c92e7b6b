// The adjudication section of a labels bar (the step view's and the trace view's): each annotator's labels and notes
// side by side, the gold labels once settled, and the pass's keys, which come before the label set's while the section
// shows (a digit takes that annotator's labels as gold). Every text is the dataset's or a person's: set as text only.
import type { AdjudicationSection } from '../../src/core/labels/adjudication';
import { progressText } from '../../src/core/labels/passProgress';
import { ADJUDICATION_KEYS, adjudicationTakes, type AdjudicateAction } from '../../src/shared/labelProtocol';
import { el } from './dom';
import { isPlainKey } from './keys';
import { injectStyle } from './page';

const CSS = `
.adjudication { border: 1px solid var(--c-border); border-radius: var(--radius); padding: 4px 8px; margin-top: 4px; }
.adjudication .adjudication-head { color: var(--c-muted); }
.adjudication .annotators { display: flex; flex-wrap: wrap; gap: 12px; margin: 4px 0; }
.adjudication .annotator { flex: 1 1 180px; min-width: 0; }
.adjudication .annotator ul { margin: 2px 0; padding-left: 18px; }
.adjudication .notes li { color: var(--c-muted); white-space: pre-wrap; }
.adjudication kbd { font-family: var(--vscode-editor-font-family); border: 1px solid var(--c-border); padding: 0 3px; }
.adjudication[data-state='open'] .gold { font-style: italic; }
/* While the pass shows, the digits take an annotator's labels: the chips do not offer them as their keys. */
.labels-bar:has(> section.adjudication) .label-chip > kbd { display: none; }
`;

const STATE_TEXT: Record<AdjudicationSection['state'], string> = {
  open: 'open: the annotators disagree',
  agreed: 'agreed: every annotator gave these labels (a decision overrides)',
  settled: 'settled',
};

/**
 * The pass's keys on `s` as rows of the `?` sheet (keys space-separated, what they do); the section's key line says
 * the same. While the section shows, the digits are the pass's: they take an annotator's labels, never toggle one.
 */
export function adjudicationKeyRows(s: AdjudicationSection): (readonly [keys: string, what: string])[] {
  return [
    [
      s.annotators.map((a) => String(a.n)).join(' ') || '1',
      "take that annotator's labels as the unit's gold, then go on",
    ],
    [ADJUDICATION_KEYS.set, 'set the gold labels directly (a pick with every label)'],
    [ADJUDICATION_KEYS.undo, `undo the pass's last decision${s.canUndo ? '' : ' (none yet)'}`],
    [ADJUDICATION_KEYS.next, 'next open unit'],
  ];
}

export function renderAdjudication(s: AdjudicationSection): HTMLElement {
  const columns = s.annotators.map((a) =>
    el('div', { className: 'annotator', attrs: { 'data-n': String(a.n), 'data-author': a.author } }, [
      el('div', {}, [el('kbd', { text: String(a.n) }), ' ', el('strong', { className: 'author', text: a.author })]),
      el(
        'ul',
        { className: 'labels' },
        a.labels.length ? a.labels.map((l) => el('li', { text: l })) : [el('li', { text: '(no label)' })],
      ),
      a.notes.length
        ? el(
            'ul',
            { className: 'notes' },
            a.notes.map((n) => el('li', { text: `${n.label} (${n.where}): ${n.note}` })),
          )
        : null,
    ]),
  );
  const gold =
    s.gold === null
      ? 'Gold: not settled'
      : `Gold: ${s.gold.length ? s.gold.join(', ') : 'no label applies'}${s.decidedBy ? ` (decided by ${s.decidedBy})` : ''}`;
  return el('section', { className: 'adjudication', attrs: { 'data-unit': s.unit, 'data-state': s.state } }, [
    el('div', {
      className: 'adjudication-head',
      text: `Adjudicating ${s.scope} · ${STATE_TEXT[s.state]} · ${progressText(s.progress)}`,
    }),
    el('div', { className: 'annotators' }, columns),
    el('div', { className: 'gold', text: gold }),
    el('div', {
      className: 'adjudication-keys',
      text: adjudicationKeyRows(s)
        .map(([keys, what]) => `${keys.split(' ').join('/')} ${what}`)
        .join(' · '),
    }),
  ]);
}

/**
 * The pass's keys, taken before any other key listener of the page (capture on the window) while `current()` gives a
 * section: a digit up to the number of annotators, g, u and `.`; everything else goes on to the labels bar.
 */
export function listenAdjudicationKeys(
  current: () => AdjudicationSection | null | undefined,
  post: (action: AdjudicateAction) => void,
): void {
  injectStyle(CSS);
  window.addEventListener(
    'keydown',
    (e) => {
      const s = current();
      if (!s || !isPlainKey(e) || e.shiftKey || !adjudicationTakes(e.key)) return;
      // Every digit is the pass's while it shows: one past the annotators does nothing rather than label.
      const take: AdjudicateAction['take'] =
        e.key === ADJUDICATION_KEYS.set
          ? 'set'
          : e.key === ADJUDICATION_KEYS.undo
            ? 'undo'
            : e.key === ADJUDICATION_KEYS.next
              ? 'next'
              : Number(e.key);
      e.preventDefault();
      e.stopImmediatePropagation();
      if (typeof take === 'number' && (take < 1 || take > s.annotators.length)) return;
      post({ kind: 'adjudicate', unit: s.unit, take });
    },
    true,
  );
}
