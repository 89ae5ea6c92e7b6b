// Key handling the webviews share: which key presses belong to the page (not to a text field, not to the workbench)
// and the undo chord the labels bars take over.

/** Whether a key press goes to a text field (the page's own keys must then stay out of the way). */
export function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT', 'VSCODE-TEXTFIELD', 'VSCODE-TEXTAREA'].includes(target.tagName)
  );
}

/** Not typed into a text field nor part of an IME composition. */
export function isPageKey(e: KeyboardEvent): boolean {
  return !e.isComposing && !isEditable(e.target);
}

/**
 * A page key with no Alt, Ctrl or Meta: Alt/Ctrl/Meta combinations are left to the workbench (VS Code forwards the
 * key event to its keybindings), so nothing fires twice.
 */
export function isPlainKey(e: KeyboardEvent): boolean {
  return isPageKey(e) && !e.altKey && !e.ctrlKey && !e.metaKey;
}

/**
 * Ctrl+Z (Cmd+Z). The workbench also sees it (the webview forwards it) and turns it into an undo inside this document,
 * which has nothing to undo outside an input; a labels bar undoes its last action instead.
 */
export function isUndoChord(e: KeyboardEvent): boolean {
  return (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'z';
}
