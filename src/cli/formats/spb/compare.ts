// StreamProfileBench's part of `persona-lab compare`: what its Compare Runs view computes (benchmarks/spb/compare/):
// the steps both runs scored, paired within users; per scope (all platforms, then each one) the paired summary of
// every metric with its bootstrap interval over users, stratified by platform; what each run covers; and the steps
// whose picks changed, the biggest Recall regression first (the view's default order).
import { pointsText, pyFixed } from '../../../core/io/pyNumber';
import { streamProfileBench } from '../../../core/spb/format/format';
import { readRunOrigin } from '../../../core/spb/prompt/runOrigin';
import { runCoverage } from '../../../core/spb/score/coverage';
import type { PairedSummaryRow } from '../../../core/spb/score/pairedSummary';
import {
  compareRuns,
  higherIsBetter,
  sortStepDeltas,
  TIE_EPSILON,
  type FlippedTag,
  type StepDelta,
} from '../../../core/spb/score/runCompare';
import { METRIC_KEYS } from '../../../core/spb/types';
import {
  compareCoverage,
  compareProblem,
  comparePairedBootstrap,
  compareScopes,
  SPB_COMPARE_BOOTSTRAP,
} from '../../../core/spb/view/compare';
import { GROUP_LABELS } from '../../../core/spb/view/stepText';
import { METRIC_LABELS, SCOPE_LABELS } from '../../../shared/spb/dashboardProtocol';
import { loadPair, type CompareCommand } from '../../compareReport';

const COLUMNS = ['Metric', 'A', 'B', 'B − A (pp)', '95 % CI', 'Users W / T / L', 'Steps W / T / L'];

const pct = (x: number) => (Number.isFinite(x) ? pyFixed(100 * x, 2) : '—');

/** A summary row as the view's table writes it: percent, B − A in points ("n.s." when the interval holds 0). */
function row(r: PairedSummaryRow): string[] {
  const defined = Number.isFinite(r.ciLow) && Number.isFinite(r.ciHigh);
  const clear = defined && (r.ciLow > 0 || r.ciHigh < 0);
  const diff = pointsText(Number.isFinite(r.diff) ? r.diff : null, 2);
  const up = higherIsBetter(r.metric);
  return [
    `${METRIC_LABELS[r.metric]} ${up ? '↑' : '↓'}`,
    pct(r.meanA),
    pct(r.meanB),
    clear ? diff : `${diff} n.s.`,
    defined ? `[${pointsText(r.ciLow, 2)}, ${pointsText(r.ciHigh, 2)}]` : '—',
    `${r.users} (${r.userWtl.win} / ${r.userWtl.tie} / ${r.userWtl.loss})`,
    r.stepWtl ? `${r.stepWtl.win} / ${r.stepWtl.tie} / ${r.stepWtl.loss}` : '—',
  ];
}

/** How many of the steps B answers with a lower Recall, a higher one, the same (or none: no positives). */
function recallCounts(steps: readonly StepDelta[]): string {
  const lower = steps.filter((s) => s.delta.Recall < -TIE_EPSILON).length;
  const higher = steps.filter((s) => s.delta.Recall > TIE_EPSILON).length;
  return `${lower} with a lower Recall in B, ${higher} with a higher one, ${steps.length - lower - higher} with the same.`;
}

const tags = (label: string, list: readonly FlippedTag[]) =>
  list.length ? [`${label}: ${list.map((t) => `${t.tag} (${GROUP_LABELS[t.cls]})`).join(', ')}`] : [];

export const spbCompare: CompareCommand = {
  async compare(dir, { pair, limit }, opts) {
    const loaded = await loadPair(streamProfileBench, dir, pair, opts);
    if ('missing' in loaded) return loaded;
    const { bench, a: runA, b: runB } = loaded;
    const cmp = compareRuns(bench, runA, runB);
    const problem = compareProblem(cmp);
    if (problem) return { problem };
    const coverage = { a: runCoverage(bench, runA), b: runCoverage(bench, runB) };
    const scopes = compareScopes(cmp).map((scope) => ({
      scope,
      steps: cmp.steps.filter((s) => scope === 'all' || s.platform === scope).length,
      users: cmp.users.filter((u) => scope === 'all' || u.platform === scope).length,
      coverage: compareCoverage(cmp, coverage, scope),
      summary: comparePairedBootstrap(cmp, scope).result(),
    }));
    const marks = Object.fromEntries(
      [pair.a, pair.b].flatMap((run) => {
        const mark = readRunOrigin(bench.root, run)?.mark;
        return mark ? [[run, mark]] : [];
      }),
    );
    const steps = sortStepDeltas(cmp.steps, 'Recall', 'regression');
    const changed = steps.filter((s) => Object.values(s.flips).some((l) => l.length > 0));
    const all = scopes[0];
    const cov = all.coverage;
    const left = cmp.onlyA || cmp.onlyB ? ` · left out: ${cmp.onlyA} step(s) only in A, ${cmp.onlyB} only in B` : '';
    return {
      report: {
        json: {
          format: streamProfileBench.id,
          runA: cmp.runA,
          runB: cmp.runB,
          ...SPB_COMPARE_BOOTSTRAP,
          marks,
          onlyA: cmp.onlyA,
          onlyB: cmp.onlyB,
          scopes,
          users: cmp.users,
          steps,
        },
        heading: [
          `Compare: ${cmp.runB} (B) against ${cmp.runA} (A)`,
          `${all.steps} paired scored steps of ${all.users} users on all platforms${left}`,
          ...(cov ? [`A covers ${cov.a}; B covers ${cov.b}.${cov.over ? ` ${cov.over}` : ''}`] : []),
          ...Object.entries(marks).map(([run, mark]) => `† ${run}: ${mark}`),
        ],
        tables: scopes.map((s) => ({
          title: `${SCOPE_LABELS[s.scope]}: ${s.steps} paired steps of ${s.users} users`,
          columns: COLUMNS,
          rows: s.summary.map(row),
        })),
        notes: [
          `Per platform, the difference of the two-level macro averages over the users both runs cover; all ` +
            `platforms: the mean over platforms (the tables' Avg.). 95 % CI: percentile bootstrap, ` +
            `${SPB_COMPARE_BOOTSTRAP.resamples} resamples of users within each platform (steps of one user are not ` +
            `independent), seed ${SPB_COMPARE_BOOTSTRAP.seed}; n.s.: the interval holds 0. W / T / L: B better / ` +
            `equal / worse, per user (mean over the user's paired steps) and per step; ↓: lower is better.`,
        ],
        changed: {
          title: 'Steps whose picks changed, the biggest Recall regression first',
          total: changed.length,
          counts: recallCounts(changed),
          columns: ['Platform', 'User', 'Step', ...METRIC_KEYS.map((k) => `Δ ${METRIC_LABELS[k]}`), 'Flips'],
          words: [0, 1, 3 + METRIC_KEYS.length],
          rows: changed
            .slice(0, limit)
            .map((s) => [
              SCOPE_LABELS[s.platform],
              s.userId,
              String(s.stepId),
              ...METRIC_KEYS.map((k) => pointsText(Number.isFinite(s.delta[k]) ? s.delta[k] : null)),
              [
                ...tags('lost', s.flips.lost),
                ...tags('gained', s.flips.gained),
                ...tags('new wrong', s.flips.newWrong),
                ...tags('dropped wrong', s.flips.droppedWrong),
              ].join('; '),
            ]),
        },
      },
    };
  },
};
