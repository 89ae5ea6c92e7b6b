// Saves a chart a dashboard page rendered (its `saveChart` message): the payload is checked first (payload.ts), then
// the user picks where (the default: the chart's name in the workspace folder), the file is written and one
// notification says where, with Open. Used by every dashboard page that draws charts.
import * as vscode from 'vscode';
import type { SaveChart } from '../../shared/chartExport';
import { log } from '../log';
import { checkChartPayload, describeChart, withExtension } from './payload';

const FILTERS: Record<SaveChart['format'], Record<string, string[]>> = {
  svg: { 'SVG image': ['svg'] },
  png: { 'PNG image': ['png'] },
};

/**
 * `view` names the page in the log; `folder` is where the dialog starts when no workspace folder is open (the
 * benchmark's root). Resolves with the file written, or undefined when refused, cancelled or failed.
 */
export async function saveChart(msg: SaveChart, view: string, folder?: string): Promise<vscode.Uri | undefined> {
  const checked = checkChartPayload(msg);
  if (!checked.ok) {
    log.warn(`${view}: refused to save a chart: ${checked.reason}`);
    return undefined;
  }
  const { file } = checked;
  const start = vscode.workspace.workspaceFolders?.[0]?.uri ?? (folder ? vscode.Uri.file(folder) : undefined);
  const picked = await vscode.window.showSaveDialog({
    title: `Save Chart as ${msg.format.toUpperCase()}`,
    saveLabel: 'Save',
    defaultUri: start && vscode.Uri.joinPath(start, file.fileName),
    filters: FILTERS[msg.format],
  });
  if (!picked) {
    log.info(`${view}: saving ${file.fileName} cancelled`);
    return undefined;
  }
  const uri = picked.with({ path: withExtension(picked.path, msg.format) });
  try {
    await vscode.workspace.fs.writeFile(uri, file.bytes);
  } catch (err) {
    log.error(`${view}: cannot write ${uri.fsPath}: ${(err as Error).message}`);
    void vscode.window.showErrorMessage(`Persona Lab: cannot save the chart: ${(err as Error).message}`);
    return undefined;
  }
  log.info(`${view}: saved chart ${msg.chart} (${describeChart(msg.format, file)}) to ${uri.fsPath}`);
  void vscode.window
    .showInformationMessage(`Persona Lab: saved the chart to ${vscode.workspace.asRelativePath(uri)}.`, 'Open')
    .then((choice) => (choice === 'Open' ? vscode.commands.executeCommand('vscode.open', uri) : undefined));
  return uri;
}
