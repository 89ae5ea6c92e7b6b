// The audit of the loaded benchmark: runs auditBenchmark in the extension host (it streams the files and yields
// between chunks, so the host stays responsive) with progress and cancellation, keeps the latest result, and
// owns the verdict database (opened on first use; a failure to open it leaves the audit usable without verdicts).
// With personaLab.labels.server set, the verdicts go to that server too, through a local replica (verdictLink.ts).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { OmniBenchmark } from '../../core/omni/types';
import { auditBenchmark, type AuditFinding, type AuditResult } from '../../core/pi/audit';
import { auditOmni, type OmniAuditFinding, type OmniAuditResult } from '../../core/pi/omniAudit';
import { CONFIDENCES, type Confidence } from '../../core/pi/types';
import { openVerdictReplica } from '../../core/pi/server/sync';
import { VerdictStore, type Verdict, type VerdictRow } from '../../core/pi/verdicts';
import { serverUrlProblem } from '../../core/storage/postgres';
import type { Benchmark } from '../../core/spb/types';
import type { SpbStore } from '../benchmarks/spb/store';
import type { OmniStore } from '../benchmarks/omni/store';
import { auditAuthor, auditDbPath } from './paths';
import { log } from '../log';
import { VerdictLink, verdictReplicaPath } from './verdictLink';
import { restrictedSetting } from '../trustedSettings';

export const AUDIT_VIEW_ID = 'personaLab.audit';

/** Total size of the files an audit reads: the tasks files and every run's results files. */
/** Bytes of an OmniBehavior folder's files: test actions, raw user files and every run's predictions. */
export function omniBenchmarkBytes(bench: OmniBenchmark): number {
  const size = (p: string) => {
    try {
      return statSync(p).size;
    } catch {
      return 0; // gone since the load
    }
  };
  const inDir = (dir: string, ext: string) => {
    try {
      return readdirSync(dir)
        .filter((n) => n.endsWith(ext))
        .reduce((n, name) => n + size(join(dir, name)), 0);
    } catch {
      return 0;
    }
  };
  return (
    size(join(bench.root, 'test_actions.jsonl')) +
    inDir(join(bench.root, 'raw'), '.json') +
    [...bench.runs.keys()].reduce((n, run) => n + size(join(bench.root, 'results', run, 'predictions.jsonl')), 0)
  );
}

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
  private omniCurrent: OmniAuditResult | undefined;
  private finishedAt = new Date(0);
  private auditedOmni: OmniBenchmark | undefined;
  private omniVerdicts = new Map<string, VerdictRow>();
  private db: VerdictStore | undefined;
  private link: VerdictLink | undefined;
  private dbError: string | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a run starts or ends, the result goes stale, or the verdicts are re-read. */
  readonly onDidChange = this.changed.event;
  private readonly recorded = new vscode.EventEmitter<readonly (AuditFinding | OmniAuditFinding)[]>();
  /** Fires with the findings that just got a verdict (the tree refreshes only their categories). */
  readonly onDidRecord = this.recorded.event;

  constructor(
    private readonly store: SpbStore,
    private readonly storageDir: string,
    private readonly omni: OmniStore,
    /** Where the label server's password is (the verdicts use the labels' server and password). */
    private readonly secrets?: vscode.SecretStorage,
  ) {}

  /** When the results shown were made. */
  get ranAt(): Date {
    return this.finishedAt;
  }

  get result(): AuditResult | undefined {
    return this.current;
  }

  /** The audit of the loaded OmniBehavior benchmark (beside the StreamProfileBench one, when both are open). */
  get omniResult(): OmniAuditResult | undefined {
    return this.omniCurrent;
  }

  /** Whether there is a benchmark of either format to audit. */
  get hasBenchmark(): boolean {
    return this.store.bench !== undefined || this.omni.bench !== undefined;
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
    return (
      (this.current !== undefined && this.store.bench !== this.auditedBench) ||
      (this.omniCurrent !== undefined && this.omni.bench !== this.auditedOmni)
    );
  }

  /** The OmniBehavior result is about another load than the one open (or there is none). */
  get omniStale(): boolean {
    return this.omniCurrent === undefined || this.omni.bench !== this.auditedOmni;
  }

  get dbPath(): string {
    const server = this.serverUrl;
    if (server) return verdictReplicaPath(folders()[0] ?? this.store.root ?? this.storageDir, server);
    const setting = restrictedSetting<string>('personaLab.audit.dbPath');
    return auditDbPath(setting, folders(), homedir(), this.store.root, this.storageDir);
  }

  /** personaLab.labels.server ('' for none): the verdicts are then a replica of that server's. */
  get serverUrl(): string {
    return (restrictedSetting<string>('personaLab.labels.server') ?? '').trim();
  }

  get author(): string {
    return auditAuthor(vscode.workspace.getConfiguration('personaLab.labels').get<string>('author'));
  }

  verdictOf = (key: string): Verdict | undefined => this.verdictRow(key)?.verdict;

  verdictRow(key: string): VerdictRow | undefined {
    return this.verdicts.get(key) ?? this.omniVerdicts.get(key);
  }

  /**
   * Audits the loaded benchmark; a run in progress is cancelled first. Resolves with the result, or undefined when
   * there is no benchmark or this run was superseded by a newer one. A cancelled run keeps its partial result.
   */
  async run(opts: { notify: boolean }): Promise<{ result?: AuditResult; omni?: OmniAuditResult } | undefined> {
    await this.store.ready();
    await this.omni.ready();
    const bench = this.store.bench;
    const omniBench = this.omni.bench;
    // The command checks that one is open and says so; an automatic run just does nothing.
    if (!bench && !omniBench) return undefined;
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    const gen = ++this.generation;
    this.changed.fire();
    const setting = vscode.workspace.getConfiguration('personaLab.audit').get<string>('minConfidence');
    const minConfidence: Confidence = (CONFIDENCES as readonly string[]).includes(setting ?? '')
      ? (setting as Confidence)
      : 'low';
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
            // With both formats open each gets half of the bar.
            const phases = (bench ? 1 : 0) + (omniBench ? 1 : 0);
            const onProgress = (phase: number) => (done: number, total: number) => {
              const pct = Math.floor((100 * (phase + (total ? done / total : 1))) / phases);
              if (pct > last) {
                progress.report({ message: `${pct} %`, increment: pct - last });
                last = pct;
              }
            };
            try {
              const result = bench
                ? await auditBenchmark(bench, { signal: controller.signal, minConfidence, onProgress: onProgress(0) })
                : undefined;
              const omni =
                omniBench && !controller.signal.aborted
                  ? await auditOmni(omniBench, {
                      signal: controller.signal,
                      minConfidence,
                      onProgress: onProgress(bench ? 1 : 0),
                    })
                  : undefined;
              return { result, omni };
            } finally {
              sub.dispose();
            }
          },
        ),
      );
      if (gen !== this.generation) return undefined;
      this.current = result.result;
      this.finishedAt = new Date();
      this.auditedBench = bench;
      this.omniCurrent = result.omni;
      this.auditedOmni = omniBench;
      this.loadVerdicts();
      for (const r of [result.result, result.omni]) {
        if (!r) continue;
        log.info(
          `audit${'format' in r ? ` (${r.format})` : ''}: ${r.findings.length} finding(s) in ${r.scanned.files} file(s) in ${Date.now() - started} ms` +
            (r.cancelled ? ' (cancelled)' : ''),
        );
      }
      return result;
    } catch (err) {
      if (gen === this.generation)
        void vscode.window.showErrorMessage(`Persona Lab: the PI audit failed: ${(err as Error).message}`);
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
    this.link?.dispose();
    this.link = undefined;
    this.db?.close();
    this.db = undefined;
    const server = this.serverUrl;
    // The server's verdicts are read into the replica, so it is made even to read.
    if (!create && !server && !existsSync(path)) return undefined;
    try {
      if (server) {
        const problem = serverUrlProblem(server);
        if (problem) throw new Error(`personaLab.labels.server: ${problem}`);
        const { store, outbox } = openVerdictReplica(path, server);
        this.db = store;
        this.link = new VerdictLink(outbox, server, this.secrets, () => this.reloadVerdicts());
      }
      // A colleague's read-only verdicts are still shown; recording into them is refused with a message.
      else this.db = VerdictStore.open(path, { readOnly: 'when-unwritable' });
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

  private loadVerdicts(): void {
    const db = this.verdictStore(false);
    this.verdicts = (this.current && db?.current(this.current.benchmark)) || new Map();
    this.omniVerdicts = (this.omniCurrent && db?.current(this.omniCurrent.benchmark)) || new Map();
  }

  /** Re-reads the verdicts (another window or person may share the database). */
  reloadVerdicts(): void {
    this.loadVerdicts();
    this.changed.fire();
  }

  /** Records one verdict per finding, with the author and the time; false when the database is unavailable. */
  record(findings: readonly (AuditFinding | OmniAuditFinding)[], verdict: Verdict, note?: string): boolean {
    const db = findings.length && (this.current || this.omniCurrent) ? this.verdictStore(true) : undefined;
    if (!db) return false;
    const author = this.author;
    const done: (AuditFinding | OmniAuditFinding)[] = [];
    try {
      for (const target of findings) {
        // An OmniBehavior finding has a part; its verdict goes under the OmniBehavior benchmark's name.
        const [result, map] = 'part' in target ? [this.omniCurrent, this.omniVerdicts] : [this.current, this.verdicts];
        if (!result) continue;
        map.set(target.key, db.record({ benchmark: result.benchmark, target, verdict, author, note }));
        done.push(target);
      }
    } catch (err) {
      void vscode.window.showErrorMessage(`Persona Lab: the verdict was not saved: ${(err as Error).message}`);
      return false;
    } finally {
      if (done.length) this.recorded.fire(done);
    }
    this.link?.soon();
    log.info(`audit: ${verdict} on ${findings.length} finding(s) by ${author}`);
    return true;
  }

  /** The benchmark's whole verdict trail, oldest first ([] without a database). */
  trail(result: { benchmark: string } | undefined = this.current): VerdictRow[] {
    return result ? (this.verdictStore(false)?.trail({ benchmark: result.benchmark }) ?? []) : [];
  }

  dispose(): void {
    this.controller?.abort();
    this.link?.dispose();
    this.db?.close();
    this.changed.dispose();
    this.recorded.dispose();
  }
}
