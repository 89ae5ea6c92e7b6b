// What counts as a selector of VS Code's own page in an e2e file (test/unit/e2e-selectors.test.ts keeps them in
// test/e2e/support/). A line-based scan of string literals: enough for selectors, which are never split over lines.

/** VS Code workbench classes, ids and attributes, each with the part it belongs to (for the message). */
export const WORKBENCH: [RegExp, string][] = [
  [/\.monaco-[a-z]/, 'a monaco widget class'],
  [/\.part\b/, 'a workbench part'],
  [/\.(sidebar|activitybar|auxiliarybar|statusbar(-item)?)\b/, 'a workbench part'],
  [/#status\\*\./, 'a status bar entry'],
  [/\.pane(-[a-z]+)?\b/, 'a side bar view'],
  [/\.(composite|customview-tree|welcome-view-content|split-view)/, 'a side bar view'],
  [/(^|[\s,>(])h3\.title\b/, "a view's header"],
  [/\.tabs?(-[a-z]+)?\b/, 'an editor tab'],
  [/\.editor(-group|-widget|\.(modified|original))/, 'the editor part'],
  [/\.(view-lines?|inputarea|suggest-widget|squiggly-[a-z]+)\b/, 'a code editor'],
  [/\.margin\b.*\.codicon/, "a code editor's margin"],
  [/\.notification-/, 'a notification'],
  [/\.quick-input/, 'the quick input'],
  [/(^|[\s,>])input\.input\b|input\[type="password"\]/, "the quick input's text box"],
  [/\.(context-view|dialog-buttons|markers-panel|workbench-hover)\b/, 'a workbench widget'],
  [/\.action-(label|item)\b/, 'a workbench action bar'],
  [/\.label-(name|description)\b/, "a list row's label"],
  [/\.codicon-/, "a workbench row's icon"],
  [/iframe\.webview|\.webview\b/, "the webview's frame element"],
  [/\[aria-(level|expanded|checked)/, 'a workbench list or tree'],
  [/\brole=/, 'a workbench role'],
  [/x-step-description-for|getting-started/, 'the walkthrough page'],
];

export interface Finding {
  line: number;
  text: string;
  what: string;
}

/** The string literals of a line ('…', "…", `…`), comments left out. */
function literals(line: string): string[] {
  const code = line.trimStart();
  if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) return [];
  const out: string[] = [];
  const re = /(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;
  for (let m = re.exec(line); m; m = re.exec(line)) out.push(m[2]);
  return out;
}

/** The lines of `source` whose string literals hold a workbench selector. */
export function findWorkbenchSelectors(source: string): Finding[] {
  const found: Finding[] = [];
  source.split('\n').forEach((text, i) => {
    for (const lit of literals(text)) {
      const hit = WORKBENCH.find(([re]) => re.test(lit));
      if (hit) {
        found.push({ line: i + 1, text: text.trim(), what: hit[1] });
        return;
      }
    }
  });
  return found;
}
