// The re-run parts of the formats whose contribution offers one (part.ts), made once the endpoint exists, and Batch
// Run… over those that offer batch runs: from a row's menu it runs that benchmark's, from the palette the open one's
// (a pick when several). package.json's `when` reads ROWS_KEY, the context values of those benchmarks' root rows.
import * as vscode from 'vscode';
import type { Benchmarks } from '../benchmarks';
import { publishServed, servedBenchmark } from '../benchmarks/served';
import { activateDraftEditor } from './draftEditor';
import type { BatchPart, RerunHost } from './part';

const ROWS_KEY = 'personaLab.batchRows';
/** Whether an open benchmark offers Batch Run… (the Command Palette). */
const ANY_KEY = 'personaLab.hasBatch';

export interface FormatBatches {
  run(arg: unknown): Promise<void>;
}

export function activateFormatReruns(
  context: vscode.ExtensionContext,
  benchmarks: Benchmarks,
  host: RerunHost,
): FormatBatches {
  activateDraftEditor(context);
  const batches = new Map<string, BatchPart>();
  for (const c of benchmarks.contributions) {
    const part = c.rerun?.(benchmarks.of(c), host);
    if (!part) continue;
    context.subscriptions.push(part);
    if (part.batch) batches.set(c.format.id, part.batch);
  }
  const served = () => benchmarks.all.filter((b) => b.bench && batches.has(b.format.id));
  publishServed(context, benchmarks, served, { rows: ROWS_KEY, any: ANY_KEY });
  return {
    run: async (arg) => {
      const open = served();
      const chosen = await servedBenchmark(open, arg, {
        title: 'Batch Run',
        placeHolder: 'The benchmark whose items to run',
      });
      if (chosen) await batches.get(chosen.format.id)?.run(arg);
      else if (open.length === 0)
        void vscode.window.showInformationMessage('Persona Lab: no open benchmark runs its items from here.');
    },
  };
}
