// The editor part of the workbench as the tests drive it: the active editor, typing into it, and moving its cursor.
import type { Locator, Page } from 'playwright-core';
import { pressIn, typeInto, waitForFocus } from './keys';
import type { QuickInput } from './quickInput';

export class EditorPart {
  constructor(
    private readonly page: Page,
    private readonly quick: QuickInput,
  ) {}

  /** The editor of the active editor group. */
  active(): Locator {
    return this.page.locator('.part.editor .editor-group-container.active .monaco-editor').first();
  }

  /** The rendered lines of the active editor. */
  lines(): Locator {
    return this.active().locator('.view-lines');
  }

  /** The editor tabs (those whose label matches; `active`: only active ones). */
  tab(label?: string | RegExp, opts: { active?: boolean } = {}): Locator {
    const tabs = opts.active ? '.part.editor .tab.active' : '.part.editor .tab';
    return this.page.locator(tabs, label === undefined ? undefined : { hasText: label });
  }

  /** The editor groups now shown. */
  groups(): Locator {
    return this.page.locator('.part.editor .editor-group-container');
  }

  /** Waits until the active editor has the keyboard focus. */
  focused(): Promise<void> {
    return waitForFocus(this.active(), { what: 'the active editor' });
  }

  /** Presses `keys` in the active editor, once it has the focus. */
  press(...keys: string[]): Promise<void> {
    return pressIn(this.active(), ...keys);
  }

  /**
   * Types `text` into the active editor, once it has the focus, and waits until the editor shows its last line.
   * Typed characters reach the editor's model through text input events, which can land after a key chord pressed
   * right after them (a Ctrl+Enter that reads the document would then see the text cut short).
   */
  async type(text: string): Promise<void> {
    await typeInto(this.active(), text);
    const last = text.split('\n').at(-1)!.trim();
    if (!last) return;
    const lines = this.lines();
    await lines
      .filter({ hasText: last })
      .waitFor({ timeout: 10_000 })
      .catch(async (e: unknown) => {
        // Where the keys went instead: the editor's lines in sight and the element that has the keyboard.
        const shown = await lines.innerText({ timeout: 1_000 }).catch(() => '(no editor)');
        const focus = await this.page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200) ?? '(none)');
        throw new Error(`"${last}" typed but not shown. Focus: ${focus}\nThe editor shows:\n${shown}`, { cause: e });
      });
  }

  /**
   * Puts the active editor's cursor at the start of line `line` (1-based) with Go to Line, and waits until the
   * cursor is there (the status bar says so) and the editor has the focus back from the quick input: keys pressed
   * before that go to the closing quick input or act on the old line.
   */
  async goToLine(line: number): Promise<void> {
    await this.press('Control+g');
    await typeInto(this.quick.input(), String(line));
    await pressIn(this.quick.input(), 'Enter');
    const selection = this.page.locator('#status\\.editor\\.selection');
    await selection.filter({ hasText: new RegExp(`^\\s*Ln ${line}, Col 1\\b`) }).waitFor({ timeout: 15_000 });
    await this.focused();
  }
}
