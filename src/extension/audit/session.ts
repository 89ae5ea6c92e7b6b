// The audit of the loaded benchmark: runs auditBenchmark in the extension host (it streams the files and yields
// between chunks, so the host stays responsive) with progress and cancellation, keeps the latest result, and
// owns the verdict database (opened on first use; a failure to open it leaves the audit usable without verdicts).
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { auditBenchmark, type AuditFinding, type AuditResult } from '../../core/pi/audit';
import { CONFIDENCES, type Confidence } from '../../core/pi/types';
import { VerdictStore, type Verdict, type VerdictRow } from '../../core/pi/verdicts';
import type { Benchmark } from '../../core/types';
import type { BenchmarkStore } from '../store';
import { auditAuthor, auditDbPath } from './paths';

export const AUDIT_VIEW_ID = 'personaLab.audit';

/** Total size of the files an audit reads: the tasks files and every run's results files. */
export function benchmarkBytes(bench: Benchmark): number {
  const rels = [...bench.taskFiles.values(), ...[...bench.runs.values()].flatMap((r) => [...r.files.values()])];
  let total = 0;
  for (const rel of rels) {
    try {
      total += statSync(join(bench.root, rel)).size;
    } catch {
      // a file that vanished counts as empty
    }
  }
  return total;
}

function folders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

export class AuditSession implements vscode.Disposable {
  private current: AuditResult | undefined;
  private auditedBench: Benchmark | undefined;
  private controller: AbortController | undefined;
  private generation = 0;
  private verdicts = new Map<string, VerdictRow>();
  private db: VerdictStore | undefined;
  private dbError: string | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a run starts or ends, the result goes stale, or the verdicts are re-read. */
  readonly onDidChange = this.changed.event;
  private readonly recorded = new vscode.EventEmitter<readonly AuditFinding[]>();
  /** Fires with the findings that just got a verdict (the tree refreshes only their categories). */
  readonly onDidRecord = this.recorded.event;

  constructor(
    private readonly store: BenchmarkStore,
    private readonly storageDir: string,
  ) {}

  get result(): AuditResult | undefined {
    return this.current;
  }

  /** The benchmark the result is about (the store may hold a newer load). */
  get benchmark(): Benchmark | undefined {
    return this.auditedBench;
  }

  get running(): boolean {
    return this.controller !== undefined;
  }

  /** The loaded benchmark is not the one the result is about (it was reloaded or another one was opened). */
  get stale(): boolean {
    return this.current !== undefined && this.store.bench !== this.auditedBench;
  }

  get dbPath(): string {
    const setting = vscode.workspace.getConfiguration('personaLab.audit').get<string>('dbPath');
    return auditDbPath(setting, folders(), homedir(), this.store.root, this.storageDir);
  }

  get author(): string {
    return auditAuthor(vscode.workspace.getConfiguration('personaLab.labels').get<string>('author'));
  }

  verdictOf = (key: string): Verdict | undefined => this.verdicts.get(key)?.verdict;

  verdictRow(key: string): VerdictRow | undefined {
    return this.verdicts.get(key);
  }

  /**
   * Audits the loaded benchmark; a run in progress is cancelled first. Resolves with the result, or undefined when
   * there is no benchmark or this run was superseded by a newer one. A cancelled run keeps its partial result.
   */
  async run(opts: { notify: boolean }): Promise<AuditResult | undefined> {
    await this.store.ready();
    const bench = this.store.bench;
    if (!bench) {
      if (opts.notify) void vscode.window.showInformationMessage('Persona Lab: open a benchmark folder first.');
      return undefined;
    }
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    const gen = ++this.generation;
    this.changed.fire();
    const setting = vscode.workspace.getConfiguration('personaLab.audit').get<string>('minConfidence');
    const minConfidence: Confidence = (CONFIDENCES as readonly string[]).includes(setting ?? '') ? (setting as Confidence) : 'low';
    const started = Date.now();
    try {
      const result = await vscode.window.withProgress({ location: { viewId: AUDIT_VIEW_ID } }, () =>
        vscode.window.withProgress(
          {
            location: opts.notify ? vscode.ProgressLocation.Notification : vscode.ProgressLocation.Window,
            title: 'Persona Lab: PI audit',
            cancellable: true,
          },
          async (progress, token) => {
            const sub = token.onCancellationRequested(() => controller.abort());
            let last = 0;
            try {
              return await auditBenchmark(bench, {
                signal: controller.signal,
                minConfidence,
                onProgress: (done, total) => {
                  const pct = total ? Math.floor((100 * done) / total) : 100;
                  if (pct > last) {
                    progress.report({ message: `${pct} %`, increment: pct - last });
                    last = pct;
                  }
                },
              });
            } finally {
              sub.dispose();
            }
          },
        ),
      );
      if (gen !== this.generation) return undefined;
      this.current = result;
      this.auditedBench = bench;
      this.loadVerdicts(result.benchmark);
      console.log(
        `[persona-lab] audit: ${result.findings.length} finding(s) in ${result.scanned.files} file(s) in ${Date.now() - started} ms` +
          (result.cancelled ? ' (cancelled)' : ''),
      );
      return result;
    } catch (err) {
      if (gen === this.generation) void vscode.window.showErrorMessage(`Persona Lab: the PI audit failed: ${(err as Error).message}`);
      return undefined;
    } finally {
      if (gen === this.generation) this.controller = undefined;
      this.changed.fire();
    }
  }

  cancel(): void {
    this.controller?.abort();
  }

  /** Called when the store changes: the view marks a result of another (or a reloaded) benchmark as stale. */
  benchmarkChanged(): void {
    this.changed.fire();
  }

  /**
   * The verdict database, opened on first use; undefined (with an error shown once per path) when it cannot be.
   * Reading never creates it: an audit without verdicts leaves no file behind in the workspace.
   */
  private verdictStore(create: boolean): VerdictStore | undefined {
    const path = this.dbPath;
    if (this.db && this.db.path === path) return this.db;
    this.db?.close();
    this.db = undefined;
    if (!create && !existsSync(path)) return undefined;
    try {
      this.db = VerdictStore.open(path);
      this.dbError = undefined;
      return this.db;
    } catch (err) {
      const message = (err as Error).message;
      if (this.dbError !== message) {
        this.dbError = message;
        void vscode.window.showErrorMessage(`Persona Lab: verdicts are not available: ${message}`);
      }
      return undefined;
    }
  }

  private loadVerdicts(benchmark: string): void {
    this.verdicts = this.verdictStore(false)?.current(benchmark) ?? new Map();
  }

  /** Re-reads the verdicts (another window or person may share the database). */
  reloadVerdicts(): void {
    if (this.current) this.loadVerdicts(this.current.benchmark);
    this.changed.fire();
  }

  /** Records one verdict per finding, with the author and the time; false when the database is unavailable. */
  record(findings: readonly AuditFinding[], verdict: Verdict, note?: string): boolean {
    const result = this.current;
    const db = result && findings.length ? this.verdictStore(true) : undefined;
    if (!result || !db) return false;
    const author = this.author;
    const done: AuditFinding[] = [];
    try {
      for (const target of findings) {
        this.verdicts.set(target.key, db.record({ benchmark: result.benchmark, target, verdict, author, note }));
        done.push(target);
      }
    } catch (err) {
      void vscode.window.showErrorMessage(`Persona Lab: the verdict was not saved: ${(err as Error).message}`);
      return false;
    } finally {
      if (done.length) this.recorded.fire(done);
    }
    console.log(`[persona-lab] audit: ${verdict} on ${findings.length} finding(s) by ${author}`);
    return true;
  }

  /** The benchmark's whole verdict trail, oldest first ([] without a database). */
  trail(): VerdictRow[] {
    const result = this.current;
    return result ? (this.verdictStore(false)?.trail({ benchmark: result.benchmark }) ?? []) : [];
  }

  dispose(): void {
    this.controller?.abort();
    this.db?.close();
    this.changed.dispose();
    this.recorded.dispose();
  }
}
