// What each format's dashboard mounts to show "why runs fail" for its benchmark: it reads the benchmark's labels
// and decisions from the label service's store, builds the section (whyRunsFailSection.ts) and posts it; again on
// every label change (another window, the CLI, a decision of the adjudication pass). A panel calls `refresh` after
// its own `show`, so that the section follows a reload of the page. While the panel shows, it follows the label
// server's decisions (read again on label changes); a hidden or closed dashboard costs the server nothing.
import type * as vscode from 'vscode';
import type { OpenBenchmark } from '../../benchmarks/types';
import type { WhyRunsFailMessage } from '../../../shared/whyRunsFailProtocol';
import type { LabelService } from '../service';
import { followWhileShown, type ShownEvent } from './decisionSource';
import { whyRunsFailSection } from './whyRunsFailSection';

export class WhyRunsFailFeed implements vscode.Disposable {
  private readonly subscriptions: { dispose(): void }[] = [];

  constructor(
    private readonly labels: LabelService,
    private readonly open: Pick<OpenBenchmark, 'root'>,
    /** The panel's page while it shows (no work for a closed one). */
    private readonly page: () => { post(m: WhyRunsFailMessage): void } | undefined,
    /** The panel's visibility as it changes (ReusedPanel's onDidChangeVisible). */
    shown: ShownEvent,
    /** false for a panel that draws again on every label change already (and calls `refresh` then). */
    follow = true,
  ) {
    this.subscriptions.push(followWhileShown(labels.decisions, shown));
    if (follow) this.subscriptions.push(labels.onDidChange(() => this.page() && this.refresh()));
  }

  refresh(): void {
    const benchmark = this.labels.benchmarkOf(this.open);
    const store = this.labels.store(false);
    const server = this.labels.serverUrl;
    const source = server
      ? `the label server ${serverName(server)} (its labels as replicated in ${this.labels.dbFile}, its decisions ` +
        'as last read from it)'
      : this.labels.dbFile;
    const section = whyRunsFailSection({
      source,
      exists: store !== undefined,
      error: store === undefined ? this.labels.error : null,
      benchmark,
      rows: benchmark === undefined ? [] : (store?.list({ benchmark }) ?? []),
      decisions: this.labels.decisions.read(benchmark),
      names: this.labels.names(),
      unitOf: this.labels.unitOf,
    });
    this.page()?.post({ type: 'whyRunsFail', section });
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}

/** The server's URL without its password. */
function serverName(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return u.toString();
  } catch {
    return 'set in personaLab.labels.server';
  }
}
