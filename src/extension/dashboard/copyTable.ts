// Copy a dashboard table to the clipboard as LaTeX, Markdown or CSV (core/tables/format.ts), for any dashboard.
import * as vscode from 'vscode';
import { formatTable, type TableFormat, type TableModel } from '../../core/tables/format';
import { log } from '../log';

const FORMAT_NAMES: Record<TableFormat, string> = { latex: 'LaTeX', markdown: 'Markdown', csv: 'CSV' };

/** `view`: the dashboard's name in the log. */
export async function copyTable(table: TableModel, format: TableFormat, view: string): Promise<void> {
  const text = formatTable(table, format);
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(
    `Persona Lab: copied ${table.title.split('.')[0]} as ${FORMAT_NAMES[format]}`,
    3000,
  );
  log.info(`${view}: copied ${table.id} as ${format} (${text.length} chars)`);
}
