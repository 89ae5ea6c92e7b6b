// What every Persona Lab tree row is made of: a TreeItem from one description of the row, and the Markdown string
// of a tooltip. Dataset text goes into a tooltip only through appendText, which escapes it: no HTML, no command links.
import * as vscode from 'vscode';

export interface TreeRow extends Pick<
  vscode.TreeItem,
  'tooltip' | 'resourceUri' | 'command' | 'accessibilityInformation'
> {
  label: string;
  state: vscode.TreeItemCollapsibleState;
  id: string;
  contextValue: string;
  icon: string;
  /** A theme colour id for the icon. */
  color?: string;
  description: string;
}

export function treeItem(row: TreeRow): vscode.TreeItem {
  const item = new vscode.TreeItem(row.label, row.state);
  item.id = row.id;
  item.contextValue = row.contextValue;
  item.iconPath = new vscode.ThemeIcon(
    row.icon,
    row.color === undefined ? undefined : new vscode.ThemeColor(row.color),
  );
  item.description = row.description;
  if (row.resourceUri) item.resourceUri = row.resourceUri;
  if (row.tooltip !== undefined) item.tooltip = row.tooltip;
  if (row.accessibilityInformation) item.accessibilityInformation = row.accessibilityInformation;
  if (row.command) item.command = row.command;
  return item;
}

/** Collapsed when there is something below, else a leaf. */
export function collapsedIf(hasChildren: boolean): vscode.TreeItemCollapsibleState {
  return hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None;
}

export function markdown(): vscode.MarkdownString {
  const md = new vscode.MarkdownString('', false);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

/** A tooltip that starts with `**name**` (dataset text, escaped) followed by `rest` (Markdown). */
export function namedTooltip(name: string, rest: string): vscode.MarkdownString {
  const md = markdown();
  md.appendMarkdown('**');
  md.appendText(name);
  md.appendMarkdown(`**${rest}`);
  return md;
}

/** The last part of a folder path (the benchmark row's label). */
export function folderName(root: string): string {
  const parts = root.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? root;
}
