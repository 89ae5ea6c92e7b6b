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

  /** The active group's editor while it has the keyboard focus (VS Code marks it "focused"). */
  focusedActive(): Locator {
    return this.page.locator('.part.editor .editor-group-container.active .monaco-editor.focused');
  }

  /** The editor group showing a tab whose label matches `label` (`active`: as its active tab). */
  group(label: string | RegExp, opts: { active?: boolean } = {}): Locator {
    return this.groups().filter({ has: this.page.locator(opts.active ? '.tab.active' : '.tab', { hasText: label }) });
  }

  /** The code editor inside `scope` (a group). */
  editorIn(scope: Locator): Locator {
    return scope.locator('.monaco-editor');
  }

  /** The rendered lines of the code editor inside `scope` (a group). */
  linesIn(scope: Locator): Locator {
    return scope.locator('.monaco-editor .view-lines');
  }

  /** The single rendered lines inside `lines` (what lines() or linesIn() returned). */
  lineRows(lines: Locator): Locator {
    return lines.locator('.view-line');
  }

  /** A token (span) of `lines` whose text matches `text`. */
  token(lines: Locator, text: string | RegExp): Locator {
    return lines.locator('.view-lines span', { hasText: text });
  }

  /** The error squiggles of the code editor `editor`. */
  errorMarks(editor: Locator): Locator {
    return editor.locator('.squiggly-error');
  }

  /** The diff editor now shown. */
  diff(): Locator {
    return this.page.locator('.monaco-diff-editor');
  }

  /** The rendered lines of one side of the diff editor. */
  diffLines(side: 'original' | 'modified'): Locator {
    return this.diff().locator(`.editor.${side} .view-lines`);
  }

  /** The message an editor shows over its text (e.g. "Cannot edit in read-only editor"). */
  overlayMessage(text: string | RegExp): Locator {
    return this.page.locator('.monaco-editor-overlaymessage', { hasText: text });
  }

  /** The suggest widget's rows (those whose text matches `text`). */
  suggestions(text?: string | RegExp): Locator {
    return this.page
      .locator('.editor-widget.suggest-widget')
      .locator('.monaco-list-row', text === undefined ? undefined : { hasText: text });
  }

  /** The folded regions' markers in the active editor's margin. */
  foldedMarkers(): Locator {
    return this.page.locator('.part.editor .editor-group-container.active .margin .codicon-folding-collapsed');
  }

  /** The actions of a tab (its close button). */
  tabActions(tab: Locator): Locator {
    return tab.locator('.tab-actions .action-label');
  }

  /** The status bar's entry of the cursor position ("Ln 3, Col 1"). */
  selection(): Locator {
    return this.page.locator('#status\\.editor\\.selection');
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
    await this.selection()
      .filter({ hasText: new RegExp(`^\\s*Ln ${line}, Col 1\\b`) })
      .waitFor({ timeout: 15_000 });
    await this.focused();
  }
}
