// The side bar as the tests read it: its views (panes), their headers, actions and welcome content, and the rows of
// the tree views in them. The Workbench holds one as `wb.sideBar`; `wb.sideBar.benchmarks` is the Benchmarks view.
import type { Locator, Page } from 'playwright-core';
import { pressIn } from './keys';
import { waitFor } from './wait';

/** Selectors of a tree row's parts, for code that runs in the page (evaluate) and cannot take a Locator. */
export const ROW_PARTS = {
  name: '.label-name',
  description: '.label-description',
  /** The box the row's label is drawn (and clipped) in. */
  labelBox: '.monaco-icon-label-container',
} as const;

/** The rows of a list or tree under `scope` (`level`: only that depth of a tree, 1 = the roots). */
export function listRows(scope: Locator, opts: { level?: number; hasText?: string | RegExp } = {}): Locator {
  const sel = opts.level === undefined ? '.monaco-list-row' : `.monaco-list-row[aria-level="${opts.level}"]`;
  return scope.locator(sel, opts.hasText === undefined ? undefined : { hasText: opts.hasText });
}

/** A tree row as the page renders it. */
export interface TreeRow {
  index: number;
  level: number;
  label: string;
  description: string;
  expanded: string | null;
  selected: boolean;
  /** The codicon name of its icon (without "codicon-"), or ''. */
  icon: string;
}

/** The rows of `rows` (a locator of list rows), read in one go and sorted by their index in the list. */
export function readRows(rows: Locator): Promise<TreeRow[]> {
  return rows.evaluateAll((els) =>
    els
      .map((e) => ({
        index: Number(e.getAttribute('data-index')),
        level: Number(e.getAttribute('aria-level')),
        label: e.querySelector('.label-name')?.textContent ?? '',
        description: e.querySelector('.label-description')?.textContent ?? '',
        expanded: e.getAttribute('aria-expanded'),
        selected: e.getAttribute('aria-selected') === 'true',
        icon:
          [...(e.querySelector('.custom-view-tree-node-item-icon')?.classList ?? [])]
            .find((c) => c.startsWith('codicon-'))
            ?.slice(8) ?? '',
      }))
      .sort((a, b) => a.index - b.index),
  );
}

/** The rows of `scope` whose label is `label` (a string: exactly), at depth `level` when given. */
export function namedRows(scope: Locator, label: string | RegExp, level?: number): Locator {
  const text = typeof label === 'string' ? new RegExp(`^${escapeRegExp(label)}$`) : label;
  return listRows(scope, { level }).filter({ has: scope.page().locator('.label-name', { hasText: text }) });
}

/** The label of a list row whose text matches `text`, for `rows.filter({ has: labelled(page, text) })`. */
export function labelled(page: Page, text: string | RegExp): Locator {
  return page.locator('.label-name', { hasText: text });
}

/** A tree row's twistie (the expand/collapse arrow). */
export function twistie(row: Locator): Locator {
  return row.locator('.monaco-tl-twistie');
}

/** Expands a tree row unless it says it is expanded already (`expand: false` collapses it unless collapsed). */
export async function expandRow(row: Locator, expand = true): Promise<void> {
  const expanded = (await row.getAttribute('aria-expanded')) === 'true';
  if (expanded !== expand) await twistie(row).click();
}

/** A tree row's label, or its description. */
export function rowName(row: Locator): Locator {
  return row.locator(ROW_PARTS.name);
}
export function rowDescription(row: Locator): Locator {
  return row.locator(ROW_PARTS.description);
}

/**
 * The badge a file decoration shows on a tree row (compare mode's "↓" or count), '' when it has none. VS Code draws
 * it as the label's ::after content, so it is read from the computed style.
 */
export function rowBadge(row: Locator): Promise<string> {
  return row.evaluate((el) => {
    for (const e of [el, ...el.querySelectorAll('.monaco-icon-label, .monaco-icon-label *')]) {
      const c = getComputedStyle(e, '::after').content;
      if (c && c !== 'none' && c !== 'normal' && c !== '""') return c.replace(/^"|"$/g, '');
    }
    return '';
  });
}

/** A tree row's inline actions (shown on hover or selection); `label`: the one of that aria-label. */
export function rowActions(row: Locator, label?: string): Locator {
  return row.locator(
    label === undefined ? '.actions .action-label' : `.actions .action-label[aria-label="${css(label)}"]`,
  );
}

/**
 * Hovers `row` and clicks its inline action `label`. The tree may draw the row again while it is hovered (a load or a
 * label elsewhere refreshes it), which hides the action until the pointer moves: each try hovers afresh, at most
 * five tries of 5 s.
 */
export async function clickRowAction(row: Locator, label: string): Promise<void> {
  let last: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await row.hover({ timeout: 5_000 });
      await rowActions(row, label).click({ timeout: 5_000 });
      return;
    } catch (err) {
      last = err;
    }
  }
  throw last;
}

/** The aria-label and codicon of each inline action of `row`, as "label: codicon-name". */
export function rowActionIcons(row: Locator): Promise<string[]> {
  return rowActions(row).evaluateAll((as) =>
    as.map((a) => `${a.getAttribute('aria-label')}: ${[...a.classList].find((c) => c.startsWith('codicon-'))}`),
  );
}

/** An element of `scope` showing the codicon `name` (without the "codicon-" prefix). */
export function codicon(scope: Locator, name: string): Locator {
  return scope.locator(`.codicon-${name}`);
}

/** A workbench button (dialogs, toasts, welcome views, walkthrough steps) under `scope`. */
export function button(scope: Locator, text?: string | RegExp): Locator {
  return scope.locator('.monaco-button', text === undefined ? undefined : { hasText: text });
}

/** One view of the side bar (its pane: header and body). */
export class ViewPane {
  constructor(
    private readonly page: Page,
    /** The pane element. */
    readonly root: Locator,
  ) {}

  header(): Locator {
    return this.root.locator('.pane-header').first();
  }

  /** The header's description (what VS Code shows after the view's title). */
  description(): Locator {
    return this.root.locator('.pane-header .description');
  }

  body(): Locator {
    return this.root.locator('.pane-body');
  }

  /** Presses `keys` in the view (its tree, on the selected row), once it has the focus. */
  press(...keys: string[]): Promise<void> {
    return pressIn(this.body(), ...keys);
  }

  /** The tree view's message (TreeView.message), shown above its rows. */
  message(): Locator {
    return this.root.locator('.pane-body .message');
  }

  /** The view's welcome content (viewsWelcome), shown while the tree is empty. */
  welcome(): Locator {
    return this.root.locator('.welcome-view-content');
  }

  /** The rows of the view's tree (`level`: only that depth, 1 = the roots). */
  rows(opts: { level?: number; hasText?: string | RegExp } = {}): Locator {
    return listRows(this.root, opts);
  }

  /** The rows labelled `label` (a string: exactly), at depth `level` when given. */
  row(label: string | RegExp, level?: number): Locator {
    return namedRows(this.root, label, level);
  }

  /** Every rendered row, read in one go, in display order. */
  readRows(): Promise<TreeRow[]> {
    return readRows(this.rows());
  }

  /** The row now selected. */
  selectedRow(): Locator {
    return this.root.locator('.monaco-list-row.selected');
  }

  /** The row at index `index` of the tree's list (its data-index, counted over the rows shown). */
  rowAt(index: number): Locator {
    return this.root.locator(`.monaco-list-row[data-index="${index}"]`);
  }

  /** The header's actions (`label`: the one with that aria-label). */
  action(label?: string): Locator {
    return this.root.locator(
      label === undefined
        ? '.pane-header .actions .action-item .action-label'
        : `.pane-header .actions .action-label[aria-label="${css(label)}"]`,
    );
  }

  /** The aria-labels of the header's actions, in order. */
  actionLabels(): Promise<string[]> {
    return this.action().evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
  }

  /** Hovers the header (its actions show only then) and clicks the action `label` once it is visible. */
  async clickAction(label: string, opts: { timeout?: number } = {}): Promise<void> {
    const action = this.action(label);
    await waitFor(
      async () => {
        await this.header().hover();
        return action.isVisible();
      },
      { timeout: opts.timeout ?? 15_000, message: `the action ${label} of the view's header` },
    );
    await action.click();
  }

  /** The header's Collapse All. */
  collapseAll(): Promise<void> {
    return this.clickAction('Collapse All');
  }

  /** Whether the view is expanded (its header says so). */
  async expanded(): Promise<boolean> {
    return (await this.header().getAttribute('aria-expanded')) === 'true';
  }

  /** The page this pane is on (for locators a test builds next to it). */
  get onPage(): Page {
    return this.page;
  }
}

export class SideBar {
  /** The Benchmarks view (its container also holds the PI Audit view, whose rows must not count). */
  readonly benchmarks: ViewPane;

  constructor(private readonly page: Page) {
    this.benchmarks = this.pane('Benchmarks');
  }

  /** The side bar part. */
  part(): Locator {
    return this.page.locator('.part.sidebar');
  }

  /** The side bar's title (the shown container's name). */
  title(): Locator {
    return this.page.locator('.part.sidebar .composite.title');
  }

  /** The sash on the side bar's edge, which resizes it. */
  sash(): Locator {
    return this.page.locator('.part.sidebar + .monaco-sash, .monaco-sash.vertical').first();
  }

  /** Drags the side bar's edge out to `width` px, so that its rows' descriptions are readable in a screenshot. */
  async widen(width: number): Promise<void> {
    const box = await this.part().boundingBox();
    if (!box || (await this.sash().count()) === 0) return;
    const y = box.y + box.height / 2;
    await this.page.mouse.move(box.x + box.width, y);
    await this.page.mouse.down();
    await this.page.mouse.move(box.x + width, y, { steps: 5 });
    await this.page.mouse.up();
  }

  /** The view titled exactly `title`. */
  pane(title: string): ViewPane {
    const header = this.page.locator('.pane-header h3.title', { hasText: new RegExp(`^${escapeRegExp(title)}$`) });
    return new ViewPane(this.page, this.page.locator('.part.sidebar .pane').filter({ has: header }).first());
  }

  /** The headers of the views of the shown container (`expanded`: only those expanded; `except`: not that view). */
  headers(opts: { expanded?: boolean; except?: string } = {}): Locator {
    const sel = opts.expanded ? '.part.sidebar .pane-header[aria-expanded="true"]' : '.part.sidebar .pane-header';
    const all = this.page.locator(sel);
    if (opts.except === undefined) return all;
    const title = this.page.locator('h3.title', { hasText: new RegExp(`^${escapeRegExp(opts.except)}$`) });
    return all.filter({ hasNot: title });
  }

  /** Every tree row in the side bar (`level`: only that depth). */
  rows(opts: { level?: number; hasText?: string | RegExp } = {}): Locator {
    return listRows(this.part(), opts);
  }

  /** The side bar's selected row. */
  selectedRow(): Locator {
    return this.page.locator('.part.sidebar .monaco-list-row.selected');
  }

  /** Waits until the side bar shows at least one tree row; returns how many. */
  waitForRows(message: string, timeout = 60_000): Promise<number> {
    return waitFor(() => this.rows().count(), { timeout, message });
  }
}

/** Selectors of the side bar for code that runs in the page: a view's pane, its title, its rows' parts. */
export const PANE_IN_PAGE = { pane: '.part.sidebar .pane', title: '.pane-header h3.title', ...ROW_PARTS } as const;

/**
 * A CSS selector (for code that runs in the page, such as recordTexts) of a part of the view whose header's
 * aria-label starts with `title`: its message, its welcome content or its header's description.
 */
export function paneCss(title: string, part: 'message' | 'welcome' | 'description'): string {
  const inner = { message: '.message', welcome: '.welcome-view-content', description: '.pane-header .description' }[
    part
  ];
  return `.part.sidebar .pane:has(.pane-header[aria-label^="${css(title)}"]) ${inner}`;
}

function css(s: string): string {
  return s.replace(/["\\]/g, '\\$&');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
