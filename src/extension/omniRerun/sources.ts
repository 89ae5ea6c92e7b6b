// Where OmniBehavior requests come from in the workbench: the checkout of the OmniBehavior repository that the
// benchmark folder is (or a parent up to its workspace folder, or personaLab.reference.path), through the Python
// driver, only in a trusted workspace; else Persona Lab's own prompt, named so everywhere. The driver starts on first use and restarts when the checkout's
// files change. Every caller gets a source and, when it is not the benchmark's, the sentence saying why.
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import {
  findOmniReferenceCheckout,
  isOmniReferenceCheckout,
  omniReferenceHash,
  omniReferenceSource,
} from '../../core/omni/reference/source';
import type { OmniPromptSource } from '../../core/omni/run/source';
import { omniTemplateSource } from '../../core/omni/run/template';
import { log } from '../log';
import { resolveSettingPath } from '../workspace/target';
import { isInside } from '../../core/io/safeFs';
import { restrictedSetting } from '../trustedSettings';

export interface ChosenSource {
  source: OmniPromptSource;
  /** why the benchmark's own prompt is not used (undefined when it is, or when there is no checkout) */
  why?: string;
}

export class OmniSources implements vscode.Disposable {
  private current: { checkout: string; hash: string; source: Promise<OmniPromptSource> } | undefined;
  private readonly fallback = omniTemplateSource();

  constructor(private readonly benchRoot: () => string | undefined) {}

  checkout(): string | undefined {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const given = resolveSettingPath(restrictedSetting<string>('personaLab.reference.path'), folders, homedir());
    if (given && isOmniReferenceCheckout(given)) return given;
    const root = this.benchRoot();
    // Looked up no higher than the workspace folder the benchmark is in (the folder the user opened and trusted).
    return (root && findOmniReferenceCheckout(root, folders.find((f) => isInside(f, root)) ?? root)) || undefined;
  }

  async get(): Promise<ChosenSource> {
    const checkout = this.checkout();
    if (!checkout) return { source: this.fallback };
    if (!vscode.workspace.isTrusted)
      return {
        source: this.fallback,
        why: `The benchmark's prompt (prompt_builder.py in ${checkout}) runs the checkout's code, so it needs a trusted workspace.`,
      };
    let hash: string;
    try {
      hash = omniReferenceHash(checkout);
    } catch (e) {
      return { source: this.fallback, why: `cannot read the checkout ${checkout}: ${(e as Error).message}` };
    }
    if (!this.current || this.current.checkout !== checkout || this.current.hash !== hash) {
      this.close();
      const python = restrictedSetting<string>('personaLab.reference.python') || 'python3';
      this.current = { checkout, hash, source: omniReferenceSource(checkout, { python }) };
    }
    try {
      return { source: await this.current.source };
    } catch (e) {
      const why = (e as Error).message;
      log.warn(`omni reference: ${checkout}: ${why}`);
      this.current = undefined;
      return { source: this.fallback, why: `The benchmark's prompt could not be used from ${checkout}: ${why}` };
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
