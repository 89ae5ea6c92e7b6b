// The re-run parts of the formats whose contribution offers one (part.ts), made once the endpoint exists.
import type * as vscode from 'vscode';
import type { Benchmarks } from '../benchmarks';
import type { RerunHost } from './part';

export function activateFormatReruns(context: vscode.ExtensionContext, benchmarks: Benchmarks, host: RerunHost): void {
  for (const c of benchmarks.contributions) {
    const part = c.rerun?.(benchmarks.of(c), host);
    if (part) context.subscriptions.push(part);
  }
}
