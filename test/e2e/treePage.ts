// The Benchmarks tree as the workbench renders it, for tree.test.ts: its rows read back, expanded and waited for,
// and the palette commands that open an input of their own (Reveal Step by User ID…, Preferences: Color Theme).
import { waitFor, type Workbench } from './harness';
import { expandRow, type TreeRow } from './support/sideBar';

export type Row = TreeRow;

/** The helpers over the workbench `wb()` returns (a getter: the tests start it in beforeAll). */
export function treePage(wb: () => Workbench) {
  /** Every rendered row of the Benchmarks tree (not the other views of the container), in display order. */
  const rows = (): Promise<Row[]> => wb().sideBar.benchmarks.readRows();

  /** The rendered children of the row `label` at `level` (rows right below it, one level deeper). */
  async function children(label: string, level: number): Promise<Row[]> {
    const all = await rows();
    const i = all.findIndex((r) => r.level === level && r.label === label);
    if (i < 0) return [];
    const out: Row[] = [];
    for (const r of all.slice(i + 1)) {
      if (r.level <= level) break;
      if (r.level === level + 1) out.push(r);
    }
    return out;
  }

  const rowLocator = (label: string, level: number) => wb().sideBar.benchmarks.row(label, level);

  /**
   * Expands the row and returns its rendered children once they are the first of `expected` in order (the list is
   * virtualized and fills in its rows over several frames, so a single read can catch it half drawn).
   */
  async function expand(label: string, level: number, expected: string[]): Promise<Row[]> {
    const row = rowLocator(label, level).first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    await expandRow(row);
    const least = Math.min(expected.length, 5);
    return waitFor(
      async () => {
        const kids = await children(label, level);
        const labels = kids.map((r) => r.label);
        return kids.length >= least && labels.every((l, i) => l === expected[i]) ? kids : undefined;
      },
      { timeout: 30_000, message: `the first children of ${label}: ${expected.slice(0, least).join(', ')}` },
    );
  }

  const waitRow = (label: string, level: number, pred: (r: Row) => boolean, message: string) =>
    waitFor(async () => (await rows()).find((r) => r.level === level && r.label === label && pred(r)), {
      timeout: 30_000,
      message,
    });

  /** Runs a palette command that opens a quick input of its own (the harness's runCommand waits for it to close). */
  async function runCommandWithInput(title: string): Promise<void> {
    const input = wb().quick.input();
    await wb().startCommand(title);
    // The palette's own list is gone once the command's input replaces it (its value no longer starts with '>').
    await waitFor(async () => !(await input.inputValue()).startsWith('>'), {
      timeout: 30_000,
      message: `${title} to open its input`,
    });
  }

  /** The row of the open quick pick labelled `label` (a string: exactly, give or take spaces). */
  const quickPickRow = (label: string | RegExp) => wb().quickPickRow(label);

  async function reveal(query: string): Promise<void> {
    await runCommandWithInput('Persona Lab: Reveal Step by User ID…');
    const input = wb().quick.input();
    await input.fill(query);
    await input.press('Enter');
    await wb().quick.widget.waitFor({ state: 'hidden', timeout: 30_000 });
  }

  /** Preferences: Color Theme, as a user would pick it ("Dark Modern" is listed as such, its setting value is "Default Dark Modern"). */
  async function setTheme(theme: string, bodyClass: string): Promise<void> {
    await runCommandWithInput('Preferences: Color Theme');
    const input = wb().quick.input();
    await input.fill(theme);
    const row = quickPickRow(new RegExp(`^\\s*(Default )?${theme}\\s*$`));
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    await row.click();
    await wb().root(bodyClass).waitFor({ state: 'attached', timeout: 30_000 });
    await wb().quick.widget.waitFor({ state: 'hidden', timeout: 30_000 });
  }

  return { rows, children, rowLocator, expand, waitRow, runCommandWithInput, quickPickRow, reveal, setTheme };
}
