// The judge against people in the real workbench, on a fresh copy of sample/omnibehavior: three of a user's judged
// utterances scored on the judge's four dimensions with the keyboard in the trace view (S, then 1–9 and 0 for 10),
// an undo and a click, the scores read back through the CLI, and the OmniBehavior dashboard's per-dimension table
// equal to what `persona-lab labels judge` prints.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import type { JudgeAgreement } from '../../src/core/omni/judgeAgreement';
import { judgeAgreementCells, JUDGE_AGREEMENT_HEAD } from '../../src/core/omni/judgeAgreementText';
import { JUDGE_DIMENSIONS, type TestAction } from '../../src/core/omni/types';
import { pressIn, repoRoot, waitFor, type Workbench } from './harness';
import { labelled, twistie } from './support/sideBar';
import { omniSampleWorkbench } from './support/omniCopy';

const AUTHOR = 'e2e-judge-annotator';
const RUN = 'demo-sim';
const USER = 'u_1005';
/** What is typed after S on each of the three answers: one key per dimension (0 is 10). */
const KEYS = ['7806', '3254', '9980'];
const scoreOf = (k: string) => (k === '0' ? 10 : Number(k));

describe('the judge against people in the real workbench', () => {
  let wb: Workbench;
  let root: string;
  let answers: TestAction[];
  let frame: Frame;

  function cli(): JudgeAgreement {
    const out = execFileSync(
      process.execPath,
      [join(repoRoot, 'dist/cli.js'), 'labels', 'judge', root, '--run', RUN, '--json'],
      { encoding: 'utf8' },
    );
    return JSON.parse(out) as JudgeAgreement;
  }

  const treeRow = (label: string, level: number) =>
    wb.sideBar.benchmarks
      .rows({ level })
      .filter({ has: labelled(wb.page, new RegExp(`^${label}$`)) })
      .first();

  async function open(action: TestAction): Promise<void> {
    const row = treeRow(`#${action.index} ${action.scene}`, 3);
    await row.scrollIntoViewIfNeeded();
    await row.click();
    frame = await wb.findWebviewFrame(`#trace-root[data-trace="${USER}#${action.index}"] .score-table`, {
      timeout: 60_000,
    });
    // The keys go to the page, not to the workbench.
    await frame.locator('.trace-header .user-id').click();
  }

  const mine = () =>
    Promise.all(
      JUDGE_DIMENSIONS.map(async (d) =>
        frame.locator(`.score-table tr[data-dimension="${d}"]`).getAttribute('data-mine'),
      ),
    );
  const shows = (want: string[]) =>
    waitFor(async () => JSON.stringify(await mine()) === JSON.stringify(want), {
      message: () => `the scores ${want.join(' ')}`,
    });

  omniSampleWorkbench('judgeScores', AUTHOR, {
    prepare: async (copy) => {
      root = copy;
      const bench = await loadOmniBenchmark(root);
      const run = bench.runs.get(RUN)!;
      const user = bench.users.get(USER)!;
      answers = [...user.testActions]
        .sort((a, b) => a.index - b.index)
        .filter((a) =>
          run.predictions
            .get(`${USER}#${a.index}`)
            ?.questions.some((q) => q.field === 'next_user_message' && q.judgeScores !== undefined),
        )
        .slice(0, KEYS.length);
      expect(answers).toHaveLength(KEYS.length);
    },
    started: (started) => {
      wb = started;
    },
  });

  it('scores an utterance with S and the number keys, beside the judge; u undoes, a click scores', async () => {
    await wb.openView('Persona Lab');
    for (const [label, level] of [
      ['omnibehavior', 1],
      [USER, 2],
    ] as const) {
      const r = treeRow(label, level);
      await r.waitFor({ state: 'visible', timeout: 60_000 });
      if ((await r.getAttribute('aria-expanded')) !== 'true') await twistie(r).click();
    }
    await open(answers[0]);
    await shows(['', '', '', '']);
    // The judge's own scores, from the run's predictions.
    const judge = await frame.locator('.score-table td.judge').allTextContents();
    expect(judge.every((t) => /^(10|[1-9])$/.test(t))).toBe(true);

    await pressIn(frame.locator('body'), 's');
    await waitFor(async () => (await frame.locator('.scores').getAttribute('data-scoring')) === 'true', {
      message: 'scoring to start',
    });
    for (const k of KEYS[0]) await pressIn(frame.locator('body'), k);
    const first = [...KEYS[0]].map((k) => String(scoreOf(k)));
    await shows(first);
    expect(await frame.locator('.scores').getAttribute('data-scoring')).toBe('false');
    expect(cli().scoredByPeople).toBe(1);

    // u undoes the last score (the labels bar's undo), a click on a number sets it again.
    await pressIn(frame.locator('body'), 'u');
    await shows([...first.slice(0, 3), '']);
    expect(await frame.locator('.labels-flash').textContent()).toBe('Undid: scored semantic alignment 6 of 10');
    await frame.locator('.score-table tr[data-dimension="semantic_alignment"] button[data-score="6"]').click();
    await shows(first);
    await wb.screenshot('judge-scores-trace');

    for (const [i, keys] of KEYS.entries()) {
      if (i === 0) continue;
      await open(answers[i]);
      await pressIn(frame.locator('body'), 's');
      for (const k of keys) await pressIn(frame.locator('body'), k);
      await shows([...keys].map((k) => String(scoreOf(k))));
    }
    const printed = cli();
    expect([printed.scoredByPeople, printed.judgedToo]).toEqual([3, 3]);
    for (const d of printed.dimensions) expect([d.n, d.answers, d.people]).toEqual([3, 3, 1]);
    // The stored scores are the ones typed (the people mean of each dimension).
    JUDGE_DIMENSIONS.forEach((_, i) => {
      const typed = KEYS.map((k) => scoreOf(k[i]));
      expect(printed.dimensions[i].meanPeople).toBeCloseTo(typed.reduce((a, b) => a + b, 0) / typed.length, 12);
    });
  });

  it('the OmniBehavior dashboard shows the judge against people, as the CLI prints it', async () => {
    await wb.runCommand('Persona Lab: Open OmniBehavior Dashboard');
    const dash = await wb.findWebviewFrame(`#omnidash-root[data-run="${RUN}"] [data-table="judge-vs-people"]`, {
      timeout: 60_000,
    });
    const table = dash.locator('[data-table="judge-vs-people"]');
    const want = cli().dimensions.map(judgeAgreementCells);
    const cells = async () =>
      Promise.all(
        (await table.locator('tbody tr').all()).map(async (tr) =>
          (await tr.locator('th, td').allTextContents()).map((t) => t.trim()),
        ),
      );
    await waitFor(async () => JSON.stringify(await cells()) === JSON.stringify(want), {
      timeout: 30_000,
      message: () => `the dashboard's table to equal the CLI's ${JSON.stringify(want)}`,
    });
    expect((await table.locator('thead th').allTextContents()).map((t) => t.trim())).toEqual([...JUDGE_AGREEMENT_HEAD]);
    expect(want.every((row) => row[1] === '3')).toBe(true);
    await table.scrollIntoViewIfNeeded();
    await wb.screenshot('omni-dashboard-judge-vs-people');
  });
});
