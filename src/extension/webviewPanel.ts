// The lifecycle every Persona Lab webview panel shares (step view, dashboard, compare): create the panel with the
// HTML shell, track whether its page said `ready` (messages posted before that are lost), and clean up on dispose.
// A watchdog reloads a visible page that never says `ready`: VS Code's webview service worker sometimes misses the
// first load of a webview made while another one loads (its script then fails with ERR_NAME_NOT_RESOLVED on
// vscode-cdn.net; microsoft/vscode#326544). Seen here when Compare opened two step views at once.
import * as vscode from 'vscode';
import { localRoots } from './webviewHtml';
import { log } from './log';

export interface PanelHostOptions<Out = unknown> {
  viewType: string;
  title: string;
  viewColumn: vscode.ViewColumn;
  preserveFocus?: boolean;
  extensionUri: vscode.Uri;
  /**
   * The page's HTML. `first`: what the panel posted before its page was loaded (see `deferLoad`), for the page to
   * read as it starts; a page whose shell does not carry them gets them again after its `ready`, as every page does.
   */
  html(webview: vscode.Webview, first?: readonly Out[]): string;
  /**
   * The HTML is set by load(), not at once: messages posted until then go into it, so that the page has them as it
   * starts instead of one round trip after its `ready` (the step view's first step).
   */
  deferLoad?: boolean;
  /** A panel VS Code restored after a reload (a serializer's): adopted instead of a new one. */
  adopt?: vscode.WebviewPanel;
  /** Every message from the page; `ready` has already been recorded when it arrives here. */
  onMessage(raw: unknown): void;
  /** The panel's visibility, after each change of its view state and (false) when it closes. */
  onVisible?(visible: boolean): void;
  onDispose(): void;
}

const WATCHDOG_MS = 6_000;
const MAX_RELOADS = 2;

export class PanelHost<Out> {
  readonly panel: vscode.WebviewPanel;
  private isReady = false;
  private waiters: ((ready: boolean) => void)[] = [];
  private watchdog: ReturnType<typeof setTimeout> | undefined;
  private reloads = 0;
  /** Posted before load() (a deferred load); undefined once the HTML is set. */
  private first: Out[] | undefined;
  private loaded = false;

  constructor(private readonly o: PanelHostOptions<Out>) {
    const panel =
      o.adopt ??
      vscode.window.createWebviewPanel(
        o.viewType,
        o.title,
        { viewColumn: o.viewColumn, preserveFocus: o.preserveFocus ?? false },
        { enableScripts: true, localResourceRoots: localRoots(o.extensionUri), enableFindWidget: true },
      );
    if (o.adopt) panel.webview.options = { enableScripts: true, localResourceRoots: localRoots(o.extensionUri) };
    this.panel = panel;
    const own: vscode.Disposable[] = [];
    if (o.deferLoad) this.first = [];
    else this.load();
    panel.onDidDispose(() => {
      o.onVisible?.(false);
      this.isReady = false;
      clearTimeout(this.watchdog);
      this.settle(false);
      for (const d of own.splice(0)) d.dispose();
      o.onDispose();
    });
    // Without retainContextWhenHidden a hidden webview is torn down; it posts `ready` again when shown.
    panel.onDidChangeViewState(
      () => {
        if (!panel.visible) this.isReady = false;
        this.arm();
        o.onVisible?.(panel.visible);
      },
      undefined,
      own,
    );
    panel.webview.onDidReceiveMessage(
      (raw: unknown) => {
        if (typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'ready') {
          this.isReady = true;
          clearTimeout(this.watchdog);
          this.settle(true);
        }
        o.onMessage(raw);
      },
      undefined,
      own,
    );
  }

  /** Sets the page's HTML (once; at construction unless the load is deferred), with what was posted before. */
  load(): void {
    if (this.loaded) return;
    this.loaded = true;
    const first = this.first;
    this.first = undefined;
    this.panel.webview.html = this.o.html(this.panel.webview, first);
    this.arm();
  }

  private arm(): void {
    clearTimeout(this.watchdog);
    if (!this.loaded || this.isReady || !this.panel.visible || this.reloads >= MAX_RELOADS) return;
    this.watchdog = setTimeout(() => {
      if (this.isReady || !this.panel.visible) return;
      this.reloads++;
      log.warn(
        `${this.o.viewType}: the page did not load in ${WATCHDOG_MS} ms; reloading it (${this.reloads}/${MAX_RELOADS})`,
      );
      // A new nonce makes the HTML differ, which is what makes the workbench load it again.
      this.panel.webview.html = this.o.html(this.panel.webview);
      this.arm();
    }, WATCHDOG_MS);
  }

  private settle(ready: boolean): void {
    for (const w of this.waiters.splice(0)) w(ready);
  }

  /** Resolves true once the page is ready, false after `timeoutMs` or when the panel closes. */
  whenReady(timeoutMs: number): Promise<boolean> {
    if (this.isReady) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve(false);
      }, timeoutMs);
      const done = (ready: boolean) => {
        clearTimeout(timer);
        resolve(ready);
      };
      this.waiters.push(done);
    });
  }

  /** The page said `ready` since it was (re)loaded. */
  get ready(): boolean {
    return this.isReady;
  }

  /**
   * Posts once the page is ready; before a deferred load, kept for the page's HTML; dropped between the two (its
   * `ready` makes the owner re-send).
   */
  post(message: Out): void {
    if (this.first) this.first.push(message);
    else if (this.isReady) void this.panel.webview.postMessage(message);
  }
}

/**
 * A panel made on first show and reused after (the dashboards, compare): show() brings it back and refreshes what it
 * shows, and so does the page's `ready` (it loads again when shown after being hidden). Other messages that pass the
 * protocol's guard go to handle().
 */
export abstract class ReusedPanel<Out, In extends { type: string }> implements vscode.Disposable {
  protected host: PanelHost<Out> | undefined;
  protected readonly disposables: vscode.Disposable[] = [];
  private shown = false;
  private readonly visibility = new vscode.EventEmitter<boolean>();
  /** Fires when the panel starts or stops showing (made, hidden behind another tab, shown again, closed). */
  protected readonly onDidChangeVisible = this.visibility.event;

  constructor(
    private readonly hostOptions: Omit<PanelHostOptions, 'onMessage' | 'onDispose'>,
    private readonly protocol: { accepts(raw: unknown): raw is In; logName: string },
  ) {}

  show(): void {
    if (this.host) {
      this.host.panel.reveal(this.host.panel.viewColumn);
      void this.refresh();
      return;
    }
    this.open();
  }

  /**
   * Takes over a panel that VS Code restored after a reload (restoreReusedPanel): what it shows is kept by the
   * extension (workspace state) and the page (webview state), so its `ready` brings it back as it was.
   */
  adopt(panel: vscode.WebviewPanel): void {
    if (this.host) {
      panel.dispose(); // opened again before the restore came
      void this.refresh();
      return;
    }
    this.open(panel);
  }

  private open(adopt?: vscode.WebviewPanel): void {
    this.host = new PanelHost<Out>({
      ...this.hostOptions,
      adopt,
      onMessage: (raw) => void this.receive(raw),
      onVisible: (visible) => this.setShown(visible),
      onDispose: () => (this.host = undefined),
    });
    this.setShown(this.host.panel.visible);
  }

  private setShown(visible: boolean): void {
    if (visible === this.shown) return;
    this.shown = visible;
    this.visibility.fire(visible);
  }

  private async receive(raw: unknown): Promise<void> {
    if (!this.protocol.accepts(raw)) {
      log.warn(`${this.protocol.logName}: ignored an unknown message from the webview`);
      return;
    }
    if (raw.type === 'ready') void this.refresh();
    else await this.handle(raw);
  }

  protected post(message: Out): void {
    this.host?.post(message);
  }

  protected abstract refresh(): void | Promise<void>;
  protected abstract handle(msg: In): void | Promise<void>;

  dispose(): void {
    this.host?.panel.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.visibility.dispose();
  }
}

/** The serializer of a ReusedPanel's view type: after a reload its restored panel is adopted once `ready()` resolves. */
export function restoreReusedPanel(
  viewType: string,
  panel: { adopt(panel: vscode.WebviewPanel): void },
  ready: () => Promise<void>,
): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(viewType, {
    async deserializeWebviewPanel(restored: vscode.WebviewPanel): Promise<void> {
      await ready();
      panel.adopt(restored);
      log.info(`${viewType}: restored`);
    },
  });
}

/**
 * A single-instance panel that shows one thing at a time, a `Ref` (the step view, the trace view): show() opens or
 * reveals it on a ref, adopt() takes over the panel VS Code restored after a reload, and every message from the page
 * passes the protocol's guard before handle(). The subclass says what a ref shows (refresh) and what a message does.
 */
export abstract class ShownPanel<Ref extends object, Out, In extends { type: string }> implements vscode.Disposable {
  protected host: PanelHost<Out> | undefined;
  protected current: Ref | undefined;
  protected readonly disposables: vscode.Disposable[] = [];

  constructor(
    protected readonly extensionUri: vscode.Uri,
    private readonly protocol: { accepts(raw: unknown): raw is In; logName: string; copy(ref: Ref): Ref },
  ) {}

  get currentRef(): Ref | undefined {
    return this.current;
  }

  get isOpen(): boolean {
    return this.host !== undefined;
  }

  /** The panel is the active editor. */
  get isActive(): boolean {
    return this.host?.panel.active ?? false;
  }

  /** Resolves true once the panel's page is ready (at once when it is), false after `timeoutMs` or without a panel. */
  whenReady(timeoutMs: number): Promise<boolean> {
    return this.host ? this.host.whenReady(timeoutMs) : Promise.resolve(false);
  }

  /** Posts to the page once it is ready (dropped before: its `ready` makes the panel show its ref again). */
  post(message: Out): void {
    this.host?.post(message);
  }

  /**
   * Shows `ref`: makes the panel (in `viewColumn`, default the active group), or moves it to `viewColumn`, or brings
   * it back when hidden (`revealInactive`: also when visible but not the active editor).
   */
  protected showRef(
    ref: Ref,
    how: { preserveFocus?: boolean; viewColumn?: vscode.ViewColumn; revealInactive?: boolean } = {},
  ): void {
    this.current = this.protocol.copy(ref);
    const preserveFocus = how.preserveFocus ?? false;
    const panel = this.host?.panel;
    if (!panel) this.create(preserveFocus, how.viewColumn ?? vscode.ViewColumn.Active);
    else if (how.viewColumn !== undefined && how.viewColumn !== panel.viewColumn)
      panel.reveal(how.viewColumn, preserveFocus);
    else if (!panel.visible || (how.revealInactive && !panel.active)) panel.reveal(panel.viewColumn, preserveFocus);
    this.refreshAndLoad();
  }

  /**
   * Sends what the current ref shows; a new panel's page is loaded after, with what refresh() posted at once (and
   * loaded all the same when refresh() throws: its `ready` then asks again).
   */
  private refreshAndLoad(): void {
    try {
      void this.refresh();
    } finally {
      this.host?.load();
    }
  }

  /** Takes over a panel that VS Code restored after a reload, showing `ref` in it (the view's serializer). */
  adopt(panel: vscode.WebviewPanel, ref: Ref): void {
    this.current = this.protocol.copy(ref);
    // This view already has a panel (opened before the restore came): the restored one is not needed.
    if (this.host) panel.dispose();
    else this.create(true, panel.viewColumn ?? vscode.ViewColumn.Active, panel);
    this.refreshAndLoad();
  }

  private create(preserveFocus: boolean, viewColumn: vscode.ViewColumn, adopt?: vscode.WebviewPanel): void {
    this.host = new PanelHost<Out>({
      ...this.hostOptions(),
      adopt,
      deferLoad: true,
      viewColumn,
      preserveFocus,
      extensionUri: this.extensionUri,
      onMessage: (raw) => this.receive(raw),
      onDispose: () => {
        this.host = undefined;
        this.closed();
      },
    });
    this.opened();
  }

  private receive(raw: unknown): void {
    if (!this.protocol.accepts(raw)) {
      log.warn(`${this.protocol.logName}: ignored an unknown message from the webview`);
      return;
    }
    const done = this.handle(raw);
    if (done)
      done.catch((e: unknown) =>
        log.error(`${this.protocol.logName}: ${raw.type} failed: ${e instanceof Error ? e.message : String(e)}`),
      );
  }

  /** The new panel's view type, title and HTML. */
  protected abstract hostOptions(): Pick<PanelHostOptions<Out>, 'viewType' | 'title' | 'html'>;
  /** Sends what the current ref shows (after show, adopt, the page's `ready`, or a change of what it shows). */
  protected abstract refresh(): void | Promise<void>;
  /** A message that passed the guard, `ready` included. */
  protected abstract handle(msg: In): void | Promise<void>;
  protected opened(): void {}
  protected closed(): void {}

  dispose(): void {
    this.host?.panel.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
