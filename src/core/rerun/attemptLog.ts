// Attempts made in the workbench, for a format whose attempts are its own records: one append-only file per
// benchmark (crash-safe, runner/appendLog.ts), each record numbered as it is added, read back by the format's own
// test of what a record is (a line that is not one is left out, never thrown on).
import { AppendLog } from '../runner/appendLog';

export class AttemptLog<T extends { id: number }> {
  private readonly all: T[] = [];
  private readonly log: AppendLog;

  constructor(path: string, accept: (v: unknown) => v is T) {
    const { log, values } = AppendLog.open(path);
    this.log = log;
    for (const v of values) if (accept(v)) this.all.push(v);
  }

  /** The attempts `which` keeps, newest first. */
  protected newestFirst(which: (a: T) => boolean): T[] {
    return this.all.filter(which).reverse();
  }

  add(attempt: Omit<T, 'id'>): T {
    const id = this.all.reduce((m, a) => Math.max(m, a.id), 0) + 1;
    const row = { id, ...attempt } as T;
    this.log.append(row);
    this.all.push(row);
    return row;
  }

  close(): void {
    this.log.close();
  }
}
