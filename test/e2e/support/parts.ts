// Small page objects for the workbench's parts the tests read besides the side bar, the editors and the quick input:
// modal dialogs, context menus, the status bar, the panel (Problems), hovers and notification toasts. The Workbench
// holds each (`wb.dialog`, `wb.menu`, `wb.statusBar`, `wb.panel`, `wb.notes`).
import type { Locator, Page } from 'playwright-core';
import { pressIn } from './keys';
import { button } from './sideBar';

/** The workbench's modal dialog (showInformationMessage / showWarningMessage with `modal: true`). */
export class Dialog {
  constructor(private readonly page: Page) {}

  box(): Locator {
    return this.page.locator('.monaco-dialog-box');
  }

  /** Its buttons (`text`: those whose text matches; a string matches anywhere in the text). */
  button(text?: string | RegExp): Locator {
    return this.box().locator('.dialog-buttons .monaco-button', text === undefined ? undefined : { hasText: text });
  }

  /** The button whose whole text is `text` (give or take spaces). */
  exactButton(text: string): Locator {
    return this.button(new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`));
  }
}

/** The context menu (a tree row's or an editor's right-click menu). */
export class ContextMenu {
  constructor(private readonly page: Page) {}

  /** The open menu. */
  menu(): Locator {
    return this.page.locator('.context-view .monaco-menu');
  }

  /** The menu's entries (whose text matches `text`). */
  item(text: string | RegExp): Locator {
    return this.page.locator('.context-view .monaco-menu .action-item', { hasText: text }).first();
  }

  /** The menu entries' labels (whose text matches `text`). */
  label(text: string | RegExp): Locator {
    return this.page.locator('.context-view .action-label', { hasText: text });
  }

  /** Presses `keys` in the open menu (Enter runs the entry a hover focused), once it has the focus. */
  press(...keys: string[]): Promise<void> {
    return pressIn(this.menu(), ...keys);
  }

  /** Waits until the menu is closed. */
  closed(timeout = 10_000): Promise<void> {
    return this.menu().waitFor({ state: 'hidden', timeout });
  }
}

export class StatusBar {
  constructor(private readonly page: Page) {}

  /** The status bar (those showing `text`). */
  part(text?: string | RegExp): Locator {
    return this.page.locator('.part.statusbar', text === undefined ? undefined : { hasText: text });
  }

  /** Its entries (those whose text matches `text`). */
  item(text?: string | RegExp): Locator {
    return this.page.locator('.part.statusbar .statusbar-item', text === undefined ? undefined : { hasText: text });
  }

  /** The Problems entry (its aria-label counts errors and warnings; a click shows the Problems view). */
  problems(): Locator {
    return this.page.locator('#status\\.problems');
  }

  /** The entry of the active editor's cursor position ("Ln 3, Col 1"). */
  selection(text?: string | RegExp): Locator {
    return this.page.locator('#status\\.editor\\.selection', text === undefined ? undefined : { hasText: text });
  }
}

/** The panel (Problems, Output, ...). */
export class Panel {
  constructor(private readonly page: Page) {}

  part(): Locator {
    return this.page.locator('.part.panel');
  }

  /** Hides the panel when it is shown, and waits until it is hidden. */
  async hide(): Promise<void> {
    const hide = this.page.locator(
      '.part.panel .action-label[aria-label^="Hide Panel"], .part.panel .action-label[aria-label^="Close Panel"]',
    );
    if (await this.part().isVisible()) await hide.first().click();
    await this.part().waitFor({ state: 'hidden' });
  }

  /** The Problems view. */
  problemsView(): Locator {
    return this.page.locator('.markers-panel');
  }

  /** The rows of the Problems view (those whose text matches `text`). */
  problems(text?: string | RegExp): Locator {
    const rows = this.page.locator('.markers-panel .monaco-list-row');
    return text === undefined ? rows : rows.filter({ hasText: text });
  }
}

/** Notification toasts. */
export class Notifications {
  constructor(private readonly page: Page) {}

  /** The toasts (those whose text matches `text`). */
  toasts(text?: string | RegExp): Locator {
    return this.page.locator('.notification-toast', text === undefined ? undefined : { hasText: text });
  }

  /** The texts of the toasts now shown. */
  texts(): Promise<string[]> {
    return this.toasts().locator('.notification-list-item-message').allInnerTexts();
  }

  /** A button of `toast`. */
  button(toast: Locator, text: string | RegExp): Locator {
    return button(toast, text);
  }

  /** The toasts' close buttons ("Clear Notification"). */
  closeButtons(): Locator {
    return this.page.locator('.notification-toast .codicon-notifications-clear');
  }
}

/** The Getting Started page of a walkthrough: its steps (by "<walkthrough id>#<step id>") and their buttons. */
export class WalkthroughPage {
  constructor(private readonly page: Page) {}

  /** The step's entry in the list (a click selects it). */
  step(key: string): Locator {
    return this.page.locator(`button.getting-started-step[data-step-id="${key}"]`);
  }

  /** Every step's entry, in order. */
  steps(): Locator {
    return this.page.locator('button.getting-started-step');
  }

  /** The titles of the steps, in order. */
  titles(): Promise<string[]> {
    return this.page.locator('button.getting-started-step .step-title').allInnerTexts();
  }

  /** The buttons of the step's description (those whose text matches `text`). */
  button(key: string, text: string | RegExp): Locator {
    return this.page.locator(`[x-step-description-for="${key}"] .monaco-button`, { hasText: text });
  }
}

/** The hover shown now (a tree row's tooltip, an editor hover) whose text matches `text`. */
export function hover(page: Page, text: string | RegExp): Locator {
  return page.locator('.workbench-hover, .monaco-hover').filter({ hasText: text }).first();
}
