// How a window keeps a replica of a team's server in step (labels: labels/serverLink.ts, verdicts:
// audit/verdictLink.ts): a sync soon after each write (a burst of keys goes as one), one every few seconds for
// everyone else's, and only one at a time: a request during one asks for one more after it, never a queue of them (a
// server that takes seconds to time out would otherwise pile up a poll every 3 s).
import type * as vscode from 'vscode';

const SOON_MS = 150;
const POLL_MS = 3_000;

export class SyncPoller<R> implements vscode.Disposable {
  private soonTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly poll: ReturnType<typeof setInterval>;
  private inFlight: Promise<R> | undefined;
  private again = false;
  private disposed = false;

  constructor(
    /** One sync; never rejects (a failure is a report). */
    private readonly sync: () => Promise<R>,
    /** Told each report while the poller lives. */
    private readonly after: (report: R) => void,
  ) {
    this.poll = setInterval(() => void this.run(), POLL_MS);
    void this.run();
  }

  soon(): void {
    clearTimeout(this.soonTimer);
    this.soonTimer = setTimeout(() => void this.run(), SOON_MS);
  }

  /** Syncs now and waits for it (tests, and a command that must see the server's state). */
  now(): Promise<R> {
    return this.run();
  }

  private run(): Promise<R> {
    if (this.inFlight) {
      this.again = true;
      return this.inFlight;
    }
    const runs = async () => {
      let report: R;
      do {
        this.again = false;
        report = await this.sync();
        if (!this.disposed) this.after(report);
      } while (this.again && !this.disposed);
      return report;
    };
    this.inFlight = runs().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.soonTimer);
    clearInterval(this.poll);
  }
}
