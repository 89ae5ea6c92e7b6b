// The run history database of the extension: .personalab/history.db in the first workspace folder (else the
// extension's workspace or global storage). Opened on first use through a dynamic import, so that a native module
// that cannot load costs the history only: attempts are then kept in memory for the session.
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { attemptFromRecord, type AttemptRow } from '../../../../core/spb/rerun/attemptCompare';
import type { HistoryContext, RunHistory } from '../../../../core/spb/run/history';
import type { StepRunRecord } from '../../../../core/spb/run/step';
import type { StepRef } from '../store';
import { log } from '../../../log';

export const HISTORY_FILE = 'history.db';

export function historyPath(context: vscode.ExtensionContext): string {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  if (folder) return join(folder.uri.fsPath, '.personalab', HISTORY_FILE);
  return join((context.storageUri ?? context.globalStorageUri).fsPath, HISTORY_FILE);
}

interface MemoryAttempt {
  ref: StepRef;
  row: AttemptRow;
}

export class AttemptHistory implements vscode.Disposable {
  private db: RunHistory | null | undefined;
  private opening: Promise<RunHistory | null> | undefined;
  private why = '';
  private readonly memory = new Map<number, MemoryAttempt>();
  private nextMemoryId = -1;

  constructor(private readonly path: string) {}

  /** Why the database cannot be used ('' when it can or was not tried yet). */
  get problem(): string {
    return this.why;
  }

  open(): Promise<RunHistory | null> {
    if (this.db !== undefined) return Promise.resolve(this.db);
    this.opening ??= (async () => {
      try {
        const { RunHistory } = await import('../../../../core/spb/run/history');
        mkdirSync(dirname(this.path), { recursive: true });
        // The database holds prompts and replies: keep it out of version control, next to templates that belong in it.
        const ignore = join(dirname(this.path), '.gitignore');
        if (dirname(this.path).endsWith('.personalab') && !existsSync(ignore))
          writeFileSync(ignore, `${HISTORY_FILE}*\n`);
        this.db = RunHistory.open(this.path);
      } catch (e) {
        this.why = `the history database ${this.path} cannot be used (${e instanceof Error ? e.message : String(e)}); attempts are kept for this session only`;
        log.warn(this.why);
        this.db = null;
      }
      return this.db;
    })();
    return this.opening;
  }

  /** Stores a step record; returns it as a history row (with its id). */
  async record(ctx: HistoryContext, rec: StepRunRecord): Promise<AttemptRow> {
    const db = await this.open();
    if (db) {
      try {
        const row = db.byId(db.record(ctx, rec));
        if (row) return row;
      } catch (e) {
        this.why = `could not write to ${this.path}: ${e instanceof Error ? e.message : String(e)}`;
        log.warn(this.why);
      }
    }
    const id = this.nextMemoryId--;
    const row = attemptFromRecord(rec, ctx, id);
    this.memory.set(id, { ref: { platform: rec.platform, userId: rec.userId, stepId: rec.stepId }, row });
    return row;
  }

  /** The database when it exists already: reading never creates files in the workspace. */
  private existing(): Promise<RunHistory | null> {
    return this.db !== undefined || existsSync(this.path) ? this.open() : Promise.resolve(null);
  }

  /** The step's attempts, oldest first. */
  async forStep(ref: StepRef): Promise<AttemptRow[]> {
    const db = await this.existing();
    const rows: AttemptRow[] = db ? db.forStep(ref.platform, ref.userId, ref.stepId) : [];
    for (const m of this.memory.values()) {
      if (m.ref.platform === ref.platform && m.ref.userId === ref.userId && m.ref.stepId === ref.stepId)
        rows.push(m.row);
    }
    return rows;
  }

  async byId(id: number): Promise<AttemptRow | undefined> {
    if (id < 0) return this.memory.get(id)?.row;
    return (await this.existing())?.byId(id);
  }

  dispose(): void {
    this.db?.close();
  }
}
