// For adjudication.test.ts and goldTeam.test.ts: `labels gold --json` read through the built CLI, and a run
// dashboard's why-runs-fail section read back in the shape of that JSON's `runs`, to compare the two.
import type { Frame, Locator } from 'playwright-core';
import { waitFor } from './harness';
import { cli } from './labelsPage';

export interface GoldRunJson {
  run: string;
  units: number;
  settled: number;
  failing: number;
  byLabel: Record<string, { count: number; share: number | null }>;
}

/** Waits until the Label Agreement's gold block `block` reads the counts of labels gold --json's `c`. */
export async function waitForGoldCounts(
  block: Locator,
  c: { units: number; adjudicated: number; unanimous: number; open: number; single: number },
): Promise<void> {
  const counts = `${c.units} step(s): ${c.adjudicated} adjudicated, ${c.unanimous} unanimous, ${c.open} open, ${c.single} by one annotator only`;
  await waitFor(async () => (await block.locator('.gold-counts').innerText()) === counts, {
    timeout: 30_000,
    message: `the gold counts to read ${counts}`,
  });
}

/** The `runs` of `benchmark` in `labels gold <db> --json`. */
export function goldRuns(db: string, benchmark: string): GoldRunJson[] {
  const j = JSON.parse(cli(['labels', 'gold', db, '--json'])) as {
    benchmarks: { benchmark: string; runs: GoldRunJson[] }[];
  };
  return j.benchmarks.find((x) => x.benchmark === benchmark)!.runs;
}

/** What the section should show for `runs`: run names, failing of settled, the label rows and their cells. */
export function expectedSection(runs: readonly GoldRunJson[]) {
  const labels = Object.keys(runs[0].byLabel);
  return {
    runs: runs.map((r) => r.run),
    settled: runs.map((r) => `${r.failing} of ${r.settled}`),
    labels,
    cells: labels.map((l) =>
      runs.map((r) => {
        const c = r.byLabel[l];
        return c.count > 0 ? `${c.count} (${(100 * c.share!).toFixed(1)}%)` : '0';
      }),
    ),
  };
}

/** The why-runs-fail section under `root` in `frame`, once it shows a table, read in expectedSection's shape. */
export async function readSection(frame: Frame, root: string) {
  const s = frame.locator(`${root} .why-runs-fail-section[data-state="shown"]`);
  await s.waitFor({ timeout: 60_000 });
  const rows = s.locator('tbody tr');
  return {
    runs: (await s.locator('thead tr:first-child th').allInnerTexts()).slice(1),
    settled: await s.locator('tr.settled td').allInnerTexts(),
    labels: await rows.evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.label ?? '')),
    cells: await rows.evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    ),
    covers: await s.locator('.covers').innerText(),
  };
}
