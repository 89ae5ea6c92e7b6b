// The adjudicators' live decisions for the views that show gold (the Label Agreement, its Markdown, the dashboards'
// why-runs-fail section). With the embedded file they are read from it at once. With a label server they live on the
// server only (the replica carries the annotators' labels, not the decisions): the last decisions read from it are
// given, and `refresh` reads them again (on each change of the labels) and calls `changed` when they differ, so that
// the views draw again. A read that fails is given as its reason.
import type { Adjudication } from '../../../core/labels/gold';
import { serverGold, type GoldBackend } from '../adjudicate/goldBackend';
import { readDecisions, type Decisions } from './readDecisions';

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

  /** The live decisions (of `benchmark` when given): the file's, or the last read from the server (none before). */
  read(benchmark?: string): Decisions {
    const { file, server } = this.where();
    if (!server) return readDecisions(file, benchmark);
    const s = this.backend(server);
    if (!s.read) void this.refresh();
    const read = s.read ?? { adjudications: [] };
    if ('error' in read || benchmark === undefined) return read;
    return { adjudications: read.adjudications.filter((a) => a.ref.benchmark === benchmark) };
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
    if (differs) this.changed();
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
