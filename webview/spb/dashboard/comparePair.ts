// The compare view's pair page: one step answered by run A and run B side by side in this panel (flipped tags,
// metric deltas, picks, personas received and written, reasoning, the persona diff), with the way back to the list
// and to the neighbouring rows. Built from the shared side-by-side pieces (../shared/sides.ts). Text only.
import type { PiMark } from '../../../src/core/pi/spans';
import { fieldKey } from '../../../src/core/pi/spans';
import type { RunPairStep } from '../../../src/core/spb/view/runPair';
import { SCOPE_LABELS, type Ref } from '../../../src/shared/spb/dashboardProtocol';
import { deltasBox, flippedBox, personaDiffBox, sideGrid, sideRows, type SideColumn } from '../shared/sides';
import { el, icon } from './dom';

export interface PairNav {
  /** 0-based position of the step in the list's order; -1 when it is not in the list (another scope) */
  index: number;
  total: number;
  back(): void;
  go(delta: -1 | 1): void;
  openStep(ref: Ref, run: string): void;
}

function button(text: string, iconName: string, title: string, onClick: () => void, attrs = {}): HTMLElement {
  const b = el('vscode-button', { text, title, attrs });
  b.icon = iconName;
  b.secondary = true;
  b.addEventListener('click', onClick);
  return b;
}

export function renderPair(p: RunPairStep, pi: Readonly<Record<string, PiMark[]>>, nav: PairNav): HTMLElement {
  const where = `${SCOPE_LABELS[p.ref.platform]} · ${p.ref.userId} · step ${p.ref.stepId}/${p.totalSteps}`;
  const recall = p.metrics.find((m) => m.key === 'Recall');
  const recallText = recall ? ` · R ${recall.beforeText} → ${recall.afterText} (${recall.deltaText})` : '';
  const position = nav.index >= 0 ? `${nav.index + 1} of ${nav.total}` : 'not in this scope';
  const prev = button('Previous', 'arrow-up', 'The row above in the list ([)', () => nav.go(-1), {
    'data-nav': 'prev',
  });
  const next = button('Next', 'arrow-down', 'The row below in the list (])', () => nav.go(1), { 'data-nav': 'next' });
  (prev as HTMLElement & { disabled: boolean }).disabled = nav.index <= 0;
  (next as HTMLElement & { disabled: boolean }).disabled = nav.index < 0 || nav.index >= nav.total - 1;
  const head = el('div', { className: 'pair-head' }, [
    el('div', { className: 'pair-nav' }, [
      button('All Steps', 'arrow-left', 'Back to the list of paired steps (Esc)', nav.back, { 'data-nav': 'back' }),
      el('h2', { className: 'pair-title', text: where }),
      el('span', { className: 'spacer' }),
      prev,
      next,
    ]),
    el('p', {
      className: 'note pair-facts',
      text: `${p.dateInput} → ${p.dateTarget} · ${p.poolSize} candidates, ${p.positives} positive${recallText} · row ${position}`,
    }),
  ]);
  const col = (key: 'a' | 'b', run: string, other: string, model: SideColumn['model']): SideColumn => ({
    key,
    model,
    other,
    head: [
      el('h3', {}, [
        icon(key === 'a' ? 'circle-large-outline' : 'circle-large-filled'),
        ` ${key.toUpperCase()} · ${run}`,
      ]),
      el('div', { className: 'cmp-actions' }, [
        button(
          'Open in Step View',
          'go-to-file',
          `Open this step in ${run}'s own step view (to label it, or to read the posts)`,
          () => nav.openStep(p.ref, run),
          {
            'data-open-run': run,
          },
        ),
      ]),
    ],
  });
  const cols: [SideColumn, SideColumn] = [
    col('a', p.runA, `B (${p.runB})`, p.before),
    col('b', p.runB, `A (${p.runA})`, p.after),
  ];
  const none =
    p.before.hasResult && p.after.hasResult
      ? 'No tag flipped: both runs picked the same pool tags.'
      : 'One of the runs has no result for this step.';
  return el(
    'section',
    {
      className: 'pair-page cmp',
      attrs: {
        'data-pair': `${p.ref.platform}/${p.ref.userId}/${p.ref.stepId}`,
        'aria-label': `${where}: ${p.runA} vs ${p.runB}`,
      },
    },
    [
      // The two answers first (the content); what changed between them after.
      head,
      sideGrid(cols, sideRows(pi)),
      el('div', { className: 'cmp-summary' }, [
        flippedBox(p.flipped, none),
        deltasBox(p.metrics, [`A · ${p.runA}`, `B · ${p.runB}`], p.scored),
      ]),
      personaDiffBox(p.personaDiff, `Persona written: A → B`, (i) => pi[fieldKey.cmpDiff(i)]),
    ],
  );
}
