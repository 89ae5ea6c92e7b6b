// Selectors of VS Code's own page live in test/e2e/support/ (the Workbench and its page objects), so that a change of
// the workbench's DOM is fixed in one place instead of in every e2e file. This reads every test/e2e/*.ts outside
// support/ and fails naming file:line for a string that holds a workbench selector. Selectors of our own webviews
// (data-* attributes, ids, our classes) are not VS Code's and stay where they are.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findDirectKeys } from '../support/directKeys';
import { findWorkbenchSelectors } from '../support/workbenchSelectors';

const e2eDir = resolve(__dirname, '../e2e');

/**
 * Lines that may keep a workbench-looking string, each with why. Matched by file and a fragment of the line, so that
 * a moved line still matches and a new one does not.
 */
const ALLOWED: { file: string; fragment: string; why: string }[] = [
  {
    file: 'piGuard.test.ts',
    fragment: "'.codicon-shield'",
    why: "the residual-PI mark's icon inside our own step view webview (codicons are our webviews' icons too)",
  },
];

describe('VS Code selectors stay in test/e2e/support/', () => {
  it('no e2e file outside support/ writes a selector of the workbench', () => {
    const files = readdirSync(e2eDir).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(20);
    const bad: string[] = [];
    const usedAllowances = new Set<number>();
    for (const file of files) {
      for (const f of findWorkbenchSelectors(readFileSync(join(e2eDir, file), 'utf8'))) {
        const allowed = ALLOWED.findIndex((a) => a.file === file && f.text.includes(a.fragment));
        if (allowed >= 0) usedAllowances.add(allowed);
        else bad.push(`test/e2e/${file}:${f.line}: ${f.what}: ${f.text}`);
      }
    }
    expect(bad, 'use (or add) a method of test/e2e/support/ (workbench.ts, sideBar.ts, parts.ts, ...)').toEqual([]);
    const stale = ALLOWED.filter((_, i) => !usedAllowances.has(i)).map((a) => `${a.file}: ${a.fragment}`);
    expect(stale, 'allowances no line needs any more').toEqual([]);
  });

  it('finds a planted workbench selector, with its line, and passes our own webview selectors', () => {
    const planted = [
      'const frame = await wb.findWebviewFrame(\'#dash-root[data-page="compare"]\');',
      "await frame.locator('table.experiments tbody tr.exp-row .name').allTextContents();",
      '// a comment may name .monaco-list-row',
      "await wb.page.locator('.part.sidebar .monaco-list-row').count();",
      'await u.title("(1/3): sample");',
      "const tab = wb.page.locator('.tabs-container .tab', { hasText: 'x' });",
      'await row.locator(`.monaco-list-row[aria-level="${level}"]`).click();',
    ].join('\n');
    expect(findWorkbenchSelectors(planted).map((f) => [f.line, f.what])).toEqual([
      [4, 'a monaco widget class'],
      [6, 'an editor tab'],
      [7, 'a monaco widget class'],
    ]);
    expect(findWorkbenchSelectors("wb.page.locator('.quick-input-widget input.input')")).toHaveLength(1);
    expect(findWorkbenchSelectors("pane.locator('.pane-header .actions')")).toHaveLength(1);
    expect(findWorkbenchSelectors('frame.locator(\'vscode-single-select[aria-label="Run"]\')')).toEqual([]);
    for (const line of [
      "wb.page.locator('#status\\\\.problems')",
      "editor.locator('.squiggly-error')",
      "wb.page.locator('button.getting-started-step')",
      "row.querySelector('.label-description')",
      "wb.page.locator('.context-view .monaco-menu')",
    ])
      expect(findWorkbenchSelectors(line), line).toHaveLength(1);
  });
});

describe('keys in e2e files wait for their target to have the focus', () => {
  it('no e2e file outside support/ drives page.keyboard directly', () => {
    const files = readdirSync(e2eDir).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(20);
    const bad = files.flatMap((file) =>
      findDirectKeys(readFileSync(join(e2eDir, file), 'utf8')).map(
        (f) => `test/e2e/${file}:${f.line}: ${f.what}: ${f.text}`,
      ),
    );
    expect(
      bad,
      'use pressIn / typeInto / insertInto (./harness) or a page object: wb.quick.press, wb.editor.press, ...',
    ).toEqual([]);
  });

  it('finds a planted direct key, with its line, and passes keys sent through support', () => {
    const planted = [
      "await pressIn(frame.locator('body'), ']');",
      "await wb.page.keyboard.press('Enter');",
      '// a comment may say page.keyboard.press',
      "await wb.quick.press('Escape');",
      'await w.page.keyboard.type(NOTE);',
      "await typeInto(input, 'x'); await wb.page.keyboard.insertText('y');",
      'const kb = wb.page.keyboard;',
      "await wb('bob').page.keyboard .down('Shift');",
      'const { keyboard } = wb.page;',
      "await keyboard.up('Shift');",
    ].join('\n');
    expect(findDirectKeys(planted).map((f) => f.line)).toEqual([2, 5, 6, 7, 8, 9, 10]);
    expect(findDirectKeys("await wb.editor.press('Control+S');")).toEqual([]);
  });
});
