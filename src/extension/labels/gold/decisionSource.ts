// The adjudicators' live decisions for the views that show gold (the Label Agreement, its Markdown, the dashboards'
// why-runs-fail section). With the embedded file they are read from it at once. With a label server they live on the
// server only (the replica carries the annotators' labels, not the decisions): the last decisions read from it are
// given, "reading" before its first answer (never "none": that would say no unit is adjudicated), and a read that
// fails is given as its reason. Reading the server costs a round trip per label change, so it is read again only
// while a view that shows gold follows it (`follow`); a view that starts following makes one read.
import type { Adjudication } from '../../../core/labels/gold';
import { serverGold, type GoldBackend } from '../adjudicate/goldBackend';
import { readDecisions, type Decisions } from './readDecisions';

/** What a view says while the label server's decisions have not answered yet. */
export const READING_DECISIONS = 'Reading the decisions from the label server…';

/** The decisions as a view gets them: at hand, why they cannot be read, or not read yet (the first read runs). */
export type LiveDecisions = Decisions | { reading: true };

export interface DecisionWhere {
  /** The label database file (the replica with a server). */
  file: string;
  /** personaLab.labels.server, '' for the embedded file. */
  server: string;
}

export class DecisionSource {
  private server: { url: string; backend: GoldBackend; read: Decisions | undefined } | undefined;
  private reading: Promise<void> | undefined;
  private again = false;
  private followers = 0;
  /** Set while `changed` runs: the change event it causes is this source's own, not news from the server. */
  private telling = false;

  constructor(
    private readonly where: () => DecisionWhere,
    private readonly password: (url: string) => Thenable<string | undefined>,
    private readonly changed: () => void,
    private readonly open: typeof serverGold = serverGold,
  ) {}

  /** Whether the decisions come from a label server (read in the background) rather than the file. */
  get fromServer(): boolean {
    return this.where().server !== '';
  }

  /** How many views that show gold follow the decisions now. */
  get following(): number {
    return this.followers;
  }

  /**
   * A view that shows gold, while it shows: reads the server once now, and again on each label change until the
   * returned handle is disposed (disposing it twice counts once).
   */
  follow(): { dispose(): void } {
    this.followers++;
    void this.refresh();
    let followed = true;
    return {
      dispose: () => {
        if (followed) this.followers--;
        followed = false;
      },
    };
  }

  /** The labels changed (another window, the CLI, a decision): decisions made elsewhere may come with it. */
  labelsChanged(): void {
    if (this.followers > 0 && !this.telling) void this.refresh();
  }

  /** The live decisions (of `benchmark` when given): the file's, or the last read from the server. */
  read(benchmark?: string): LiveDecisions {
    const { file, server } = this.where();
    if (!server) return readDecisions(file, benchmark);
    const s = this.backend(server);
    if (!s.read) {
      // Asked before any answer, by a view that may not follow: make sure a read runs, so that "reading" is true.
      if (!this.reading) void this.refresh();
      return { reading: true };
    }
    if ('error' in s.read || benchmark === undefined) return s.read;
    return { adjudications: s.read.adjudications.filter((a) => a.ref.benchmark === benchmark) };
  }

  /** Reads the server's decisions again (one read at a time; asks made meanwhile make one more); none with a file. */
  refresh(): Promise<void> {
    if (!this.where().server) return Promise.resolve();
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.again = false;
        await this.readServer();
      } while (this.again);
      this.reading = undefined;
    })();
    return this.reading;
  }

  /** Resolves once the reads begun so far (and those asked for meanwhile) are done. */
  settled(): Promise<void> {
    return this.reading ?? Promise.resolve();
  }

  private backend(url: string) {
    if (this.server?.url !== url) {
      this.server?.backend.close();
      this.server = { url, backend: this.open(url, () => this.password(url)), read: undefined };
    }
    return this.server;
  }

  private async readServer(): Promise<void> {
    const url = this.where().server;
    if (!url) return;
    const s = this.backend(url);
    let read: Decisions;
    try {
      read = { adjudications: await s.backend.adjudications() };
    } catch (err) {
      read = { error: (err as Error).message };
    }
    if (this.server !== s) return;
    const differs = key(read) !== (s.read ? key(s.read) : undefined);
    s.read = read;
    if (!differs) return;
    this.telling = true;
    try {
      this.changed();
    } finally {
      this.telling = false;
    }
  }

  dispose(): void {
    this.server?.backend.close();
    this.server = undefined;
  }
}

const key = (d: Decisions) =>
  'error' in d
    ? `error ${d.error}`
    : JSON.stringify(d.adjudications.map((a: Adjudication) => [a.ref, a.labels, a.adjudicator, a.createdAt]));

/** A `vscode.Event<boolean>` as this file needs it (no vscode here): whether a view shows, as it changes. */
export type ShownEvent = (listener: (shown: boolean) => void) => { dispose(): void };

/** Follows `source` while `shown` last said the view shows (a panel's visibility); the handle stops for good. */
export function followWhileShown(source: DecisionSource, shown: ShownEvent): { dispose(): void } {
  let following: { dispose(): void } | undefined;
  const stop = () => {
    following?.dispose();
    following = undefined;
  };
  const listening = shown((now) => {
    if (now) following ??= source.follow();
    else stop();
  });
  return {
    dispose: () => {
      listening.dispose();
      stop();
    },
  };
}
