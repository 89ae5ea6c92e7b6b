// What a benchmark format is to both shells: one descriptor per format, in the format's own folder, listed once in
// the registry (./index.ts). A descriptor never imports the registry.
import type { Diagnostic } from '../io/diagnostics';
import type { LabelRow, TargetKind } from '../labels/model';
import type { FormatLabelSet } from '../labels/labelDefs';
import type { Freshness } from '../labels/staleness';
import type { AnyCountRow, ReportableFinding, ReportableResult } from '../pi/report';
import type { Confidence } from '../pi/types';
import type { TableFormat } from '../tables/format';
import type { OrderKeyInfo, UserOrder } from '../userOrder';

/** What every loader accepts; a format uses what applies to it (an index cache, progress). */
export interface FormatLoadOptions {
  onProgress?: (done: number, total: number) => void;
  /** Only these runs; all when absent. */
  runs?: readonly string[];
  cacheDir?: string | ((root: string) => string | undefined);
  deferIndexWrites?: (write: () => void) => void;
  /** Filled with how the files were read (an index cache's hits and the pages read, for a format that keeps one). */
  cacheReport?: { hits: number; appended: number; read: number; writeError?: string; pages?: string[] };
  /** The caller reads figures, diagnostics and run names only: a format may then read less (a warm `score`). */
  figuresOnly?: boolean;
  /** Awaited between files, where a loader that reads several may yield to the caller's event loop. */
  betweenFiles?: () => Promise<void>;
}

/** The part every loaded benchmark has, whatever its format. */
export interface BenchBase {
  root: string;
  diagnostics: Diagnostic[];
  runs: ReadonlyMap<string, unknown>;
}

/** `validate`'s figures: `json` is printed before the diagnostics by `--json`, `summary` starts the text line. */
export interface Validation {
  json: Record<string, unknown>;
  summary: string;
}

/** How `score` should print: the text report, the JSON contract, or the tables in one format. */
export type ScoreOutput = { kind: 'text' } | { kind: 'json' } | { kind: 'table'; format: TableFormat };

export interface ScoreRequest {
  output: ScoreOutput;
  /** Only a format whose `scoreOptions` names it is asked for these. */
  sample?: string;
  writeReports?: boolean;
  /** Persona memory per run (reads every persona the runs wrote). */
  memory?: boolean;
}

export interface ScoreResult {
  /** What goes to stdout. */
  text: string;
  /** Lines for stderr (warnings, refused writes). */
  warnings: string[];
  /** A requested write was refused: the exit status is 1. */
  failed?: boolean;
}

/** What `score --json` prints for a format: its top-level keys, always present, and what they hold. */
export interface ScoreContract {
  keys: readonly string[];
  /** Keys present only with some options (a `sample` the request names). */
  optionalKeys?: readonly string[];
  description: string;
}

export type ScoreOption = 'sample' | 'writeReports' | 'memory';

export interface AuditRequest {
  minConfidence: Confidence;
  runs?: readonly string[];
}

/** The optional things a format offers. The extension's features and the CLI's commands look here. */
export interface Capabilities<B> {
  /** Prompts can be sent again and compared with the original (the re-run feature). */
  rerun?: boolean;
  /** The page one item opens in, in the extension. */
  itemView?: string;
  audit?: (bench: B, req: AuditRequest) => Promise<ReportableResult<ReportableFinding, AnyCountRow>>;
  labels?: {
    /** What a label can be put on. */
    targets: readonly TargetKind[];
    /** Each row of `benchmark` against the data as loaded now (rows of other benchmarks are left out). */
    freshness: (bench: B, benchmark: string, rows: readonly LabelRow[]) => Promise<Map<LabelRow, Freshness>>;
    /** Its label set: its key in labels.json and its default labels. */
    set?: FormatLabelSet;
    /**
     * The `platform` values its labels carry, when they are fixed: no label of a target kind it does not take may
     * carry one, and where every format taking a kind declares them, that kind's labels carry one of theirs
     * (core/labels/platformRules.ts).
     */
    platforms?: readonly string[];
    /**
     * What one of its units is as a labelling project's item (core/labels/server/projectItems.ts): a 'step' (its
     * platform one of `platforms`), or a 'testAction', placed by its user and index alone (its labels' one fixed
     * platform is never shown). Any other unit is an 'item'.
     */
    item?: 'step' | 'testAction';
    /** The dimensions people score its judge's answers on (core/labels/scores.ts), when it has a judge. */
    judgeDimensions?: readonly string[];
  };
}

export type CapabilityName = 'rerun' | 'itemView' | 'audit' | 'labels';

/** One message of a chat request, as the demo endpoint reads it. */
export interface DemoMessage {
  role: string;
  content: string;
}

/** The demo endpoint's reply: its text, and the line its log shows. */
export interface DemoReply {
  content: string;
  summary: string;
}

/** What the demo endpoint read from a request besides its turns of text. */
export interface DemoRequest {
  /** The text of the last user message (a string, or the text parts of a content array). */
  prompt: string;
  /** Whether any message has the system role, whatever its content. */
  hasSystem: boolean;
}

/**
 * Why a format's rule cannot read a request: the endpoint answers HTTP 400 with the first format's reason when no
 * format answers.
 */
export interface DemoRefusal {
  refused: string;
}

/** A format's fixed-rule answer to a demo request: a reply, a reason it cannot read it, or undefined (not its shape). */
export type DemoAnswer = (
  messages: readonly DemoMessage[],
  request: DemoRequest,
) => DemoReply | DemoRefusal | undefined;

/** What a format's folder writes: typed by its own benchmark. */
export interface FormatSpec<Id extends string, B extends BenchBase> {
  id: Id;
  label: string;
  /** Cheap check on names only: no file is parsed, nothing throws. */
  detect(target: string): boolean;
  read(target: string, opts: FormatLoadOptions): Promise<B>;
  validate(bench: B): Validation;
  score(bench: B, req: ScoreRequest): Promise<ScoreResult>;
  scoreContract: ScoreContract;
  scoreOptions?: readonly ScoreOption[];
  orderKeys: Readonly<Record<string, OrderKeyInfo>>;
  defaultOrder: UserOrder;
  /** What one of its label units is called ("question", "questions"); "item" when it does not say. */
  unit?: UnitName;
  capabilities: Capabilities<B>;
  /**
   * The demo endpoint's fixed-rule answer to a request of this format's shape (core/demo/server.ts asks each format),
   * undefined when the request is not one of its own.
   */
  demoAnswer?: DemoAnswer;
  /** Its demo rule answers any request of a broad shape: the endpoint asks it after the formats without this. */
  demoCatchAll?: boolean;
}

/** A loaded benchmark: typed for the format's own code, and `opened` for code that serves any format. */
export interface Loaded<Id extends string = string, B = unknown> {
  format: Id;
  bench: B;
  opened: OpenedBenchmark;
}

/** A loaded benchmark with its format's operations bound to it. */
export interface OpenedBenchmark {
  format: Format;
  root: string;
  diagnostics: readonly Diagnostic[];
  runNames: readonly string[];
  validate(): Validation;
  score(req: ScoreRequest): Promise<ScoreResult>;
  audit?: (req: AuditRequest) => Promise<ReportableResult<ReportableFinding, AnyCountRow>>;
  labelFreshness?: (benchmark: string, rows: readonly LabelRow[]) => Promise<Map<LabelRow, Freshness>>;
}

/** A format's name for one of its units, in the label summaries and the gold report. */
export interface UnitName {
  singular: string;
  plural: string;
}

/** A format as the registry lists it. */
export interface Format<Id extends string = string, B = unknown> {
  id: Id;
  label: string;
  detect(target: string): boolean;
  load(target: string, opts?: FormatLoadOptions): Promise<Loaded<Id, B>>;
  scoreContract: ScoreContract;
  scoreOptions: readonly ScoreOption[];
  orderKeys: Readonly<Record<string, OrderKeyInfo>>;
  defaultOrder: UserOrder;
  unit: UnitName;
  capabilities: readonly CapabilityName[];
  labelTargets: readonly TargetKind[];
  /** The label set the format adds (capabilities.labels.set). */
  labelSet?: FormatLabelSet;
  /** capabilities.labels.platforms: empty when its labels' platforms are not fixed. */
  labelPlatforms: readonly string[];
  /** capabilities.labels.item: 'item' when it does not say. */
  labelItem: 'step' | 'testAction' | 'item';
  /** capabilities.labels.judgeDimensions: empty when it has no judge. */
  judgeDimensions: readonly string[];
  itemView?: string;
  demoAnswer?: DemoAnswer;
  demoCatchAll: boolean;
}

/** Binds a format's typed operations to each benchmark it loads. */
export function defineFormat<Id extends string, B extends BenchBase>(spec: FormatSpec<Id, B>): Format<Id, B> {
  const caps = spec.capabilities;
  const format: Format<Id, B> = {
    id: spec.id,
    label: spec.label,
    detect: (target) => spec.detect(target),
    scoreContract: spec.scoreContract,
    scoreOptions: spec.scoreOptions ?? [],
    orderKeys: spec.orderKeys,
    defaultOrder: spec.defaultOrder,
    unit: spec.unit ?? { singular: 'item', plural: 'items' },
    capabilities: (['rerun', 'itemView', 'audit', 'labels'] as const).filter((name) => Boolean(caps[name])),
    labelTargets: caps.labels?.targets ?? [],
    labelSet: caps.labels?.set,
    labelPlatforms: caps.labels?.platforms ?? [],
    labelItem: caps.labels?.item ?? 'item',
    judgeDimensions: caps.labels?.judgeDimensions ?? [],
    itemView: caps.itemView,
    demoAnswer: spec.demoAnswer,
    demoCatchAll: spec.demoCatchAll ?? false,
    async load(target, opts = {}) {
      const bench = await spec.read(target, opts);
      const { audit, labels } = caps;
      const opened: OpenedBenchmark = {
        format,
        root: bench.root,
        diagnostics: bench.diagnostics,
        runNames: [...bench.runs.keys()],
        validate: () => spec.validate(bench),
        score: (req) => spec.score(bench, req),
        audit: audit && ((req) => audit(bench, req)),
        labelFreshness: labels && ((benchmark, rows) => labels.freshness(bench, benchmark, rows)),
      };
      return { format: spec.id, bench, opened };
    },
  };
  return format;
}
