// For audit.test.ts: the planted strings of sample/pi-manifest.json, a JSONL line editor, and the PI Audit view as
// the workbench renders it (rows read back, expanded, collapsed and waited for; context menu entries; the export).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Frame } from 'playwright-core';
import { CATEGORY_INFO, type PiCategory } from '../../src/core/pi/placeholders';
import type { StepAuditReport } from '../../src/core/spb/pi/audit';
import { PLATFORM_LABELS } from '../../src/core/spb/score/tables';
import { answerFileDialog } from './support/fileDialog';
import { waitFor, type Workbench } from './harness';
import { twistie, type TreeRow, type ViewPane } from './support/sideBar';

export interface Planted {
  category: PiCategory;
  text: string;
  file: string;
  line: number;
  userId: string;
  stepId: number | null;
}

export type Row = TreeRow;

export interface SeenFinding {
  category: string;
  platform: string;
  user: string;
  label: string;
  description: string;
}

/** Rewrites line `n` (1-based) of a JSONL file through `edit`. */
export function editLine(file: string, n: number, edit: (rec: Record<string, unknown>) => void): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  const rec = JSON.parse(lines[n - 1]!) as Record<string, unknown>;
  edit(rec);
  lines[n - 1] = JSON.stringify(rec);
  writeFileSync(file, lines.join('\n'));
}

/** Where a PI Audit finding's outlined mark is in a step or trace page, and that it can be seen. */
export interface OutlinedFinding {
  /** the page section holding it (data-section), else 'bio', 'record' or 'profile' */
  area: string;
  category: string;
  /** the mark is the element at its own centre (not under the sticky header or cut off), inside the viewport */
  inView: boolean;
  outline: string;
}

/**
 * Waits for the one outlined PI Audit finding (`mark.pi-target`) of a step or trace page to hold `text` and to be in
 * view (the page scrolls it there), and says where it is.
 */
export async function outlinedFinding(frame: Frame, text: string): Promise<OutlinedFinding> {
  const mark = frame.locator('mark.pi-target');
  let last: OutlinedFinding | undefined;
  return waitFor(
    async () => {
      if ((await mark.count()) !== 1 || (await mark.textContent()) !== text) return undefined;
      last = await mark.evaluate((m: HTMLElement): OutlinedFinding => {
        const r = m.getBoundingClientRect();
        // The middle of the mark's last box (a mark that wraps has one per line) is the mark itself, not something over it.
        const box = [...m.getClientRects()].pop() ?? r;
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        const area =
          m.closest('[data-section]')?.getAttribute('data-section') ??
          (m.closest('.bio') ? 'bio' : m.closest('.record-detail') ? 'record' : m.closest('.profile') ? 'profile' : '');
        return {
          area,
          category: m.dataset.category ?? '',
          inView:
            r.width > 0 &&
            r.top >= 0 &&
            r.bottom <= window.innerHeight &&
            hit !== null &&
            (hit === m || m.contains(hit)),
          outline: getComputedStyle(m).outlineStyle,
        };
      });
      return last.inView && last.outline === 'solid' ? last : undefined;
    },
    { timeout: 30_000, message: () => `the finding ${text} outlined and in view (${JSON.stringify(last)})` },
  );
}

export interface Parent {
  label: string;
  level: number;
}

/** The helpers over the workbench `wb()` and the CLI's report `cli()` (getters: the tests make both in beforeAll). */
/** The PI Audit view's pane in the side bar. */
export const auditPane = (wb: Workbench): ViewPane => wb.sideBar.pane('PI Audit');

/** Every rendered row of the PI Audit tree, in display order. */
export const auditRows = (wb: Workbench): Promise<Row[]> => auditPane(wb).readRows();

export function auditPage(wb: () => Workbench, cli: () => StepAuditReport) {
  const pane = () => auditPane(wb());
  const rows = () => auditRows(wb());

  const rowLocator = (label: string, level: number) => pane().row(label, level).first();

  /** The rendered children of the first row `label` at `level` that comes after `after` (a row index). */
  async function children(label: string, level: number, after = -1): Promise<Row[]> {
    const all = await rows();
    const i = all.findIndex((r) => r.level === level && r.label === label && r.index > after);
    const out: Row[] = [];
    if (i < 0) return out;
    for (const r of all.slice(i + 1)) {
      if (r.level <= level) break;
      if (r.level === level + 1) out.push(r);
    }
    return out;
  }

  /** The data-index of the row `label` at `level` (the first one, or the first below `under`). */
  async function rowIndex(label: string, level: number, under?: Parent): Promise<number | undefined> {
    const all = await rows();
    let from = 0;
    if (under) {
      from = all.findIndex((r) => r.level === under.level && r.label === under.label) + 1;
      if (from === 0) return undefined;
    }
    for (const r of all.slice(from)) {
      if (under && r.level <= under.level) break;
      if (r.level === level && r.label === label) return r.index;
    }
    return undefined;
  }

  /** Expands or collapses a row; `under` picks e.g. the Weibo row of one category among several. */
  async function setExpanded(label: string, level: number, expanded: boolean, under?: Parent): Promise<void> {
    await waitFor(
      async () => {
        const i = await rowIndex(label, level, under);
        if (i === undefined) return false;
        const row = pane().rowAt(i);
        if ((await row.getAttribute('aria-expanded')) === String(expanded)) return true;
        await twistie(row).click();
        // A busy workbench can take longer than one poll to turn the row: a second click then would turn it back.
        await waitFor(async () => (await row.getAttribute('aria-expanded').catch(() => null)) === String(expanded), {
          timeout: 3_000,
          message: `${label} to turn`,
        }).catch(() => undefined);
        return false;
      },
      { timeout: 30_000, message: `${label} to be ${expanded ? 'expanded' : 'collapsed'}` },
    );
  }

  const waitRow = (label: string, level: number, pred: (r: Row) => boolean, message: string) =>
    waitFor(async () => (await rows()).find((r) => r.level === level && r.label === label && pred(r)), {
      timeout: 30_000,
      message,
    });

  /** Expands one category at a time (the list is virtualised) and reads every finding row under it. */
  async function readFindings(category: PiCategory): Promise<SeenFinding[]> {
    const label = CATEGORY_INFO[category].label;
    const want = cli().findings.filter((f) => f.category === category);
    await setExpanded(label, 1, true);
    const out: SeenFinding[] = [];
    const platforms = [...new Set(want.map((f) => f.platform))];
    for (const p of platforms) {
      await setExpanded(PLATFORM_LABELS[p], 2, true, { label, level: 1 });
      const users = [...new Set(want.filter((f) => f.platform === p).map((f) => f.userId))];
      for (const u of users) {
        await setExpanded(u, 3, true, { label: PLATFORM_LABELS[p], level: 2 });
        const n = want.filter((f) => f.platform === p && f.userId === u).length;
        const kids = await waitFor(
          async () => {
            const k = await children(u, 3);
            return k.length === n ? k : undefined;
          },
          { timeout: 30_000, message: `${n} finding row(s) under ${category}/${p}/${u}` },
        );
        out.push(...kids.map((k) => ({ category, platform: p, user: u, label: k.label, description: k.description })));
      }
    }
    await setExpanded(label, 1, false);
    return out;
  }

  const categoryRow = (c: PiCategory) => waitRow(CATEGORY_INFO[c].label, 1, () => true, `the ${c} category`);

  async function contextMenu(label: string, level: number, entry: string): Promise<void> {
    await rowLocator(label, level).click({ button: 'right' });
    await wb().menu.item(entry).hover();
    await wb().menu.press('Enter');
    await wb().menu.closed();
  }

  /** Runs Export PI Audit Report… and answers code-server's save dialog (a quick input holding a path) with `target`. */
  async function exportTo(target: string): Promise<void> {
    await wb().startCommand('Persona Lab: Export PI Audit Report…');
    await answerFileDialog(
      wb().page,
      target,
      (v) => v.endsWith('pi-audit-sample.md'),
      'the save dialog with its default name',
    );
    await waitFor(() => existsSync(target), { timeout: 30_000, message: `${target} to be written` });
  }

  return { pane, rowLocator, setExpanded, waitRow, readFindings, categoryRow, contextMenu, exportTo };
}
