// For labels.test.ts: the labels database read back through the CLI, the label suggestions of a step, the agreement
// table's cells and those `labels summary --json` gives, and the workbench helpers it drives (the palette by keyboard,
// quick picks, the file dialog, the Benchmarks tree's rows).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Frame } from 'playwright-core';
import { join } from 'node:path';
import { parseLabelFile } from '../../src/core/labels/exportImport';
import { suggestLabels } from '../../src/core/spb/labels/suggest';
import { resultFor } from '../../src/core/spb/score/run';
import type { Run, User } from '../../src/core/spb/types';
import { answerFileDialog } from './support/fileDialog';
import { repoRoot, waitFor, type Workbench } from './harness';
import { labelled, twistie } from './support/sideBar';

export interface Row {
  label: string;
  stepId: number;
  target: string;
  note: string;
  author: string;
}

/** Every label in the database `db`, read back through the CLI (an independent reader). */
export function labelRows(db: string): Row[] {
  if (!existsSync(db)) return [];
  const text = execFileSync(process.execPath, [join(repoRoot, 'dist/cli.js'), 'labels', 'export', db], {
    encoding: 'utf8',
  });
  return parseLabelFile(text, 'db', 'jsonl').rows.map(({ row }) => ({
    label: row.label,
    stepId: row.stepId,
    target:
      row.target.kind === 'tag'
        ? `tag:${row.target.tag}`
        : row.target.kind === 'span'
          ? `span:${row.target.start}-${row.target.end}`
          : 'step',
    note: row.note,
    author: row.author,
  }));
}

/** The label ids suggested for step `stepId` of `u` in `run`. */
export function suggestionsFor(run: Run, u: User, stepId: number): string[] {
  const s = u.steps.find((x) => x.stepId === stepId)!;
  const r = resultFor(run, u, stepId)!;
  return suggestLabels({ split: s.split, pool: s.pool, prediction: r.prediction, reasoning: r.reasoning }).map(
    (x) => x.labelId,
  );
}

/** A line of a weibo step label file (another annotator's export) for `userId` in `run`, with `o` over it. */
export function importLine(userId: string, run: string, o: Record<string, unknown>): string {
  return JSON.stringify({
    benchmark: 'sample',
    platform: 'weibo',
    user_id: userId,
    run,
    target_kind: 'step',
    note: '',
    created_at: '2025-01-01T00:00:00Z',
    content_hash: '',
    ...o,
  });
}

/** The helpers over the workbench `wb()` returns (a getter: the tests start it in beforeAll). */
export function labelsPage(wb: () => Workbench) {
  /** The label of the quick input's focused row. */
  const focusedRow = () => wb().quick.focusedRowLabel();

  /** F1, the command's exact title, Enter: the keyboard path through the palette. */
  async function palette(title: string): Promise<void> {
    const input = await wb().openPalette();
    await input.fill(`>${title}`);
    await waitFor(async () => (await focusedRow()) === title, { message: `${title} to be the first row` });
    await wb().quick.press('Enter');
    // The palette is gone (or the command's own quick input replaced it) before anything is typed again.
    await waitFor(async () => !(await input.isVisible()) || !(await input.inputValue()).startsWith('>'), {
      message: `the palette to run ${title}`,
    });
  }

  /** Types into the quick input that is open and presses Enter once the focused row is `row`. */
  async function pick(text: string, row: string): Promise<void> {
    const input = wb().quick.input();
    await waitFor(() => input.isVisible(), { message: 'a quick input' });
    await input.fill(text);
    await waitFor(async () => (await focusedRow()) === row, { message: `row ${row}` });
    await wb().quick.press('Enter');
  }

  /** Answers the workbench's own file dialog (code-server has no native one) with `path`, once its start path is `ready`. */
  async function dialogPath(path: string, ready: (value: string) => boolean, what: string): Promise<void> {
    await answerFileDialog(wb().page, path, ready, what);
    await wb().quick.widget.waitFor({ state: 'hidden', timeout: 30_000 });
  }

  const treeRows = async () =>
    (await wb().sideBar.benchmarks.readRows()).map(({ level, label, description }) => ({ level, label, description }));
  const treeRow = (label: string, level: number) =>
    wb()
      .sideBar.benchmarks.rows({ level })
      .filter({ has: labelled(wb().page, new RegExp(`^${label}$`)) })
      .first();
  async function expandRow(label: string, level: number): Promise<void> {
    const row = treeRow(label, level);
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    if ((await row.getAttribute('aria-expanded')) !== 'true') await twistie(row).click();
    await waitFor(async () => (await row.getAttribute('aria-expanded')) === 'true', { message: `${label} to expand` });
  }

  return { focusedRow, palette, pick, dialogPath, treeRows, treeRow, expandRow };
}

/** The persona-lab CLI's standard output for `args` (it exits 0, or this throws with its stderr). */
export function cli(args: string[]): string {
  return execFileSync(process.execPath, [join(repoRoot, 'dist/cli.js'), ...args], { encoding: 'utf8' });
}

interface CliKappa {
  kappa: number | null;
  po: number | null;
  pe: number | null;
  n: number;
  onlyA: number;
  onlyB: number;
}

/** The cells the agreement table should show for one pair, from `labels summary --json` (κ: n/a† below ten units). */
export function expectedAgreementCells(db: string): Map<string, Map<string, string[]>> {
  const json = JSON.parse(cli(['labels', 'summary', db, '--json'])) as {
    agreements: {
      authorA: string;
      authorB: string;
      units: number;
      overall: CliKappa;
      perLabel: Record<string, CliKappa>;
    }[];
  };
  const fixed = (x: number | null, none: string) => (x === null ? none : x.toFixed(3));
  const out = new Map<string, Map<string, string[]>>();
  for (const a of json.agreements) {
    // n is the shared units; the CLI's overall n counts the pooled (unit, label) decisions instead.
    const cells = (k: CliKappa, n = k.n) => [
      a.units < 10 ? 'n/a†' : fixed(k.kappa, 'n/a'),
      String(n),
      fixed(k.po, '—'),
      fixed(k.pe, '—'),
      String(k.onlyA + k.onlyB),
    ];
    const rows = new Map(Object.entries(a.perLabel).map(([label, k]) => [label, cells(k)]));
    rows.set('(overall)', cells(a.overall, a.units));
    out.set(`${a.authorA} vs ${a.authorB}`, rows);
  }
  return out;
}

/** The same cells as the agreement table shows them: pair ("A vs B") -> label id (or "(overall)") -> κ, n, po, pe, disagreements. */
export function shownAgreementCells(frame: Frame): Promise<Map<string, Map<string, string[]>>> {
  return frame
    .locator('section.pair')
    .evaluateAll((sections) =>
      sections.map((s) => {
        const el = s as HTMLElement;
        const text = (tr: Element, sel: string) => tr.querySelector(sel)?.textContent?.trim() ?? '';
        const cells = (tr: Element) => [
          text(tr, 'td.kappa'),
          text(tr, 'td.n'),
          text(tr, 'td.po'),
          text(tr, 'td.pe'),
          text(tr, 'td.disagreements .count'),
        ];
        const rows: [string, string[]][] = [...el.querySelectorAll('tr.label-row')].map((tr) => [
          (tr as HTMLElement).dataset.label ?? '',
          cells(tr),
        ]);
        rows.push(['(overall)', cells(el.querySelector('tr.overall')!)]);
        return [`${el.dataset.authorA} vs ${el.dataset.authorB}`, rows] as const;
      }),
    )
    .then((pairs) => new Map(pairs.map(([k, rows]) => [k, new Map(rows)])));
}
