// The dashboard page: run choice, the paper's Tables 4-6, the five figures, and the filtered step list that a click
// on a point or a bar opens (its rows open the step view).
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import {
  ERROR_KEYS,
  METRIC_LABELS,
  SCOPE_LABELS,
  type DashboardModel,
  type Scope,
  type StepFilter,
  type StepRow,
  type WebviewToExtension,
} from '../../../src/shared/spb/dashboardProtocol';
import { alphaBars, errorBars } from './barCharts';
import {
  applyDefaults,
  budgetRatio,
  constraint,
  figure,
  readTheme,
  recallByStep,
  type Figure,
  type Theme,
} from './charts';
import { chartSlug, type ChartFormat } from '../../../src/shared/chartExport';
import { chartToolbar, saveChartMessage } from '../../shared/chartExport';
import { el, fixed, help, icon, pct } from './dom';
import { memoryTable } from './memory';
import { renderTable } from './tables';
import { sampleControls, select } from './controls';
import { VirtualList } from '../../shared/vlist';
import { mountWhyRunsFail } from '../../shared/whyRunsFail';
import type { WhyRunsFailSection } from '../../../src/shared/whyRunsFailProtocol';

type Post = (m: WebviewToExtension) => void;

interface ChartSpec {
  id: string;
  title: string;
  caption: string;
  help: string;
  /** the default file name when saved (without extension) */
  file(m: DashboardModel, scope: Scope): string;
  figure(m: DashboardModel, scope: Scope, theme: Theme): Figure;
}

/** A figure's file name: its name, then the scope when it is one platform, then the sample it is over. */
const inScope = (name: string, scope: Scope) => (scope === 'all' ? name : `${name}-${scope}`);
const onSample = (m: DashboardModel, file: string) => (m.sample ? `${file}-sample-${chartSlug(m.sample.name)}` : file);

export class DashboardPage {
  private model: DashboardModel | undefined;
  private scope: Scope = 'all';
  private charts: { destroy(): void }[] = [];
  private readonly list: VirtualList<StepRow>;
  private listRun = '';
  private readonly listSection: HTMLElement;
  private readonly listTitle = el('h2', { className: 'list-title' });
  private readonly listNote = el('span', { className: 'note' });

  private readonly whyRunsFail = mountWhyRunsFail();

  constructor(
    private readonly root: HTMLElement,
    private readonly post: Post,
    /** the figures' scope at start, and where a change of it is remembered */
    initialScope: Scope,
    private readonly saveScope: (scope: Scope) => void,
  ) {
    this.scope = initialScope;
    this.list = new VirtualList<StepRow>({
      rowHeight: 28,
      maxHeight: 420,
      label: 'Steps',
      key: (r) => `${r.platform}/${r.userId}/${r.stepId}`,
      render: (r, _i, row) => this.renderRow(r, row),
      onOpen: (r) =>
        this.post({
          type: 'openStep',
          ref: { platform: r.platform, userId: r.userId, stepId: r.stepId },
          run: this.listRun,
        }),
    });
    const close = el('vscode-button', { text: 'Close', title: 'Close the step list' });
    close.icon = 'close';
    close.secondary = true;
    close.addEventListener('click', () => (this.listSection.hidden = true));
    this.listSection = el('section', { className: 'card step-list', attrs: { id: 'step-list' } }, [
      el('div', { className: 'card-head' }, [
        this.listTitle,
        this.listNote,
        el('span', { className: 'spacer' }),
        close,
      ]),
      el(
        'div',
        { className: 'vrow head' },
        [
          'Platform',
          'User',
          'Step',
          ...(['Recall', 'Recall_Stability', 'Recall_Novelty'] as const).map((k) => METRIC_LABELS[k]),
          'B',
          'α',
          'ρ',
          ...ERROR_KEYS.map((k) => METRIC_LABELS[k]),
        ].map((h) => el('span', { text: h })),
      ),
      this.list.element,
    ]);
    this.listSection.hidden = true;
  }

  show(model: DashboardModel): void {
    this.model = model;
    if (!model.scopes.includes(this.scope)) this.scope = 'all';
    this.render();
  }

  get currentScope(): Scope {
    return this.scope;
  }

  /** Re-draws the charts with the theme's colours (after a theme change). */
  rethemed(): void {
    if (this.model) this.renderCharts();
  }

  private readonly specs: ChartSpec[] = [
    {
      id: 'fig3',
      title: 'Figure 3. Budget B vs ratio ρ',
      caption: 'Per run: mean budget against mean ratio; the legend keys the platform markers (large: Avg.).',
      help: 'B = 1 − δ/K (δ = picks in C−, K = |C+|) and ρ = R_nov / R_stab are per-step diagnostics. Each point is their mean over the scored steps: two-level macro average (per user, then over users) per platform; the large marker (scope "all") is the mean of the platform figures. ρ̄ skips steps where ρ is undefined (R_stab = 0, or T_new or T_keep empty). Click a point: its steps, lowest B first.',
      file: (_m, s) => inScope('budget-vs-ratio', s),
      figure: (m, s, t) => figure(() => budgetRatio(m, s, t, this.pick)),
    },
    {
      id: 'fig4',
      title: 'Figure 4. Constraint line and iso-F1 contours',
      caption: 'Solid: ᾱ·R_stab + (1−ᾱ)·R_nov = B̄; dashed: iso-F1 through the operating point.',
      help: "Operating point: the macro recalls (R_stab, R_nov) of the scope, as Table 5. Line: ᾱ·R_stab + (1−ᾱ)·R_nov = B̄ with the mean α and B (two-level macro means). The identity holds per step when exactly K distinct in-pool tags are picked, so the point lies near, not always on, its line. Contours: 2xy/(x+y) = F1; the dashed one passes through the point (F1 of the macro recalls, the paper's section 3.2 reading, not the headline F1^NS). Click a point: its steps, lowest Recall first.",
      file: (_m, s) => inScope('constraint-iso-f1', s),
      figure: (m, s, t) => figure(() => constraint(m, s, t, this.pick)),
    },
    {
      id: 'fig5',
      title: 'Figure 5. Recall by step index',
      caption: 'Mean Recall over the scored steps at step n (one per user).',
      help: "For each step index n: the plain mean of Recall over the scored steps with step_id n (each user has at most one), over the platforms of the scope. Later indices have fewer users: the count is in the point's tooltip. Click a point: the steps at that index.",
      file: (_m, s) => inScope('recall-by-step', s),
      figure: (m, s, t) => figure(() => recallByStep(m, s, t, this.pick)),
    },
    {
      id: 'errors',
      title: 'Error rates per platform of the focus run',
      caption: 'The four distractor error rates of the focus run (Table 6 figures).',
      help: 'Error_X = |P ∩ D_X| / |D_X| per step; bars are the two-level macro averages per platform (as Table 6). Click a bar: the steps of that platform where the model picked a distractor of that class, highest rate first.',
      file: (m) => `error-rates-${chartSlug(m.focus)}`,
      figure: (m, _s, t) => figure(() => errorBars(m, t, this.pick)),
    },
    {
      id: 'alpha',
      title: 'Stability ratio α per platform',
      caption: 'ᾱ = |T_keep| / K: the share of positives the user already used.',
      help: "α = |T_keep| / K per scored step: a property of the tasks, not of a run. Bars are the two-level macro means over the scored steps; one bar per platform when the shown runs cover the same steps, one per run when they do not. Click a bar: that platform's steps, lowest α first.",
      file: () => 'stability-ratio',
      figure: (m, _s, t) => figure(() => alphaBars(m, t, this.pick)),
    },
  ];

  private readonly pick = (filter: StepFilter) => this.post({ type: 'listSteps', filter });

  /** Renders the figure again, as shown (scope, runs, theme), and asks the extension to save it. */
  private saveChart(spec: ChartSpec, format: ChartFormat): void {
    const m = this.model;
    const canvas = this.root.querySelector<HTMLCanvasElement>(`[data-chart="${spec.id}"] canvas`);
    if (!m || !canvas) return;
    const msg = saveChartMessage(
      canvas,
      spec.figure(m, this.scope, readTheme()).render,
      onSample(m, spec.file(m, this.scope)),
      format,
    );
    if (msg) this.post(msg);
  }

  showSteps(title: string, note: string, filter: StepFilter, rows: StepRow[]): void {
    this.listRun = filter.run;
    this.listTitle.textContent = `Steps: ${title}`;
    this.listNote.textContent = note;
    this.listSection.hidden = false;
    this.listSection.dataset.filter = JSON.stringify(filter);
    this.list.setItems(rows);
    this.listSection.scrollIntoView({ block: 'nearest' });
    this.list.element.focus({ preventScroll: true });
  }

  private renderRow(r: StepRow, row: HTMLElement): void {
    row.title = `Open ${r.userId} step ${r.stepId} of ${this.listRun} in the step view`;
    const cells = [
      SCOPE_LABELS[r.platform],
      r.userId,
      String(r.stepId),
      pct(r.recall, 1),
      pct(r.rStab, 1),
      pct(r.rNov, 1),
      fixed(r.budget),
      fixed(r.alpha),
      fixed(r.ratio),
      ...r.errors.map((e) => pct(e, 0)),
    ];
    for (const c of cells) row.appendChild(el('span', { text: c }));
  }

  private render(): void {
    const m = this.model;
    if (!m) return;
    for (const c of this.charts) c.destroy();
    this.charts = [];
    const compare = el('vscode-button', { text: 'Compare Runs…', title: 'Compare two runs step by step' });
    compare.icon = 'git-compare';
    compare.addEventListener('click', () => this.post({ type: 'pickRuns' }));
    const runs = el('div', { className: 'run-choice', attrs: { role: 'group', 'aria-label': 'Runs shown' } }, [
      el('span', { className: 'label', text: 'Runs shown:' }),
    ]);
    for (const run of m.runs) {
      const mark = m.marks[run];
      const covers = m.coverage[run];
      const title = [mark, covers && `figures ${covers}`].filter(Boolean).join('; ');
      const cb = el('vscode-checkbox', {
        attrs: {
          'data-run': run,
          ...(mark ? { 'data-mark': mark } : {}),
          ...(covers ? { 'data-coverage': covers } : {}),
          ...(title ? { title } : {}),
        },
      });
      cb.label = `${mark ? `${run} †` : run}${covers ? ' (part)' : ''}`;
      cb.checked = m.selected.includes(run);
      cb.addEventListener('change', () => {
        const chosen = [...runs.querySelectorAll('vscode-checkbox')]
          .filter((c) => c.checked)
          .map((c) => c.dataset.run ?? '');
        if (chosen.length === 0) {
          cb.checked = true;
          return;
        }
        this.post({ type: 'setRuns', runs: chosen });
      });
      runs.appendChild(cb);
    }
    const header = el('header', { className: 'page-head' }, [
      el('h1', {}, [icon('graph'), ` Run dashboard · ${m.benchmark}${m.sample ? ` · on ${m.sample.label}` : ''}`]),
      el('span', { className: 'spacer' }),
      compare,
    ]);
    const marked = m.runs.filter((run) => m.marks[run] && m.selected.includes(run));
    const tables = el('section', { className: 'tables' }, [
      // Persona memory right after Table 5, whose R_stab it explains.
      ...m.tables.flatMap((t) => [
        renderTable(t, (table, format) => this.post({ type: 'copyTable', table, format }), m.coverage),
        t.id === 't5' ? memoryTable(m) : null,
      ]),
      marked.length
        ? el('p', {
            className: 'note run-marks',
            text: `† Made by Persona Lab with its own prompt wording, not the benchmark's prompt (another experiment, not comparable with the released runs): ${marked.map((run) => `${run} (${m.marks[run]})`).join('; ')}.`,
          })
        : null,
      ...m.selected
        .filter((run) => m.failed[run])
        .map((run) =>
          el('p', {
            className: 'note run-failed',
            attrs: { 'data-run': run },
            text: `${run}: failed requests (the reference's error record, scored as the reference scores them): ${m.failed[run]}.`,
          }),
        ),
    ]);
    const controls = el('div', { className: 'controls' }, [
      el('label', { text: 'Scope' }),
      select(
        m.scopes,
        (s) => SCOPE_LABELS[s],
        this.scope,
        (v) => {
          this.scope = v;
          this.saveScope(this.scope);
          this.renderCharts();
        },
        'Scope of the figures',
      ),
      el('label', { text: 'Focus run (error bars)' }),
      select(
        m.selected,
        (r) => r,
        m.focus,
        (v) => this.post({ type: 'setFocus', run: v }),
        'Run whose error rates are drawn',
      ),
    ]);
    const grid = el(
      'div',
      { className: 'chart-grid' },
      this.specs.map((s) =>
        el('section', { className: 'card chart-card', attrs: { 'data-chart': s.id } }, [
          el('div', { className: 'card-head' }, [
            el('h3', { text: s.title }),
            help(s.help),
            el('span', { className: 'spacer' }),
            chartToolbar((format) => this.saveChart(s, format)),
          ]),
          el('p', { className: 'caption', text: s.caption }),
          el('div', { className: 'chart-box' }, [
            el('canvas', { attrs: { role: 'img', 'aria-label': `${s.title}. ${s.caption} ${s.help}` } }),
          ]),
        ]),
      ),
    );
    const on = m.sample ? ` on ${m.sample.label}` : '';
    this.root.dataset.sample = m.sample?.name ?? '';
    this.root.replaceChildren(
      header,
      runs,
      sampleControls(m, this.post),
      el('h2', { text: `Tables${on}` }),
      el('p', { className: 'note' }, [
        'Percent. ',
        el('strong', { text: 'Bold' }),
        ': best; ',
        el('u', { text: 'underlined' }),
        ': second best (error rates: lowest is best), among runs that cover the same steps.',
      ]),
      tables,
      this.whyRunsFail.element,
      el('h2', { text: `Figures${on}` }),
      controls,
      grid,
      this.listSection,
    );
    this.renderCharts();
  }

  /** Why runs fail, from gold labels (webview/shared/whyRunsFail.ts): kept in place when the page draws again. */
  showWhyRunsFail(s: WhyRunsFailSection): void {
    this.whyRunsFail.update(s);
  }

  private renderCharts(): void {
    const m = this.model;
    if (!m) return;
    for (const c of this.charts) c.destroy();
    this.charts = [];
    const theme = readTheme();
    applyDefaults(theme);
    for (const spec of this.specs) {
      const card = this.root.querySelector<HTMLElement>(`[data-chart="${spec.id}"]`);
      const canvas = card?.querySelector('canvas');
      if (!card || !canvas) continue;
      this.charts.push(spec.figure(m, this.scope, theme).draw(canvas));
      card.dataset.rendered = 'true';
    }
    this.root.dataset.chartColor = theme.fg;
  }
}
