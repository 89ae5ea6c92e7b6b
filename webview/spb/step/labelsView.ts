// Renders the labels bar and decorates the pool's tag chips and the written persona with their labels. Dataset
// text (tags, persona, notes) and label-set text go in as text only (dom.ts).
import type { LabelTarget } from '../../../src/core/labels/model';
import {
  PERSONA_FIELD,
  describeTarget,
  effectiveTarget,
  sameTarget,
  staleText,
  utf16Offset,
  type AppliedLabel,
  type LabelChip,
  type LabelViewState,
} from '../../../src/core/labels/view';
import { CHEAT_SHEET_KEY, type KeyRow } from '../../shared/cheatSheet';
import { el, icon } from '../../shared/dom';
import { appliedItem, chipKeyText, keyRange, keysText, labelChip } from '../../shared/labelChips';
import { serverIcon, serverLine } from '../../shared/labelServer';
import type { StepLocation } from '../../../src/core/spb/view/stepModel';

export interface BarContext {
  state: LabelViewState<StepLocation>;
  /** The tag chip or persona span the next key labels; null: the whole step. */
  selected: LabelTarget | null;
  selectedExcerpt: string;
  /** `e` opens Edit Prompt (the view follows the selected run, not pinned to one). */
  editPrompt: boolean;
  /** The ? button that opens the keys and label guides sheet. */
  sheetButton: HTMLElement;
}

/** The step view's keys besides the label keys (labels.ts and main.ts bind them), for the key icon and the ? sheet. */
export function stepKeys(editPrompt: boolean): KeyRow[] {
  return [
    ['a', 'accept the suggested labels (dashed, with a lightbulb)'],
    ['n', 'note on the label added last'],
    ['u Ctrl+Z', 'undo'],
    ['j ↓', 'next step in the tree’s order, across users'],
    ['k ↑', 'previous step in the tree’s order'],
    ['.', 'next unlabelled step (your next assigned step while a labelling project is active)'],
    ['Esc', 'back to labelling the whole step'],
    ['[ ]', 'previous / next step of this user'],
    ['{ }', 'previous / next user'],
    ...(editPrompt ? ([['e', 'Edit Prompt: this step’s prompt as a draft to edit and re-run']] as const) : []),
    [CHEAT_SHEET_KEY, 'this sheet of keys and label guides'],
  ];
}

export interface BarHandlers {
  toggle(labelId: string): void;
  accept(): void;
  undo(): void;
  clearSelection(): void;
}

/** What a stale label's tooltip says: the parts that changed, when the label stored them. */
const staleHelp = (a: AppliedLabel) => staleText(a.changed, 'the step’s data (pool, split or posts)');

function appliedOn(
  state: LabelViewState<StepLocation>,
  labelId: string,
  target: LabelTarget,
): AppliedLabel | undefined {
  return state.applied.find((a) => a.labelId === labelId && sameTarget(a.target, target));
}

function chip(c: LabelChip, ctx: BarContext, h: BarHandlers): HTMLElement {
  const { state } = ctx;
  const target = effectiveTarget(c.scope, ctx.selected);
  const applied = appliedOn(state, c.id, target);
  const suggestion = state.suggestions.find((s) => s.labelId === c.id);
  const suggested = target.kind === 'step' && !applied && suggestion !== undefined;
  const stale = applied?.staleness === 'stale';
  const count = state.applied.filter((a) => a.labelId === c.id).length;
  const help = [
    `Scope: ${c.scope}. ${chipKeyText(c.key, describeTarget(target, ctx.selectedExcerpt), !!state.adjudication)}`,
    count ? `On this step ${count} time${count === 1 ? '' : 's'} (the step, its tags or persona spans).` : '',
    suggested
      ? `Suggested from the metrics (${suggestion.reason}): not stored until you confirm it (its key, a click, or a for all).`
      : '',
    applied && stale ? staleHelp(applied) : '',
  ]
    .filter(Boolean)
    .join('\n');
  return labelChip(c, { applied: !!applied, stale, suggested, disabled: state.error !== null, help, count }, () =>
    h.toggle(c.id),
  );
}

function appliedEntry(a: AppliedLabel): HTMLElement {
  return appliedItem(a, describeTarget(a.target, a.excerpt), a.target.kind, staleHelp(a));
}

export function renderBar(ctx: BarContext, h: BarHandlers): HTMLElement {
  const { state } = ctx;
  const targetText = describeTarget(ctx.selected ?? { kind: 'step' }, ctx.selectedExcerpt);
  const noteworthy = state.applied.filter(
    (a) => a.target.kind !== 'step' || a.note || a.staleness === 'stale' || !a.known,
  );
  const others = new Map<string, string[]>();
  for (const o of state.others) others.set(o.author, [...(others.get(o.author) ?? []), o.name]);
  const acceptAll = el('button', {
    className: 'link-button',
    text: 'accept all (a)',
    attrs: { type: 'button', tabindex: '-1' },
  });
  acceptAll.addEventListener('click', () => h.accept());
  const clear = el('button', {
    className: 'link-button',
    text: 'whole step (Esc)',
    attrs: { type: 'button', tabindex: '-1' },
  });
  clear.addEventListener('click', () => h.clearSelection());
  return el('section', { className: 'labels-bar', attrs: { 'aria-label': 'Labels', 'data-run': state.run } }, [
    el('div', { className: 'labels-row' }, [
      el('span', { className: 'labels-title', text: 'Labels' }),
      el('span', { className: 'labels-target', attrs: { 'data-target-kind': ctx.selected?.kind ?? 'step' } }, [
        'on ',
        el('b', { text: targetText }),
        ctx.selected ? ' · ' : null,
        ctx.selected ? clear : null,
      ]),
      ...state.labels.map((c) => chip(c, ctx, h)),
      state.suggestions.length ? acceptAll : null,
      el(
        'span',
        {
          className: 'labels-keys',
          title: keysText([
            // While the adjudication pass shows, the digits take an annotator's labels (its section says so).
            ...(state.adjudication ? [] : ([[keyRange(state.labels), 'toggle a label']] as const)),
            ...stepKeys(ctx.editPrompt),
            ['click', 'a pool tag, or select persona text, to label it alone'],
          ]),
          attrs: { tabindex: '0', role: 'note', 'aria-label': 'Label keys' },
        },
        [icon('keyboard')],
      ),
      serverIcon(state.server),
      ctx.sheetButton,
    ]),
    serverLine(state.server),
    state.error ? el('p', { className: 'labels-error', text: `Labelling is unavailable: ${state.error}` }) : null,
    state.labelSetNote ? el('p', { className: 'labels-error', text: state.labelSetNote }) : null,
    noteworthy.length
      ? el('div', { className: 'labels-line applied-list' }, [
          el('span', { className: 'line-title', text: 'Yours:' }),
          ...noteworthy.map(appliedEntry),
        ])
      : null,
    others.size
      ? el('div', { className: 'labels-line others' }, [
          el('span', { className: 'line-title', text: 'Others:' }),
          ...[...others].map(([author, names]) => el('span', { text: `${author}: ${names.join(', ')}` })),
        ])
      : null,
    state.flash
      ? el('p', { className: `labels-flash ${state.flash.kind}`, text: state.flash.text, attrs: { role: 'status' } })
      : null,
  ]);
}

/** Makes the pool's tag chips selectable label targets and shows the labels each carries. */
export function decorateTags(
  root: HTMLElement,
  state: LabelViewState<StepLocation> | undefined,
  selectedTag: string | null,
): void {
  for (const li of root.querySelectorAll<HTMLElement>('[data-section="pool"] li.tag')) {
    const tag = li.querySelector('.tag-text')?.textContent ?? '';
    li.setAttribute('data-label-target', 'tag');
    li.tabIndex = 0;
    li.classList.toggle('label-selected', tag === selectedTag);
    li.setAttribute('aria-pressed', tag === selectedTag ? 'true' : 'false');
    li.querySelector('.tag-labels')?.remove();
    const on = state?.applied.filter((a) => a.target.kind === 'tag' && a.target.tag === tag) ?? [];
    if (on.length) {
      const stale = on.some((a) => a.staleness === 'stale');
      li.appendChild(
        el('span', {
          className: `tag-labels${stale ? ' stale' : ''}`,
          text: `⚑ ${on.map((a) => a.name).join(', ')}${stale ? ' (stale)' : ''}`,
        }),
      );
    }
  }
}

/** The written persona's element, where span labels are made and shown. */
export function personaElement(root: HTMLElement): HTMLElement | null {
  return root.querySelector<HTMLElement>('.persona-box.written .prose:not(.empty)');
}

/**
 * Highlights the spans of the written persona that carry labels (the text itself is unchanged). `render` gives the
 * nodes of a range of the text (its PI marks, pi.ts); plain text by default.
 */
export function decoratePersona(
  root: HTMLElement,
  state: LabelViewState<StepLocation> | undefined,
  text: string,
  render: (from: number, to: number) => Node[] = (from, to) => [document.createTextNode(text.slice(from, to))],
): void {
  const box = personaElement(root);
  if (!box) return;
  const spans = (state?.applied ?? []).flatMap((a) =>
    a.target.kind === 'span' && a.target.field === PERSONA_FIELD && a.excerpt
      ? [{ a, start: utf16Offset(text, a.target.start), end: utf16Offset(text, a.target.end) }]
      : [],
  );
  if (spans.length === 0) {
    if (box.querySelector('mark.label-span')) box.replaceChildren(...render(0, text.length));
    return;
  }
  const cuts = [...new Set([0, text.length, ...spans.flatMap((s) => [s.start, s.end])])].sort((x, y) => x - y);
  const parts: Node[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const [from, to] = [cuts[i], cuts[i + 1]];
    const over = spans.filter((s) => s.start <= from && s.end >= to);
    if (over.length) {
      parts.push(
        el(
          'mark',
          {
            className: 'label-span',
            title: over.map((s) => `${s.a.name}${s.a.note ? ` — ${s.a.note}` : ''}`).join('\n'),
            attrs: { 'data-span-labels': over.map((s) => s.a.labelId).join(' ') },
          },
          render(from, to),
        ),
      );
    } else {
      parts.push(...render(from, to));
    }
  }
  box.replaceChildren(...parts);
}
