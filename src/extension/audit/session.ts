// The audit of the loaded benchmark: runs auditBenchmark in the extension host (it streams the files and yields
// between chunks, so the host stays responsive) with progress and cancellation, keeps the latest result, and
// owns the verdict database (opened on first use; a failure to open it leaves the audit usable without verdicts).
// With personaLab.labels.server set, the verdicts go to that server too, through a local replica (verdictLink.ts).
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { CONFIDENCES, type Confidence } from '../../core/pi/types';
import { openVerdictReplica } from '../../core/pi/server/sync';
import { VerdictStore, type Verdict, type VerdictRow } from '../../core/pi/verdicts';
import { serverUrlProblem } from '../../core/storage/postgres';
import type { OpenBenchmark } from '../benchmarks/types';
import { auditAuthor, auditDbPath } from './paths';
import { log } from '../log';
import type { AnyAuditResult, AuditPart, AuditResults } from './part';
import { VerdictLink, verdictReplicaPath } from './verdictLink';
import { restrictedSetting } from '../trustedSettings';

export const AUDIT_VIEW_ID = 'personaLab.audit';

/** An open benchmark whose format offers the audit, with its part and its format's name. */
export interface AuditTarget {
  readonly open: OpenBenchmark;
  readonly part: AuditPart;
  readonly label: string;
}

/** One benchmark's audit: the result, the load it is about, and its verdicts. */
export interface Audited {
  readonly target: AuditTarget;
  readonly result: AnyAuditResult;
  readonly loaded: object;
  verdicts: Map<string, VerdictRow>;
}

type AnyFinding = AnyAuditResult['findings'][number];

function folders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

export class AuditSession implements vscode.Disposable {
  /** The latest audit of each target, in the targets' order (a benchmark not open then has none). */
  private audits: Audited[] = [];
  private controller: AbortController | undefined;
  private generation = 0;
  private finishedAt = new Date(0);
  private db: VerdictStore | undefined;
  private link: VerdictLink | undefined;
  private dbError: string | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a run starts or ends, the result goes stale, or the verdicts are re-read. */
  readonly onDidChange = this.changed.event;
  private readonly recorded = new vscode.EventEmitter<readonly AnyFinding[]>();
  /** Fires with the findings that just got a verdict (the tree refreshes only their categories). */
  readonly onDidRecord = this.recorded.event;

  constructor(
    /** The open benchmarks whose format offers the audit, in the Benchmarks view's order. */
    readonly targets: readonly AuditTarget[],
    private readonly storageDir: string,
    /** The folder the verdicts go in when no workspace folder is open: the first format's benchmark. */
    private readonly firstRoot: () => string | undefined,
    /** Where the label server's password is (the verdicts use the labels' server and password). */
    private readonly secrets?: vscode.SecretStorage,
  ) {}

  /** When the results shown were made. */
  get ranAt(): Date {
    return this.finishedAt;
  }

  /** The latest audit of each benchmark it covered, in the Benchmarks view's order. */
  get results(): readonly Audited[] {
    return this.audits;
  }

  /** The latest audit of `target`'s benchmark. */
  auditOf(target: AuditTarget): Audited | undefined {
    return this.audits.find((a) => a.target === target);
  }

  /** What a format's part reads of its own results. */
  resultsOf(target: AuditTarget): AuditResults {
    return {
      result: () => this.auditOf(target)?.result,
      stale: () => {
        const audited = this.auditOf(target);
        return audited === undefined || target.part.loaded() !== audited.loaded;
      },
      onDidChange: this.onDidChange,
    };
  }

  /** Whether there is a benchmark to audit. */
  get hasBenchmark(): boolean {
    return this.targets.some((t) => t.part.loaded() !== undefined);
  }

  get running(): boolean {
    return this.controller !== undefined;
  }

  /** A loaded benchmark is not the one its result is about (it was reloaded or another one was opened). */
  get stale(): boolean {
    return this.audits.some((a) => a.target.part.loaded() !== a.loaded);
  }

  get dbPath(): string {
    const server = this.serverUrl;
    const root = this.firstRoot();
    if (server) return verdictReplicaPath(folders()[0] ?? root ?? this.storageDir, server);
    const setting = restrictedSetting<string>('personaLab.audit.dbPath');
    return auditDbPath(setting, folders(), homedir(), root, this.storageDir);
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
    for (const a of this.audits) {
      const row = a.verdicts.get(key);
      if (row) return row;
    }
    return undefined;
  }

  /**
   * Audits the loaded benchmarks; a run in progress is cancelled first. Resolves with the results, or undefined when
   * there is no benchmark or this run was superseded by a newer one. A cancelled run keeps its partial result.
   */
  async run(opts: { notify: boolean }): Promise<readonly Audited[] | undefined> {
    await Promise.all(this.targets.map((t) => t.open.ready()));
    const todo = this.targets.flatMap((target) => {
      const loaded = target.part.loaded();
      return loaded ? [{ target, loaded }] : [];
    });
    // The command checks that one is open and says so; an automatic run just does nothing.
    if (!todo.length) return undefined;
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
      const audits = await vscode.window.withProgress({ location: { viewId: AUDIT_VIEW_ID } }, () =>
        vscode.window.withProgress(
          {
            location: opts.notify ? vscode.ProgressLocation.Notification : vscode.ProgressLocation.Window,
            title: 'Persona Lab: PI audit',
            cancellable: true,
          },
          async (progress, token) => {
            const sub = token.onCancellationRequested(() => controller.abort());
            let last = 0;
            // With several benchmarks open each gets its share of the bar.
            const onProgress = (phase: number) => (done: number, total: number) => {
              const pct = Math.floor((100 * (phase + (total ? done / total : 1))) / todo.length);
              if (pct > last) {
                progress.report({ message: `${pct} %`, increment: pct - last });
                last = pct;
              }
            };
            try {
              const out: Audited[] = [];
              for (const [phase, { target, loaded }] of todo.entries()) {
                if (phase > 0 && controller.signal.aborted) break;
                const result = await target.part.run({
                  signal: controller.signal,
                  minConfidence,
                  onProgress: onProgress(phase),
                });
                out.push({ target, result, loaded, verdicts: new Map() });
              }
              return out;
            } finally {
              sub.dispose();
            }
          },
        ),
      );
      if (gen !== this.generation) return undefined;
      this.audits = audits;
      this.finishedAt = new Date();
      this.loadVerdicts();
      for (const { result: r } of audits) {
        log.info(
          `audit${'format' in r && r.format ? ` (${r.format})` : ''}: ${r.findings.length} finding(s) in ${r.scanned.files} file(s) in ${Date.now() - started} ms` +
            (r.cancelled ? ' (cancelled)' : ''),
        );
      }
      return audits;
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
    for (const a of this.audits) a.verdicts = db?.current(a.result.benchmark) || new Map();
  }

  /** Re-reads the verdicts (another window or person may share the database). */
  reloadVerdicts(): void {
    this.loadVerdicts();
    this.changed.fire();
  }

  /** Records one verdict per finding, with the author and the time; false when the database is unavailable. */
  record(findings: readonly AnyFinding[], verdict: Verdict, note?: string): boolean {
    const db = findings.length && this.audits.length ? this.verdictStore(true) : undefined;
    if (!db) return false;
    const author = this.author;
    const done: AnyFinding[] = [];
    // Each finding's verdict goes under the name of the benchmark whose audit found it.
    const auditOf = new Map<AnyFinding, Audited>();
    for (const a of this.audits) for (const f of a.result.findings) auditOf.set(f, a);
    try {
      for (const target of findings) {
        const audited = auditOf.get(target);
        if (!audited) continue;
        const row = db.record({ benchmark: audited.result.benchmark, target, verdict, author, note });
        audited.verdicts.set(target.key, row);
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
  trail(result: { benchmark: string } | undefined = this.audits[0]?.result): VerdictRow[] {
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
