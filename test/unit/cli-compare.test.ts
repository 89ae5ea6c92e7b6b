// persona-lab compare through the built CLI (dist/cli.js) on a copy of the committed sample, for each of its three
// formats: --json is what the extension's Compare Runs part computes (computed here through the same core functions
// as that part, the way it calls them), the text names every figure of the summary as the view writes it, and each
// error (a run that does not exist, A = B, runs that share no item, a bad option) exits 2 with its message.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { pointsText, pyFixed } from '../../src/core/io/pyNumber';
import {
  compareOmniRuns,
  omniCompareProblem,
  omniCompareTexts,
  type OmniComparison,
} from '../../src/core/omni/compare';
import { omniBehavior } from '../../src/core/omni/format';
import { comparePersonaMemRuns, pmCompareTexts } from '../../src/core/personamem/compare';
import { personaMem } from '../../src/core/personamem/format';
import { scorePersonaMemRun } from '../../src/core/personamem/score';
import { streamProfileBench } from '../../src/core/spb/format/format';
import { readRunOrigin } from '../../src/core/spb/prompt/runOrigin';
import { runCoverage } from '../../src/core/spb/score/coverage';
import type { PairedSummaryRow } from '../../src/core/spb/score/pairedSummary';
import { compareRuns, mergeComparisons, sortStepDeltas } from '../../src/core/spb/score/runCompare';
import { PLATFORMS } from '../../src/core/spb/types';
import { compareCoverage, comparePairedBootstrap, compareScopes } from '../../src/core/spb/view/compare';
import { compareModel, summaryRows } from '../../src/extension/benchmarks/spb/compare/model';
import { METRIC_LABELS } from '../../src/shared/spb/dashboardProtocol';
import { SAMPLE } from '../support/committedSample';

const CLI = resolve(__dirname, '../../dist/cli.js');
const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

let root: string;
let spb: string;
let omni: string;
let pmem: string;

/** A JSON trip, as --json prints it (NaN becomes null). */
const asJson = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

/** The text with its long lines joined again (the CLI breaks them at 120 columns, indenting the rest by 4). */
const unwrapped = (text: string) => text.replace(/\n {4}/g, ' ');

/** The summary table of the text that `title` starts, up to the blank line after it. */
function tableOf(text: string, title: string): string[] {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith(title));
  expect(at, `no table "${title}" in:\n${text}`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((l, i) => i > at && l === '');
  return lines.slice(at, end);
}

/** The row of `table` that starts with `head` followed by two spaces. */
function rowOf(table: string[], head: string): string {
  const row = table.find((l) => l.startsWith(`${head}  `));
  expect(row, `no row "${head}" in:\n${table.join('\n')}`).toBeDefined();
  return row!;
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'pl-cli-compare-'));
  cpSync(SAMPLE, join(root, 'sample'), { recursive: true });
  spb = join(root, 'sample');
  omni = join(spb, 'omnibehavior');
  pmem = join(spb, 'personamem');
  // StreamProfileBench: two runs of one platform each, which share no step
  for (const [run, from, platform] of [
    ['only-weibo', 'random', 'weibo'],
    ['only-zhihu', 'demo-llm', 'zhihu'],
  ]) {
    mkdirSync(join(spb, 'results', run));
    const file = `inference_results_${platform}.jsonl`;
    copyFileSync(join(spb, 'results', from, file), join(spb, 'results', run, file));
  }
  // OmniBehavior: a second run (every fifth test action left out, the binary answers of every third flipped) and a
  // third with only the test actions the second leaves out
  const lines = readFileSync(join(omni, 'results', 'demo-sim', 'predictions.jsonl'), 'utf8').split('\n');
  const records = lines.filter(Boolean).map((l) => JSON.parse(l) as { questions: Record<string, unknown>[] });
  const flipped = records.map((r, i) => {
    if (i % 3 !== 0) return r;
    const questions = r.questions.map((q) =>
      q.type === 'binary' && typeof q.predicted_label === 'number'
        ? { ...q, predicted_label: 1 - q.predicted_label, predicted_value: q.predicted_label ? 'No' : 'Yes' }
        : q,
    );
    return { ...r, questions };
  });
  const write = (run: string, rs: unknown[]) => {
    mkdirSync(join(omni, 'results', run));
    writeFileSync(join(omni, 'results', run, 'predictions.jsonl'), rs.map((r) => JSON.stringify(r)).join('\n') + '\n');
  };
  write(
    'flipped',
    flipped.filter((_, i) => i % 5 !== 0),
  );
  write(
    'rest',
    records.filter((_, i) => i % 5 === 0),
  );
});

describe('compare on a StreamProfileBench folder', () => {
  const pair = { a: 'random', b: 'demo-llm' };

  /** What the compare part computes: the session's comparison (per platform, merged), each scope's summary. */
  async function expected() {
    const { bench } = await streamProfileBench.load(spb);
    const runA = bench.runs.get(pair.a)!;
    const runB = bench.runs.get(pair.b)!;
    const cmp = mergeComparisons(PLATFORMS.map((p) => compareRuns(bench, runA, runB, [p])));
    const coverage = { a: runCoverage(bench, runA), b: runCoverage(bench, runB) };
    const summaries = new Map(
      compareScopes(cmp).map((scope) => {
        const boot = comparePairedBootstrap(cmp, scope);
        while (!boot.run(100));
        return [scope, boot.result()] as const;
      }),
    );
    return { bench, cmp, coverage, summaries };
  }

  it('--json is the comparison, the scopes and their paired summaries the compare view shows', async () => {
    const r = cli('compare', spb, '--a', pair.a, '--b', pair.b, '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout) as { scopes: { scope: string; summary: PairedSummaryRow[] }[] };
    const { bench, cmp, coverage, summaries } = await expected();
    const scopes = [...summaries.keys()];
    expect(scopes).toEqual(['all', ...PLATFORMS]);
    const marks = Object.fromEntries(
      [pair.a, pair.b].flatMap((run) => {
        const mark = readRunOrigin(bench.root, run)?.mark;
        return mark ? [[run, mark]] : [];
      }),
    );
    expect(json).toEqual(
      asJson({
        format: 'streamprofilebench',
        runA: pair.a,
        runB: pair.b,
        resamples: 2000,
        seed: 20240611,
        marks,
        onlyA: cmp.onlyA,
        onlyB: cmp.onlyB,
        scopes: scopes.map((scope) => ({
          scope,
          steps: cmp.steps.filter((s) => scope === 'all' || s.platform === scope).length,
          users: cmp.users.filter((u) => scope === 'all' || u.platform === scope).length,
          coverage: compareCoverage(cmp, coverage, scope),
          summary: summaries.get(scope),
        })),
        users: cmp.users,
        steps: sortStepDeltas(cmp.steps, 'Recall', 'regression'),
      }),
    );
    // the figures the view's model carries, scope by scope
    for (const scope of scopes) {
      const model = compareModel(cmp, summaries.get(scope)!, [...bench.runs.keys()], scopes, {
        scope,
        sortMetric: 'Recall',
        order: 'regression',
      });
      const printed = json.scopes.find((s) => s.scope === scope)!.summary;
      expect(summaryRows(printed)).toEqual(model.summary);
    }
  });

  it('the text names every figure of every scope, the paired steps and the changed steps', async () => {
    const r = cli('compare', spb, '--a', pair.a, '--b', pair.b, '--limit', '5');
    expect(r.status).toBe(0);
    const { cmp, summaries } = await expected();
    expect(unwrapped(r.stdout)).toContain(`${cmp.steps.length} paired scored steps of ${cmp.users.length} users`);
    const titles = { all: 'All platforms (Avg.)', weibo: 'Weibo', xiaohongshu: 'Xiaohongshu' } as const;
    for (const [scope, title] of Object.entries(titles)) {
      const table = tableOf(r.stdout, `${title}: `);
      for (const s of summaries.get(scope as keyof typeof titles)!) {
        const line = rowOf(table, `${METRIC_LABELS[s.metric]} ${s.metric.startsWith('Error_') ? '↓' : '↑'}`);
        expect(line).toContain(pyFixed(100 * s.meanA, 2));
        expect(line).toContain(pyFixed(100 * s.meanB, 2));
        expect(line).toContain(pointsText(s.diff, 2));
        expect(line).toContain(`[${pointsText(s.ciLow, 2)}, ${pointsText(s.ciHigh, 2)}]`);
        expect(line).toContain(`${s.users} (${s.userWtl.win} / ${s.userWtl.tie} / ${s.userWtl.loss})`);
        if (s.stepWtl) expect(line).toContain(`${s.stepWtl.win} / ${s.stepWtl.tie} / ${s.stepWtl.loss}`);
      }
    }
    const changed = cmp.steps.filter((s) => Object.values(s.flips).some((l) => l.length > 0));
    expect(unwrapped(r.stdout)).toContain(
      `Steps whose picks changed, the biggest Recall regression first: ${changed.length} (the first 5`,
    );
    const first = sortStepDeltas(changed, 'Recall', 'regression')[0];
    expect(r.stdout).toMatch(new RegExp(`Weibo|Xiaohongshu|Toutiao|Zhihu|Douban`));
    expect(r.stdout).toContain(first.userId);
  });

  it('--format csv is one rectangle: a row per metric and scope; markdown a table per scope', () => {
    const csv = cli('compare', spb, '--a', pair.a, '--b', pair.b, '--format', 'csv');
    expect(csv.status).toBe(0);
    const rows = csv.stdout.trimEnd().split('\r\n');
    expect(rows[0]).toBe('Table,Metric,A,B,B − A (pp),95 % CI,Users W / T / L,Steps W / T / L');
    expect(rows).toHaveLength(1 + 6 * 8);
    const md = cli('compare', spb, '--a', pair.a, '--b', pair.b, '--format', 'markdown');
    expect(md.status).toBe(0);
    expect(md.stdout).toContain('| Metric | A | B | B − A (pp) | 95 % CI | Users W / T / L | Steps W / T / L |');
    expect(md.stdout.match(/^\*\*/gm)).toHaveLength(6);
  });

  it('runs that share no scored step: exit 2, with how many each scores', () => {
    const r = cli('compare', spb, '--a', 'only-weibo', '--b', 'only-zhihu');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /^persona-lab: compare: .*: only-weibo and only-zhihu share no scored step: they score \d+ and \d+ other ones/,
    );
    expect(r.stdout).toBe('');
  });
});

describe('compare on an OmniBehavior folder', () => {
  /** What the compare view computes for demo-sim (A) and flipped (B): once, the bootstrap of every row is slow. */
  let computed: Promise<OmniComparison> | undefined;
  const omniExpected = () =>
    (computed ??= omniBehavior.load(omni).then(({ bench }) => {
      const a = bench.runs.get('demo-sim')!;
      const b = bench.runs.get('flipped')!;
      expect(omniCompareProblem(a, b)).toBeUndefined();
      return compareOmniRuns(bench, a, b);
    }));

  it('--json is compareOmniRuns of the two runs, as the compare view computes it', async () => {
    const r = cli('compare', omni, '--a', 'demo-sim', '--b', 'flipped', '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const cmp = await omniExpected();
    expect(cmp.changed.length).toBeGreaterThan(0);
    expect(JSON.parse(r.stdout)).toEqual(asJson({ format: 'omnibehavior', ...cmp }));
  });

  it("the text names every row's figures as the view writes them, what was left out, and the changes", async () => {
    const r = cli('compare', omni, '--a', 'demo-sim', '--b', 'flipped', '--limit', '3');
    expect(r.status).toBe(0);
    const cmp = await omniExpected();
    const lines = r.stdout.split('\n');
    for (const row of cmp.rows) {
      const t = omniCompareTexts(row);
      const line = lines.find((l) => l.startsWith(`${row.head}  `));
      expect(line, row.head).toBeDefined();
      for (const text of [t.a, t.b, t.diff, t.interval, `${row.units} (${row.win} / ${row.tie} / ${row.loss})`])
        expect(line).toContain(text);
      expect(line).toMatch(new RegExp(`\\s${row.answers}$`));
    }
    expect(unwrapped(r.stdout)).toContain(
      `${cmp.scope.actionsA - cmp.scope.paired} test action(s) predicted by demo-sim only`,
    );
    expect(unwrapped(r.stdout)).toContain(`Answers whose outcome changed: ${cmp.changed.length} (the first 3;`);
    const first = cmp.changed[0];
    expect(lines.some((l) => l.startsWith(`${first.userId} #${first.index}  `))).toBe(true);
  });

  it("runs that share no test action: exit 2, with the core's reason", () => {
    const r = cli('compare', omni, '--a', 'flipped', '--b', 'rest');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /^persona-lab: compare: .*: flipped and rest share no test action: they predict \d+ and \d+ other ones/,
    );
  });
});

describe('compare on a PersonaMem folder', () => {
  const pair = { a: '32k_demo-weak', b: '32k_demo-strong' };

  it("--json is comparePersonaMemRuns of the two runs' scores, as the compare view computes it", async () => {
    const r = cli('compare', pmem, '--a', pair.a, '--b', pair.b, '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const { bench } = await personaMem.load(pmem);
    const score = (run: string) => scorePersonaMemRun(bench, bench.runs.get(run)!);
    const cmp = comparePersonaMemRuns(bench, score(pair.a), score(pair.b));
    expect(JSON.parse(r.stdout)).toEqual(asJson({ format: 'personamem', ...cmp }));
  });

  it('the text names every figure, "— (1 persona)" where one persona answers, and the differing questions', async () => {
    const r = cli('compare', pmem, '--a', pair.a, '--b', pair.b);
    expect(r.status).toBe(0);
    const { bench } = await personaMem.load(pmem);
    const score = (run: string) => scorePersonaMemRun(bench, bench.runs.get(run)!);
    const cmp = comparePersonaMemRuns(bench, score(pair.a), score(pair.b));
    const table = tableOf(r.stdout, 'Accuracy on the paired questions');
    for (const row of [cmp.overall, ...cmp.byType]) {
      const t = pmCompareTexts(row);
      const line = rowOf(table, row.head);
      for (const text of [t.a, t.b, t.diff, t.interval, `${row.units} (${row.win} / ${row.tie} / ${row.loss})`])
        expect(line).toContain(text);
    }
    expect(r.stdout).toContain('— (1 persona)');
    expect(unwrapped(r.stdout)).toContain(
      `${cmp.overall.items} questions both runs answered, of ${cmp.overall.units} personas`,
    );
    expect(unwrapped(r.stdout)).toContain(`Questions where the runs differ: ${cmp.differing.length}`);
    for (const d of cmp.differing) expect(r.stdout).toContain(d.questionId);
  });

  it('--limit 0 lists no question, and says how many there are', () => {
    const r = cli('compare', pmem, '--a', pair.a, '--b', pair.b, '--limit', '0');
    expect(r.status).toBe(0);
    expect(unwrapped(r.stdout)).toMatch(/Questions where the runs differ: \d+ \(the first 0; --limit N lists more\)/);
    expect(r.stdout).not.toContain('-q0-');
  });
});

describe('compare refuses, with exit 2', () => {
  it('a run that does not exist, listing the runs', () => {
    const r = cli('compare', spb, '--a', 'nope', '--b', 'demo-llm');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`compare: no run "nope" in ${join(spb, 'results')} (its runs: `);
    for (const run of ['demo-llm', 'random', 'history-frequency', 'recent-batch']) expect(r.stderr).toContain(run);
    const pm = cli('compare', pmem, '--a', '32k_demo-weak', '--b', 'nope');
    expect(pm.status).toBe(2);
    expect(pm.stderr).toContain('no run "nope"');
    expect(pm.stderr).toContain('32k_demo-strong, 32k_demo-weak');
  });

  it('A equal to B, a missing --b, --json with --format, a bad --limit', () => {
    const same = cli('compare', omni, '--a', 'demo-sim', '--b', 'demo-sim');
    expect(same.status).toBe(2);
    expect(same.stderr).toContain('compare: demo-sim is compared with itself');
    const noB = cli('compare', spb, '--a', 'random');
    expect(noB.status).toBe(2);
    expect(noB.stderr).toContain('compare needs --a RUN (the reference) and --b RUN');
    const both = cli('compare', spb, '--a', 'random', '--b', 'demo-llm', '--json', '--format', 'csv');
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('compare takes --json or --format, not both');
    const limit = cli('compare', spb, '--a', 'random', '--b', 'demo-llm', '--limit', 'ten');
    expect(limit.status).toBe(2);
    expect(limit.stderr).toContain('compare --limit ten: expected a whole number');
  });
});
