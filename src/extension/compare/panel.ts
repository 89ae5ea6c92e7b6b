// What every format's compare view shares: one panel, reused, showing run B against run A. The pair compared last is
// kept in workspace state (so the picks preselect it and the view comes back after a reload), the comparison is
// computed once per load and pair, the view follows the benchmark's reloads, and the page's buttons ask for other
// runs or a swap. A format gives its comparison, its problem and its own messages (opening an item).
import * as vscode from 'vscode';
import type { Infer } from '../../core/guards';
import type { COMPARE_FROM_WEBVIEW } from '../../shared/compareProtocol';
import { log } from '../log';
import { ReusedPanel } from '../webviewPanel';
import type { CompareBadges, ComparePart, CompareRunChoice, RunPair } from './part';

export type CompareToWebview<M> = { type: 'show'; model: M } | { type: 'empty'; message: string };

/** The page's messages every compare view understands (`ready` is the panel's own). */
export type CompareFromWebview = Infer<(typeof COMPARE_FROM_WEBVIEW)[number]>;

export interface RunPairSource<M> {
  /** The loaded benchmark (another object after each reload); undefined when none is open. */
  bench(): unknown;
  /** Why the pair cannot be compared, or undefined (undefined too when a run is not scored yet). */
  problem(pair: RunPair): string | undefined;
  /** The comparison; undefined when a run is missing or cannot be compared. */
  compare(pair: RunPair): M | undefined;
  /** What the log says of a comparison made: "N paired questions of M personas, K differing". */
  describe(model: M): string;
  /** The page's text when no benchmark of the format is open. */
  noBenchmark: string;
  /** An onDidChange of the format's store: the view follows reloads. */
  onDidChange: vscode.Event<unknown>;
}

type Options = ConstructorParameters<typeof ReusedPanel>[0];

export abstract class RunPairPanel<M, In extends { type: string }> extends ReusedPanel<
  CompareToWebview<M>,
  In | CompareFromWebview
> {
  private cached: { bench: unknown; pair: RunPair; model: M } | undefined;
  private readonly logName: string;
  private readonly pairChanged = new vscode.EventEmitter<void>();
  /** Fires when another pair is compared or the benchmark reloads. */
  readonly onDidChangePair = this.pairChanged.event;

  constructor(
    options: Options,
    protocol: { accepts(raw: unknown): raw is In | CompareFromWebview; logName: string },
    private readonly source: RunPairSource<M>,
    private readonly state: vscode.Memento,
    private readonly pairKey: string,
  ) {
    super(options, protocol);
    this.logName = protocol.logName;
    this.disposables.push(
      this.pairChanged,
      source.onDidChange(() => {
        this.refresh();
        this.pairChanged.fire();
      }),
    );
  }

  /** The pair compared last, even if a run of it is gone now. */
  get pair(): RunPair | undefined {
    return this.state.get<RunPair>(this.pairKey);
  }

  /** Compares the pair from now on; shows the view unless `show` is false (compare mode's pick). */
  async setPair(pair: RunPair, show = true): Promise<void> {
    await this.state.update(this.pairKey, { a: pair.a, b: pair.b });
    if (show) this.show();
    else this.refresh();
    this.pairChanged.fire();
  }

  problem(pair: RunPair): string | undefined {
    return this.source.problem(pair);
  }

  /** The comparison shown now, if any. */
  protected get current(): M | undefined {
    return this.cached?.model;
  }

  /** The comparison of the pair, computed once per load and pair. */
  comparison(pair: RunPair): M | undefined {
    const bench = this.source.bench();
    if (!bench) return undefined;
    const c = this.cached;
    if (c && c.bench === bench && c.pair.a === pair.a && c.pair.b === pair.b) return c.model;
    const started = Date.now();
    const model = this.source.compare(pair);
    if (model === undefined) return undefined;
    log.info(`${this.logName}: ${pair.a} vs ${pair.b}: ${this.source.describe(model)}, in ${Date.now() - started} ms`);
    this.cached = { bench, pair, model };
    return model;
  }

  protected refresh(): void {
    if (!this.host) return;
    const pair = this.pair;
    const model = pair && this.comparison(pair);
    if (!model || !pair) {
      const why = pair && this.source.bench() ? this.source.problem(pair) : undefined;
      this.post({
        type: 'empty',
        message: !this.source.bench()
          ? this.source.noBenchmark
          : (why ?? 'Pick two runs to compare (Persona Lab: Compare Runs…).'),
      });
      return;
    }
    this.host.panel.title = `Compare: ${pair.a} vs ${pair.b}`;
    this.post({ type: 'show', model });
  }

  protected async handle(msg: In | CompareFromWebview): Promise<void> {
    if (msg.type === 'pickRuns') {
      await vscode.commands.executeCommand('personaLab.compareRuns');
      return;
    }
    if (msg.type === 'swapRuns') {
      const pair = this.pair;
      if (pair) await this.setPair({ a: pair.b, b: pair.a });
      return;
    }
    if (msg.type !== 'ready') await this.handleOwn(msg as In);
  }

  /** The format's own messages (opening an item of the comparison). */
  protected abstract handleOwn(msg: In): void | Promise<void>;
}

/** A format's part of Compare Runs on its compare view; `restore` is the view's serializer (restoreReusedPanel). */
export function runPairPart<M, In extends { type: string }>(
  panel: RunPairPanel<M, In>,
  restore: vscode.Disposable,
  o: {
    runs(): CompareRunChoice[];
    selectedRun(): string | undefined;
    /** compare mode's badges of a pair's comparison, when the format offers them */
    badges?(pair: RunPair, model: M): CompareBadges | undefined;
  },
): ComparePart {
  const badgesOf = o.badges;
  const badges =
    badgesOf &&
    (async (given?: RunPair): Promise<CompareBadges | undefined> => {
      if (given) await panel.setPair(given, false);
      const pair = panel.pair;
      const model = pair && panel.comparison(pair);
      return pair && model ? badgesOf(pair, model) : undefined;
    });
  return {
    ...(badges ? { badges, onDidChangeBadges: panel.onDidChangePair } : {}),
    runs: o.runs,
    get lastPair() {
      return panel.pair;
    },
    get selectedRun() {
      return o.selectedRun();
    },
    problem: (pair) => panel.problem(pair),
    show: (pair) => panel.setPair(pair),
    dispose: () => vscode.Disposable.from(restore, panel).dispose(),
  };
}
