// The benchmark's own prompt in the workbench: the checkout of the StreamProfileBench repository that the benchmark
// folder is (or a parent up to its workspace folder, or `personaLab.reference.path`), rendered by its bench_task.py
// through the Python driver. It runs the checkout's code, so only in a trusted workspace; the driver starts on first
// use and restarts when either file changes. Every caller gets either the source or a sentence saying why there is
// none.
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import {
  findReferenceCheckout,
  referenceHash,
  referenceSource,
  type PromptSource,
} from '../../../../core/spb/reference/source';
import { log } from '../../../log';
import { resolveSettingPath } from '../../../workspace/target';
import { isInside } from '../../../../core/io/safeFs';
import { restrictedSetting } from '../../../trustedSettings';

export type ReferenceState =
  | { kind: 'none' }
  | { kind: 'untrusted'; checkout: string }
  | { kind: 'failed'; checkout: string; why: string }
  | { kind: 'ready'; checkout: string; source: PromptSource };

export class ReferencePrompts implements vscode.Disposable {
  private current: { checkout: string; hash: string; source: Promise<PromptSource> } | undefined;

  constructor(private readonly benchRoot: () => string | undefined) {}

  /** The checkout, whether or not it can be used here. */
  checkout(): string | undefined {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const given = resolveSettingPath(restrictedSetting<string>('personaLab.reference.path'), folders, homedir());
    if (given) return given;
    const root = this.benchRoot();
    // Looked up no higher than the workspace folder the benchmark is in (the folder the user opened and trusted).
    return (root && findReferenceCheckout(root, folders.find((f) => isInside(f, root)) ?? root)) || undefined;
  }

  async state(): Promise<ReferenceState> {
    const checkout = this.checkout();
    if (!checkout) return { kind: 'none' };
    if (!vscode.workspace.isTrusted) return { kind: 'untrusted', checkout };
    let hash: string;
    try {
      hash = referenceHash(checkout);
    } catch (e) {
      return {
        kind: 'failed',
        checkout,
        why: `cannot read bench_task.py / bench_inference.py: ${(e as Error).message}`,
      };
    }
    if (!this.current || this.current.checkout !== checkout || this.current.hash !== hash) {
      this.close();
      const python = restrictedSetting<string>('personaLab.reference.python') || 'python3';
      this.current = { checkout, hash, source: referenceSource(checkout, { python }) };
    }
    try {
      return { kind: 'ready', checkout, source: await this.current.source };
    } catch (e) {
      const why = (e as Error).message;
      log.warn(`reference: ${checkout}: ${why}`);
      this.current = undefined;
      return { kind: 'failed', checkout, why };
    }
  }

  private close(): void {
    const old = this.current;
    this.current = undefined;
    void old?.source.then((s) => s.close()).catch(() => undefined);
  }

  dispose(): void {
    this.close();
  }
}

/** Why the benchmark's prompt is not used, for messages; undefined when it is, or when there is no checkout. */
export function referenceUnavailable(state: ReferenceState): string | undefined {
  if (state.kind === 'untrusted')
    return `The benchmark's prompt (bench_task.py in ${state.checkout}) runs the checkout's code, so it needs a trusted workspace.`;
  if (state.kind === 'failed')
    return `The benchmark's prompt could not be rendered from ${state.checkout}: ${state.why}`;
  return undefined;
}
