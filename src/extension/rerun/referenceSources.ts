// Where a format's re-run requests come from in the workbench: the checkout of the benchmark's repository that the
// benchmark folder is (or a parent up to its workspace folder, or personaLab.reference.path), through the format's
// Python driver, only in a trusted workspace; else the format's own template, named so everywhere. The driver starts
// on first use and restarts when the checkout's files change. Every caller gets a source and, when it is not the
// benchmark's, the sentence saying why. A format gives what differs (ReferenceKind); this class is the same for all.
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { isInside } from '../../core/io/safeFs';
import { log } from '../log';
import { restrictedSetting } from '../trustedSettings';
import { resolveSettingPath } from '../workspace/target';

/** What a format's source offers the workbench: a name to show, and closing its driver. */
export interface ClosableSource {
  readonly name: string;
  close(): void;
}

export interface ReferenceKind<S extends ClosableSource> {
  /** what the log names it by */
  logName: string;
  /** what the benchmark's own code makes, for the sentences: "prompt", "request" */
  noun: string;
  /** the checkout's file whose code runs: "prompt_builder.py" */
  file: string;
  isCheckout(dir: string): boolean;
  /** the folder or its nearest parent up to `within` that is a checkout */
  find(from: string, within: string): string | null;
  /** changes when the checkout's code that decides a request changes */
  hash(checkout: string): string;
  start(checkout: string, options: { python: string }): Promise<S>;
  /** the format's own template, named as such */
  fallback(): S;
}

export interface ChosenSource<S> {
  source: S;
  /** why the benchmark's own request is not used (undefined when it is, or when there is no checkout) */
  why?: string;
}

export class ReferenceSources<S extends ClosableSource> implements vscode.Disposable {
  private current: { checkout: string; hash: string; source: Promise<S> } | undefined;
  private readonly fallback: S;

  constructor(
    private readonly kind: ReferenceKind<S>,
    private readonly benchRoot: () => string | undefined,
  ) {
    this.fallback = kind.fallback();
  }

  checkout(): string | undefined {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const given = resolveSettingPath(restrictedSetting<string>('personaLab.reference.path'), folders, homedir());
    if (given && this.kind.isCheckout(given)) return given;
    const root = this.benchRoot();
    // Looked up no higher than the workspace folder the benchmark is in (the folder the user opened and trusted).
    return (root && this.kind.find(root, folders.find((f) => isInside(f, root)) ?? root)) || undefined;
  }

  async get(): Promise<ChosenSource<S>> {
    const checkout = this.checkout();
    if (!checkout) return { source: this.fallback };
    if (!vscode.workspace.isTrusted)
      return {
        source: this.fallback,
        why: `The benchmark's ${this.kind.noun} (${this.kind.file} in ${checkout}) runs the checkout's code, so it needs a trusted workspace.`,
      };
    let hash: string;
    try {
      hash = this.kind.hash(checkout);
    } catch (e) {
      return { source: this.fallback, why: `cannot read the checkout ${checkout}: ${(e as Error).message}` };
    }
    if (!this.current || this.current.checkout !== checkout || this.current.hash !== hash) {
      this.close();
      const python = restrictedSetting<string>('personaLab.reference.python') || 'python3';
      this.current = { checkout, hash, source: this.kind.start(checkout, { python }) };
    }
    try {
      return { source: await this.current.source };
    } catch (e) {
      const why = (e as Error).message;
      log.warn(`${this.kind.logName}: ${checkout}: ${why}`);
      this.current = undefined;
      return {
        source: this.fallback,
        why: `The benchmark's ${this.kind.noun} could not be used from ${checkout}: ${why}`,
      };
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
