// OmniBehavior runs into a new run folder, resumable, on the same parts as StreamProfileBench's runner:
//   results/<name>/predictions.jsonl   one line per finished test action, the layout the scorer reads; rewritten
//                                      in test_actions.jsonl's order when the run ends
//   results/<name>/.journal.jsonl      every finished test action (the source of truth, see runner/appendLog.ts)
//   results/<name>/run.json            the manifest (run/manifest.ts)
// Test actions run concurrently (bounded); the questions of one action in the builder's order.
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { mkdirInside, readRegularText, resolveInside } from '../../io/safeFs';
import { pyJsonDumps, pyJsonLoads } from '../../io/pyjson';
import { AppendLog } from '../../runner/appendLog';
import {
  createOpenAITransport,
  DEFAULT_RETRY,
  publicBaseURL,
  type ChatTransport,
  type EndpointConfig,
  type RetryPolicy,
} from '../../runner/client';
import { acquireLock } from '../../runner/journal';
import { runPool, safeListener } from '../../runner/pool';
import { writeManifest, type RunStatus } from '../../runner/manifest';
import { JOURNAL_FILE, LOCK_FILE, MANIFEST_FILE, runNameProblem } from '../../runner/runFolder';
import { isRecord } from '../../guards';
import { predictionKey, type OmniBenchmark, type TestAction } from '../types';
import { runAction, type ActionCost, type ActionRun, type PredictionLine } from './action';
import {
  OMNI_RUN_FORMAT,
  omniResumeProblem,
  readOmniManifest,
  type OmniRunManifest,
  type OmniRunSelection,
} from './manifest';
import { DEFAULT_MAX_HISTORY_TOKENS, type OmniPromptSource } from './source';

export const PREDICTIONS_FILE = 'predictions.jsonl';

export interface OmniRunOptions {
  bench: OmniBenchmark;
  name: string;
  source: OmniPromptSource;
  endpoint: EndpointConfig;
  /** undefined: the source's caller decides (the authors' 0.1) */
  temperature?: number;
  transport?: ChatTransport;
  selection?: Partial<OmniRunSelection>;
  maxHistoryTokens?: number;
  /** test actions in flight at once; default 4 */
  concurrency?: number;
  retry?: Partial<RetryPolicy>;
  signal?: AbortSignal;
  onProgress?: (p: OmniRunProgress) => void;
  /** each test action run in this session; exceptions thrown here are ignored */
  onAction?: (r: ActionRun) => void;
  now?: () => Date;
}

export interface OmniRunProgress {
  /** test actions finished, including those a resume found done */
  done: number;
  total: number;
  /** test actions with at least one question whose attempts all failed */
  failed: number;
  /** HTTP attempts made in this session */
  requests: number;
}

export interface OmniRunSummary {
  status: RunStatus;
  dir: string;
  file: string;
  resumed: boolean;
  progress: OmniRunProgress;
  manifest: OmniRunManifest | null;
  error: string | null;
}

export interface ActionEntry {
  t: 'action';
  line: PredictionLine;
  cost: ActionCost;
}

const hasFailure = (line: PredictionLine) => line.questions.some((q) => q.predicted_value === null);

/** The test actions a selection covers, in test_actions.jsonl's order. */
export function selectedActions(bench: OmniBenchmark, sel: Partial<OmniRunSelection> = {}): TestAction[] {
  const out: TestAction[] = [];
  for (const user of bench.users.values()) {
    if (sel.userId != null && user.userId !== sel.userId) continue;
    for (const a of user.testActions) if (sel.index == null || a.index === sel.index) out.push(a);
  }
  return out;
}

function readEntries(values: unknown[]): Map<string, ActionEntry> {
  const done = new Map<string, ActionEntry>();
  for (const v of values) {
    if (!isRecord(v) || v.t !== 'action' || !isRecord(v.line) || !isRecord(v.cost)) continue;
    const line = v.line as unknown as PredictionLine;
    if (typeof line.user_id !== 'string' || !Number.isInteger(line.index) || !Array.isArray(line.questions)) continue;
    done.set(predictionKey(line.user_id, line.index), v as unknown as ActionEntry);
  }
  return done;
}

/** The test actions a run folder's journal holds as finished (for estimates and the views); never throws. */
export function readOmniJournal(dir: string): Map<string, ActionEntry> {
  let text: string;
  try {
    text = readRegularText(join(dir, JOURNAL_FILE));
  } catch {
    return new Map();
  }
  const values: unknown[] = [];
  for (const line of text.slice(0, text.lastIndexOf('\n') + 1).split('\n')) {
    if (line.trim() === '') continue;
    const parsed = pyJsonLoads(line);
    if (parsed.ok) values.push(parsed.value);
  }
  return readEntries(values);
}

function failure(dir: string, error: string): OmniRunSummary {
  const progress = { done: 0, total: 0, failed: 0, requests: 0 };
  return { status: 'failed', dir, file: join(dir, PREDICTIONS_FILE), resumed: false, progress, manifest: null, error };
}

/** Runs (or resumes) an OmniBehavior run folder. Never throws: problems come back as status 'failed'. */
export async function runOmni(opts: OmniRunOptions): Promise<OmniRunSummary> {
  const { bench, source } = opts;
  const dir = join(bench.root, 'results', String(opts.name));
  const nameProblem = runNameProblem(opts.name);
  if (nameProblem) return failure(dir, nameProblem);
  const selection: OmniRunSelection = { userId: opts.selection?.userId ?? null, index: opts.selection?.index ?? null };
  const actions = selectedActions(bench, selection);
  if (actions.length === 0) return failure(dir, 'no test action matches the selection');
  const now = opts.now ?? (() => new Date());
  const at = now().toISOString();
  const maxHistoryTokens = opts.maxHistoryTokens ?? DEFAULT_MAX_HISTORY_TOKENS;
  const wanted: OmniRunManifest = {
    format: OMNI_RUN_FORMAT,
    version: 1,
    name: opts.name,
    createdAt: at,
    updatedAt: at,
    finishedAt: null,
    status: 'running',
    sessions: 1,
    prompt: {
      kind: source.kind,
      name: source.name,
      id: source.id,
      hash: source.hash,
      checkout: source.checkout ?? null,
    },
    endpoint: {
      baseURL: publicBaseURL(opts.endpoint.baseURL),
      model: opts.endpoint.model,
      temperature: opts.temperature ?? null,
    },
    maxHistoryTokens,
    selection,
    counts: { actions: actions.length, done: 0, failed: 0, requests: 0 },
    error: null,
  };
  const manifestPath = join(dir, MANIFEST_FILE);
  const file = join(dir, PREDICTIONS_FILE);
  const progress: OmniRunProgress = { done: 0, total: actions.length, failed: 0, requests: 0 };
  let manifest = wanted;
  let release: (() => void) | null = null;
  let log: AppendLog | null = null;
  let fd: number | null = null;
  let resumed = false;
  try {
    const problem = omniResumeProblem(dir, wanted);
    if (problem) return failure(dir, problem);
    const existing = existsSync(dir) ? readOmniManifest(manifestPath) : null;
    if (existing) {
      resumed = true;
      manifest = { ...existing, sessions: existing.sessions + 1, status: 'running', finishedAt: null, error: null };
      manifest.endpoint = { ...existing.endpoint, baseURL: wanted.endpoint.baseURL };
    }
    mkdirInside(bench.root, dir);
    release = acquireLock(join(dir, LOCK_FILE));
    const opened = AppendLog.open(resolveInside(bench.root, join(dir, JOURNAL_FILE)));
    log = opened.log;
    const done = readEntries(opened.values);
    const previousRequests = existing?.counts.requests ?? 0;
    for (const a of actions) {
      const e = done.get(predictionKey(a.userId, a.index));
      if (!e) continue;
      progress.done++;
      if (hasFailure(e.line)) progress.failed++;
    }
    const sync = (status: RunStatus, error: string | null = null) => {
      const t = now().toISOString();
      manifest = {
        ...manifest,
        status,
        error,
        updatedAt: t,
        finishedAt: status === 'finished' ? t : null,
        counts: {
          actions: actions.length,
          done: progress.done,
          failed: progress.failed,
          requests: previousRequests + progress.requests,
        },
      };
      writeManifest(manifestPath, manifest);
    };
    sync('running');
    // The predictions file is rebuilt from the journal: whatever a crash left in it is replaced.
    const ordered = () =>
      actions.map((a) => done.get(predictionKey(a.userId, a.index))).filter((e): e is ActionEntry => e !== undefined);
    const writeAll = () => {
      const out = openSync(resolveInside(bench.root, file), 'w');
      try {
        for (const e of ordered()) writeSync(out, pyJsonDumps(e.line) + '\n');
      } finally {
        closeSync(out);
      }
    };
    writeAll();
    fd = openSync(file, 'a');
    const onProgress = safeListener(opts.onProgress);
    const report = () => onProgress({ ...progress });
    report();
    const transport = opts.transport ?? createOpenAITransport(opts.endpoint);
    const retry: RetryPolicy = { ...DEFAULT_RETRY, ...(opts.retry ?? {}) };
    const onAction = safeListener(opts.onAction);
    const queue = actions.filter((a) => !done.has(predictionKey(a.userId, a.index)));
    const { fatal } = await runPool(
      queue,
      async (a, signal) => {
        const user = bench.users.get(a.userId);
        if (!user) return;
        const r = await runAction(user.file, a.userId, a.index, {
          source,
          transport,
          model: opts.endpoint.model,
          temperature: opts.temperature,
          retry,
          requestOptions: { maxHistoryTokens },
          signal,
        });
        progress.requests += r.cost.requests;
        if (r.aborted) return;
        const entry: ActionEntry = { t: 'action', line: r.line, cost: r.cost };
        log?.append(entry);
        done.set(predictionKey(a.userId, a.index), entry);
        if (fd !== null) writeSync(fd, pyJsonDumps(r.line) + '\n');
        progress.done++;
        if (hasFailure(r.line)) progress.failed++;
        onAction(r);
        report();
      },
      opts,
    );
    const status: RunStatus = fatal !== null ? 'failed' : progress.done === actions.length ? 'finished' : 'cancelled';
    closeSync(fd);
    fd = null;
    if (status === 'finished') writeAll();
    sync(status, fatal);
    return { status, dir, file, resumed, progress: { ...progress }, manifest, error: fatal };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    try {
      if (log) writeManifest(manifestPath, { ...manifest, status: 'failed', error: message });
    } catch {
      // the journal still holds every finished action
    }
    return { ...failure(dir, message), resumed, manifest };
  } finally {
    if (fd !== null) closeSync(fd);
    log?.close();
    release?.();
  }
}
