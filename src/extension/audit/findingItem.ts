// The parts of a finding's tree row and tooltip that are the same for both formats' PI Audit nodes. Dataset text
// reaches tooltips only through appendText (escaped).
import * as vscode from 'vscode';
import { CATEGORY_INFO } from '../../core/pi/placeholders';
import type { Confidence, Finding } from '../../core/pi/types';
import { VERDICT_LABELS, type Verdict } from '../../core/pi/verdicts';
import { markdown, treeItem } from '../treeItem';
import { displayText, hasInvisible, VERDICT_TEXT } from './model';

export type VerdictTrail = (key: string) => { verdict: Verdict; author: string; createdAt: string } | undefined;

// The same glyphs as the verdict commands' buttons (package.json); the row's description says the verdict in words.
const VERDICT_ICON: Record<Verdict, [icon: string, color: string]> = {
  'confirmed-leak': ['error', 'charts.red'],
  'false-positive': ['pass', 'disabledForeground'],
  'needs-review': ['question', 'charts.blue'],
};

const CONFIDENCE_COLOR: Record<Confidence, string> = {
  high: 'charts.orange',
  medium: 'charts.yellow',
  low: 'disabledForeground',
};

type ItemFinding = Pick<Finding, 'category' | 'confidence' | 'text'>;

/** What a finding's tooltip says of it, in either format. */
export type TooltipFinding = ItemFinding &
  Pick<Finding, 'reason'> & { key: string; file: string; line: number; field: string; run: string | null };

/** The row of a finding: its value, a verdict or confidence icon, and a click that opens `node` in its view. */
export function findingItem(
  f: ItemFinding,
  verdict: Verdict | undefined,
  row: { id: string; contextValue: string; description: string; openTitle: string; node: unknown },
): vscode.TreeItem {
  const [icon, color] = verdict ? VERDICT_ICON[verdict] : ['warning', CONFIDENCE_COLOR[f.confidence]];
  return treeItem({
    label: displayText(f.text),
    state: vscode.TreeItemCollapsibleState.None,
    id: row.id,
    contextValue: row.contextValue,
    icon,
    color,
    description: row.description,
    accessibilityInformation: {
      label: `${CATEGORY_INFO[f.category].label} ${displayText(f.text)}, ${row.description}, ${verdict ? VERDICT_TEXT[verdict] : 'no verdict'}`,
    },
    command: { command: 'personaLab.audit.openStep', title: row.openTitle, arguments: [row.node] },
  });
}

/**
 * A finding's tooltip: category, confidence and reason, then `body` (the value, or the value in its context), the
 * location, the latest verdict, and what a click does.
 */
export function findingTooltip(
  f: TooltipFinding,
  trail: VerdictTrail,
  body: (md: vscode.MarkdownString) => void,
  clickHint: string,
): vscode.MarkdownString {
  const md = markdown();
  md.appendMarkdown(`**${CATEGORY_INFO[f.category].label}** · ${f.confidence} confidence · `);
  md.appendText(f.reason);
  md.appendMarkdown('\n\n');
  body(md);
  if (hasInvisible(f.text))
    md.appendMarkdown('\n\n␣ marks an invisible character (zero-width or direction control) inside the value.');
  md.appendMarkdown('\n\n');
  md.appendText(`${f.file}:${f.line} · ${f.field}${f.run !== null ? ` · run ${f.run}` : ''}`);
  const v = trail(f.key);
  md.appendMarkdown('\n\n');
  if (v) {
    md.appendMarkdown(`**${VERDICT_LABELS[v.verdict]}** by `);
    md.appendText(`${v.author}, ${v.createdAt}`);
  } else md.appendMarkdown('*No verdict yet.*');
  md.appendMarkdown(`\n\n${clickHint}`);
  return md;
}
