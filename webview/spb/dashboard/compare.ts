// The compare page: paired summary of run B against run A (mean difference, 95 % bootstrap CI over users,
// win/tie/loss) and the steps sorted by the biggest regression or gain; a row shows that step of both runs side by
// side in this page (comparePair.ts), and Esc comes back to the list where it was.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { FlippedTag } from '../../../src/core/spb/score/runCompare';
import { GROUP_LABELS } from '../../../src/core/spb/view/stepText';
import { METRIC_KEYS, type MetricKey } from '../../../src/core/spb/types';
import {
  METRIC_LABELS,
  SCOPE_LABELS,
  type CompareModel,
  type CompareRow,
  type Ref,
  type Scope,
  type SortOrder,
  type SummaryRow,
  type WebviewToExtension,
} from '../../../src/shared/spb/dashboardProtocol';
import { select } from './controls';
import { el, help, icon, pct, pts } from './dom';
import { VirtualList } from '../../shared/vlist';
import { METRIC_NAMES } from '../../../src/core/spb/names';
import type { PiMark } from '../../../src/core/pi/spans';
import type { RunPairStep } from '../../../src/core/spb/view/runPair';
import { isPlainKey } from '../../shared/keys';
import { renderPair } from './comparePair';
import { elideMiddle } from '../../../src/core/elide';

type Post = (m: WebviewToExtension) => void;

/** +1 when B is better, −1 when worse, 0 for no change or undefined. */
function direction(delta: number | null, higherIsBetter: boolean): number {
  if (delta === null || Math.abs(delta) < 1e-12) return 0;
  return delta > 0 === higherIsBetter ? 1 : -1;
}
const DIR_CLASS = ['worse', 'same', 'better'];

function button(text: string, iconName: string, title: string, onClick: () => void): HTMLElement {
  const b = el('vscode-button', { text, title });
  b.icon = iconName;
  b.secondary = true;
  b.addEventListener('click', onClick);
  return b;
}

const refKey = (r: Ref) => `${r.platform}/${r.userId}/${r.stepId}`;

export class ComparePage {
  private model: CompareModel | undefined;
  private readonly list: VirtualList<CompareRow>;
  private readonly listPage = el('div', { className: 'list-page' });
  private readonly pairHost = el('div', { className: 'pair-host' });
  /** the step shown side by side (null: the list shows) and its last answer from the extension */
  private pairRef: Ref | null = null;
  private pair: { model: RunPairStep; pi: Record<string, PiMark[]> } | { missing: string } | null = null;
  private listScroll = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly post: Post,
    /** the shown pair changed (main.ts keeps it in the page state, for Reload Window) */
    private readonly onPairChange: (ref: Ref | null) => void = () => {},
  ) {
    this.list = new VirtualList<CompareRow>({
      rowHeight: 46,
      maxHeight: 560,
      label: 'Paired steps',
      key: (r) => `${r.platform}/${r.userId}/${r.stepId}`,
      render: (r, _i, row) => this.renderRow(r, row),
      onOpen: (r) => this.openPair({ platform: r.platform, userId: r.userId, stepId: r.stepId }),
    });
    document.addEventListener('keydown', (e) => {
      if (!this.pairRef || !isPlainKey(e)) return;
      const act = { Escape: () => this.back(), ']': () => this.go(1), '[': () => this.go(-1) }[e.key];
      if (!act) return;
      e.preventDefault();
      act();
    });
  }

  show(model: CompareModel): void {
    this.model = model;
    this.render();
  }

  /** Shows `ref` of both runs side by side (the extension answers with `pair`). */
  openPair(ref: Ref): void {
    if (!this.pairRef) this.listScroll = this.list.element.scrollTop;
    this.pairRef = ref;
    this.pair = null;
    this.post({ type: 'openPair', ref });
    this.onPairChange(ref);
    this.showPage();
  }

  showPair(model: RunPairStep, pi: Record<string, PiMark[]>): void {
    if (!this.pairRef || refKey(this.pairRef) !== refKey(model.ref)) return;
    this.pair = { model, pi };
    this.showPage();
  }

  pairMissing(ref: Ref, message: string): void {
    if (!this.pairRef || refKey(this.pairRef) !== refKey(ref)) return;
    this.pair = { missing: message };
    this.showPage();
  }

  private back(): void {
    const shown = this.pairRef;
    this.pairRef = null;
    this.pair = null;
    this.post({ type: 'closePair' });
    this.onPairChange(null);
    this.showPage();
    this.list.element.scrollTop = this.listScroll;
    // The row last shown (] and [ may have moved on) becomes the active one, in view.
    const i = shown ? (this.model?.rows ?? []).findIndex((r) => refKey(r) === refKey(shown)) : -1;
    if (i >= 0) this.list.reveal(i);
    else this.list.refresh();
    this.list.element.focus();
  }

  /** The row `delta` away from the shown one, in the list's order. */
  private go(delta: -1 | 1): void {
    const rows = this.model?.rows ?? [];
    const i = this.pairRef ? rows.findIndex((r) => refKey(r) === refKey(this.pairRef!)) : -1;
    const to = rows[i + delta];
    if (i >= 0 && to) this.openPair({ platform: to.platform, userId: to.userId, stepId: to.stepId });
  }

  /** The list, or the pair page in its place (the header stays). */
  private showPage(): void {
    const ref = this.pairRef;
    this.listPage.hidden = ref !== null;
    this.pairHost.hidden = ref === null;
    this.root.dataset.view = ref ? 'pair' : 'list';
    if (!ref) return;
    const rows = this.model?.rows ?? [];
    const p = this.pair;
    if (p === null) {
      this.pairHost.replaceChildren(el('p', { className: 'placeholder', text: 'Loading both runs’ answers…' }));
      return;
    }
    if ('missing' in p) {
      this.pairHost.replaceChildren(el('p', { className: 'placeholder', text: p.missing }));
      return;
    }
    this.pairHost.replaceChildren(
      renderPair(p.model, p.pi, {
        index: rows.findIndex((r) => refKey(r) === refKey(ref)),
        total: rows.length,
        back: () => this.back(),
        go: (d) => this.go(d),
        openStep: (at, run) => this.post({ type: 'openStep', ref: at, run }),
      }),
    );
  }

  private options(change: Partial<{ scope: Scope; sortMetric: MetricKey; order: SortOrder }>): void {
    const m = this.model;
    if (!m) return;
    this.post({
      type: 'compareOptions',
      scope: change.scope ?? m.scope,
      sortMetric: change.sortMetric ?? m.sortMetric,
      order: change.order ?? m.order,
    });
  }

  private render(): void {
    const m = this.model;
    if (!m) return;
    const onlyNote = m.onlyA || m.onlyB ? ` · left out: ${m.onlyA} step(s) only in A, ${m.onlyB} only in B` : '';
    const header = el('header', { className: 'page-head' }, [
      el('h1', { title: `${m.runA} vs ${m.runB}` }, [
        icon('git-compare'),
        ` ${dagger(m, m.runA, elideMiddle(m.runA, 32))} vs ${dagger(m, m.runB, elideMiddle(m.runB, 32))}`,
      ]),
      el('span', { className: 'spacer' }),
      button('Swap A/B', 'arrow-swap', 'Swap run A (the reference) and run B', () => this.post({ type: 'swapRuns' })),
      button('Change Runs…', 'git-compare', 'Pick two other runs', () => this.post({ type: 'pickRuns' })),
    ]);
    const sub = el('p', { className: 'note' }, [
      'A (reference): ',
      el('strong', { text: m.runA }),
      ' · B: ',
      el('strong', { text: m.runB }),
      ` · ${m.paired} paired scored steps${m.scope === 'all' ? ' on all platforms' : ` on ${SCOPE_LABELS[m.scope]}`}${onlyNote}`,
    ]);
    const cov = m.coverage;
    const coverageNote =
      cov && (!cov.whole[0] || !cov.whole[1] || cov.over)
        ? [
            el('p', { className: 'note coverage-note', attrs: { role: 'status' } }, [
              icon('warning'),
              ` A covers ${cov.a}; B covers ${cov.b}.${cov.over ? ` ${cov.over}` : ''}`,
            ]),
          ]
        : [];
    const marked = [m.runA, m.runB].filter((run) => m.marks[run]);
    const marksNote =
      marked.length === 0
        ? []
        : [
            el('p', {
              className: 'note run-marks',
              text: `† Made by Persona Lab with its own prompt wording, not the benchmark's prompt: ${marked.map((run) => `${run} (${m.marks[run]})`).join('; ')}.${marked.length === 1 ? ' The two runs were prompted differently, so their differences mix the prompt with the model.' : ''}`,
            }),
          ];
    const controls = el('div', { className: 'controls' }, [
      el('label', { text: 'Scope' }),
      select(
        m.scopes,
        (s) => SCOPE_LABELS[s],
        m.scope,
        (v) => this.options({ scope: v }),
        'Scope of the comparison',
      ),
    ]);
    const sortControls = el('div', { className: 'controls' }, [
      el('label', { text: 'Sort by' }),
      select(
        METRIC_KEYS,
        (k) => METRIC_LABELS[k],
        m.sortMetric,
        (v) => this.options({ sortMetric: v }),
        'Metric to sort the steps by',
      ),
      select<SortOrder>(
        ['regression', 'gain'],
        (o) => (o === 'regression' ? 'Biggest regression first' : 'Biggest gain first'),
        m.order,
        (v) => this.options({ order: v }),
        'Sort order',
      ),
    ]);
    const regressed = m.rows.filter(
      (r) => direction(r.delta[METRIC_KEYS.indexOf(m.sortMetric)], !m.sortMetric.startsWith('Error_')) < 0,
    ).length;
    // A narrow column's name wraps at its spaces and after the symbol's "_" (Err_ / decay), never inside a word.
    const heads = [
      'Platform',
      'User',
      'Step',
      ...METRIC_KEYS.map((k) => `Δ ${METRIC_LABELS[k].replace('_', '_\u200b')}`),
    ];
    this.listPage.replaceChildren(
      controls,
      el('section', { className: 'card summary-card' }, [
        el('div', { className: 'card-head' }, [
          el('h2', { text: 'Paired summary (B − A)' }),
          help(
            `Per platform, the difference of the two-level macro averages over the users both runs cover; scope "all": the mean over platforms (the tables' Avg.). 95 % CI: percentile bootstrap, ${m.resamples} resamples of users within each platform (steps of one user are not independent), seed ${m.seed}. Win/tie/loss: B better / equal / worse, per user (mean over the user's paired steps) and per step; for error rates lower is better.`,
          ),
        ]),
        el('div', { className: 'summary-scroll' }, [this.summaryTable(m.summary)]),
      ]),
      el('section', { className: 'card compare-steps' }, [
        el('div', { className: 'card-head' }, [
          el('h2', { text: `Steps · ${regressed} regressed on ${METRIC_NAMES[m.sortMetric].long}` }),
          help(
            'Δ in percentage points (B − A). Flips: positives that B lost or gained, distractors that B newly picked or dropped. Click a row (or Enter) to see the step of run A and run B side by side here; Esc comes back.',
          ),
          el('span', { className: 'spacer' }),
          sortControls,
        ]),
        el(
          'div',
          { className: 'vrow cmp head' },
          heads.map((h) => el('span', { text: h })),
        ),
        this.list.element,
      ]),
    );
    this.root.replaceChildren(header, sub, ...coverageNote, ...marksNote, this.listPage, this.pairHost);
    this.list.setItems(m.rows);
    this.showPage();
  }

  private summaryTable(rows: readonly SummaryRow[]): HTMLElement {
    const wtl = (t: [number, number, number] | null) => (t ? `${t[0]} / ${t[1]} / ${t[2]}` : '—');
    return el('table', { className: 'paper summary' }, [
      el('thead', {}, [
        el(
          'tr',
          {},
          (
            [
              ['Metric', '↑ higher is better, ↓ lower is better'],
              ['Δ (pp)', 'B − A in percentage points; n.s.: not significant, the 95 % interval includes 0'],
              // no-break spaces: the name wraps after "Users", never inside "W / T / L"
              ['Users W\u00a0/\u00a0T\u00a0/\u00a0L', 'users where B wins / ties / loses against A'],
              ['A', 'run A’s mean (%)'],
              ['B', 'run B’s mean (%)'],
              ['95 % CI', 'the 95 % bootstrap confidence interval of Δ, resampling users'],
              ['Steps W\u00a0/\u00a0T\u00a0/\u00a0L', 'steps where B wins / ties / loses against A'],
            ] as const
          ).map(([h, title]) => el('th', { text: h, title, attrs: { scope: 'col' } })),
        ),
      ]),
      el(
        'tbody',
        {},
        rows.map((r) => {
          const dir = direction(r.diff, r.higherIsBetter);
          const excludesZero = r.ciLow !== null && r.ciHigh !== null && (r.ciLow > 0 || r.ciHigh < 0);
          const ci = r.ciLow === null || r.ciHigh === null ? '—' : `[${pts(r.ciLow, 2)}, ${pts(r.ciHigh, 2)}]`;
          return el('tr', { attrs: { 'data-metric': r.metric } }, [
            el('th', {
              text: METRIC_LABELS[r.metric] + (r.higherIsBetter ? ' ↑' : ' ↓'),
              attrs: { scope: 'row' },
              title: r.higherIsBetter ? 'higher is better' : 'lower is better',
            }),
            el(
              'td',
              {
                className: `diff ${DIR_CLASS[dir + 1]}${excludesZero ? ' sig' : ''}`,
                title: excludesZero ? 'the 95 % interval excludes 0' : 'the 95 % interval includes 0',
              },
              [
                el('span', { className: 'num', text: pts(r.diff, 2) }),
                excludesZero
                  ? null
                  : el('span', {
                      className: 'ns',
                      text: ' n.s.',
                      title: 'not significant: the 95 % interval includes 0',
                    }),
              ],
            ),
            el('td', { className: 'wtl-users', text: wtl(r.userWtl), title: `${r.users} users` }),
            el('td', { className: 'num-a', text: pct(r.meanA) }),
            el('td', { className: 'num-b', text: pct(r.meanB) }),
            el('td', { className: 'ci', text: ci }),
            el('td', { className: 'wtl-steps', text: wtl(r.stepWtl) }),
          ]);
        }),
      ),
    ]);
  }

  private renderRow(r: CompareRow, row: HTMLElement): void {
    const m = this.model;
    row.classList.add('cmp');
    row.title = `Show ${r.userId} step ${r.stepId} of ${m?.runA ?? 'A'} and ${m?.runB ?? 'B'} side by side`;
    const line = el('div', { className: 'line' }, [
      el('span', { text: SCOPE_LABELS[r.platform] }),
      el('span', { className: 'mono', text: r.userId }),
      el('span', { text: String(r.stepId) }),
      ...METRIC_KEYS.map((k, i) => {
        const dir = direction(r.delta[i], !k.startsWith('Error_'));
        return el('span', {
          className: `d ${DIR_CLASS[dir + 1]}`,
          text: pts(r.delta[i]),
          title: `${METRIC_LABELS[k]}: A ${pct(r.a[i], 1)} → B ${pct(r.b[i], 1)}`,
        });
      }),
    ]);
    const flips = el('div', { className: 'flips' });
    const group = (label: string, cls: string, tags: FlippedTag[]) => {
      if (!tags.length) return;
      flips.appendChild(
        el('span', { className: `flip ${cls}` }, [
          el('span', { className: 'flip-label', text: `${label}: ` }),
          tags.map((t) => `${t.tag} (${GROUP_LABELS[t.cls]})`).join(', '),
        ]),
      );
    };
    group('lost', 'worse', r.lost);
    group('gained', 'better', r.gained);
    group('new wrong', 'worse', r.newWrong);
    group('dropped wrong', 'better', r.droppedWrong);
    if (!flips.childNodes.length) flips.appendChild(el('span', { className: 'note', text: 'same picks on the pool' }));
    flips.title = flips.textContent ?? '';
    row.append(line, flips);
  }
}

/** A run's name, with † when Persona Lab made it with its own prompt wording (the note under the header says so). */
function dagger(m: CompareModel, run: string, shown = run): string {
  return m.marks[run] ? `${shown} †` : shown;
}
