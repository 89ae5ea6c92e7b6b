// Batch runs into a new run folder in the official results format, resumable:
//   results/<name>/inference_results_<platform>.jsonl   one line per finished user, in completion order
//   results/<name>/.journal.jsonl                       every finished step and user (source of truth; see journal.ts)
//   results/<name>/run.json                             the manifest
// Users run concurrently (bounded); the steps of a user run in order, because each hands its persona on.
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { userPostsReader } from '../format/load';
import { DEFAULT_SYSTEM_MESSAGE } from '../prompt/prompt';
import { resultLine, writeResultsFile } from '../format/resultsFile';
import { mkdirInside, resolveInside } from '../../io/safeFs';
import { isPlatform, PLATFORMS, type Benchmark, type Platform, type Run, type Step, type User } from '../types';
import {
  createOpenAITransport,
  DEFAULT_RETRY,
  publicBaseURL,
  type ChatTransport,
  type EndpointConfig,
  type RetryPolicy,
} from '../../runner/client';
import { acquireLock, Journal, type StepEntry } from '../../runner/journal';
import {
  manifestConflicts,
  newManifest,
  readManifest,
  writeManifest,
  type PersonaMode,
  type RunManifest,
  type RunStatus,
  type StartPersona,
} from '../../runner/manifest';
import { isSeededFailure, seedJournal, usersOf } from './onlyFailed';
import { runPool, safeListener } from '../../runner/pool';
import { JOURNAL_FILE, LOCK_FILE, MANIFEST_FILE, runNameProblem } from '../../runner/runFolder';
import { SPB_RUN_FILES } from './runFiles';
import { planRun, resultsPath, stepCost, stepEntry, userRecord, type Job } from './plan';
import { runStep, startPersonaFor, type StepRunRecord } from './step';
import type { PromptSource } from '../reference/source';

export interface RunOptions {
  bench: Benchmark;
  /** the run folder's name under results/ */
  name: string;
  template: string;
  systemMessage?: string;
  /** renders every request instead of `template` (the benchmark's own prompt); the caller closes it */
  source?: PromptSource;
  endpoint: EndpointConfig;
  /** replaces the HTTP client (tests, or another transport); the endpoint still goes into the manifest */
  transport?: ChatTransport;
  personaMode?: PersonaMode;
  /** default: every loaded platform */
  platforms?: readonly Platform[];
  userId?: string | null;
  /** only these users per platform (a sample); recorded in the manifest, so a resume keeps to them */
  users?: Partial<Record<Platform, readonly string[]>>;
  fromStep?: number;
  startPersona?: StartPersona;
  /** a copy of this run with only its failed requests sent again (onlyFailed.ts); the selection options are unused */
  onlyFailedOf?: Run;
  /** users in flight at once; default 4 */
  concurrency?: number;
  retry?: Partial<RetryPolicy>;
  signal?: AbortSignal;
  onProgress?: (p: RunProgress) => void;
  /** every step run in this session (for the history DB); exceptions thrown here are ignored */
  onStep?: (r: StepRunRecord) => void;
  readPosts?: (user: User, step: Step) => string;
  now?: () => Date;
}

export interface RunProgress {
  /** steps finished (including those a resume found done) */
  done: number;
  total: number;
  /** steps that got the error record */
  failed: number;
  usersDone: number;
  usersTotal: number;
  /** HTTP attempts made in this session */
  requests: number;
}

export interface RunSummary {
  status: RunStatus;
  dir: string;
  /** results files of the run (absolute) */
  files: string[];
  resumed: boolean;
  progress: RunProgress;
  manifest: RunManifest | null;
  error: string | null;
}

function failure(dir: string, error: string, progress?: RunProgress): RunSummary {
  const p = progress ?? { done: 0, total: 0, failed: 0, usersDone: 0, usersTotal: 0, requests: 0 };
  return { status: 'failed', dir, files: [], resumed: false, progress: p, manifest: null, error };
}

/** Runs (or resumes) a run folder. Never throws: problems come back as status 'failed' with a message. */
export async function runBenchmark(opts: RunOptions): Promise<RunSummary> {
  const { bench } = opts;
  const dir = join(bench.root, 'results', String(opts.name));
  const nameProblem = runNameProblem(opts.name);
  if (nameProblem) return failure(dir, nameProblem);
  const from = opts.onlyFailedOf;
  const platforms = (from ? PLATFORMS.filter((p) => from.results.has(p)) : (opts.platforms ?? PLATFORMS)).filter((p) =>
    bench.users.has(p),
  );
  if (platforms.length === 0) return failure(dir, 'no tasks loaded for the selected platform(s)');
  const userId = from ? null : (opts.userId ?? null);
  const fromStep = !from && Number.isFinite(opts.fromStep) ? Math.max(1, Math.floor(opts.fromStep ?? 1)) : 1;
  const startPersona: StartPersona = (!from && opts.startPersona) || { kind: 'none' };
  if (startPersona.kind === 'run' && !bench.runs.has(startPersona.run)) {
    return failure(dir, `base run "${startPersona.run}" is not loaded`);
  }
  const users = from
    ? usersOf(from, platforms)
    : opts.users
      ? Object.fromEntries(platforms.map((p) => [p, [...(opts.users?.[p] ?? [])]]))
      : undefined;
  const jobs = planRun(bench, platforms, userId, fromStep, users);
  if (jobs.length === 0) {
    return failure(dir, userId !== null ? `no user ${userId} with steps from ${fromStep} on` : 'nothing to run');
  }
  const personaMode: PersonaMode = opts.personaMode === 'none' ? 'none' : 'full';
  const source = opts.source?.kind === 'reference' ? opts.source : undefined;
  const systemMessage =
    source?.systemMessage ?? (typeof opts.systemMessage === 'string' ? opts.systemMessage : DEFAULT_SYSTEM_MESSAGE);
  const now = opts.now ?? (() => new Date());
  const wanted = newManifest(
    {
      name: opts.name,
      template: source ? '' : String(opts.template ?? ''),
      ...(source ? { reference: { checkout: source.checkout ?? '', hash: source.hash, id: source.id } } : {}),
      systemMessage,
      baseURL: publicBaseURL(opts.endpoint.baseURL),
      model: opts.endpoint.model,
      temperature: opts.endpoint.temperature ?? 0,
      maxTokens: opts.endpoint.maxTokens ?? null,
      personaMode,
      selection: {
        platforms: [...platforms],
        userId,
        fromStep,
        startPersona,
        ...(users ? { users } : {}),
        ...(from ? { onlyFailedOf: from.name } : {}),
      },
    },
    SPB_RUN_FILES,
    now(),
  );

  let release: (() => void) | null = null;
  let journal: Journal<Platform> | null = null;
  const fds = new Map<Platform, number>();
  const progress: RunProgress = { done: 0, total: 0, failed: 0, usersDone: 0, usersTotal: jobs.length, requests: 0 };
  let manifest = wanted;
  let resumed = false;
  const manifestPath = join(dir, MANIFEST_FILE);
  const files = [...new Set(jobs.map((j) => j.user.platform))].map((p) => resultsPath(dir, p));
  try {
    const existing = existsSync(dir) ? readManifest(manifestPath, SPB_RUN_FILES) : null;
    if (existsSync(dir) && !existing && readdirSync(dir).some((f) => f.endsWith('.jsonl'))) {
      return failure(dir, `${dir} holds results that this tool did not start; choose another run name`);
    }
    if (existing) {
      const conflicts = manifestConflicts(existing, wanted);
      if (conflicts.length > 0) {
        return failure(dir, `${dir} was started with a different ${conflicts.join(', ')}; choose another run name`);
      }
    }
    mkdirInside(bench.root, dir);
    release = acquireLock(join(dir, LOCK_FILE));
    // Appended to in place: a link planted on it must not carry the journal out of the folder.
    journal = Journal.open(resolveInside(bench.root, join(dir, JOURNAL_FILE)), isPlatform);
    if (from && !existing) seedJournal(journal, jobs, from);
    if (existing) {
      resumed = true;
      manifest = {
        ...existing,
        sessions: existing.sessions + 1,
        status: 'running',
        updatedAt: now().toISOString(),
        finishedAt: null,
        error: null,
        endpoint: { ...existing.endpoint, baseURL: wanted.endpoint.baseURL },
      };
    }
    const previousRequests = existing?.counts.requests ?? 0;
    const j = journal;
    for (const job of jobs) {
      for (const step of job.steps) {
        const e = j.step(job.user.platform, job.user.userId, step.index);
        // A copy (onlyFailedOf) runs no step that FROM lacks, and sends its failed ones again.
        if (!from || e) progress.total++;
        if (!e || (from && isSeededFailure(e))) continue;
        progress.done++;
        if (e.error) progress.failed++;
      }
    }
    const byKey = new Map(jobs.map((job) => [`${job.user.platform}\u0000${job.user.userId}`, job]));
    const syncManifest = (status: RunStatus, error: string | null = null) => {
      manifest = {
        ...manifest,
        status,
        error,
        updatedAt: now().toISOString(),
        finishedAt: status === 'finished' ? now().toISOString() : null,
        counts: {
          users: jobs.length,
          steps: progress.total,
          done: progress.done,
          failed: progress.failed,
          requests: previousRequests + progress.requests,
        },
      };
      writeManifest(manifestPath, manifest);
    };
    syncManifest('running');

    // Rebuild the results files from the journal: whatever a crash left in them is replaced.
    for (const platform of new Set(jobs.map((job) => job.user.platform))) {
      const done = j.users
        .filter((u) => u.platform === platform)
        .map((u) => byKey.get(`${u.platform}\u0000${u.user}`))
        .filter((job): job is Job => job !== undefined)
        .map((job) => userRecord(job, j));
      await writeResultsFile(resultsPath(dir, platform), done, bench.root);
      fds.set(platform, openSync(resultsPath(dir, platform), 'a'));
    }
    progress.usersDone = jobs.filter((job) => j.userDone(job.user.platform, job.user.userId)).length;
    const onProgress = safeListener(opts.onProgress);
    const report = () => onProgress({ ...progress });
    report();

    const transport = opts.transport ?? createOpenAITransport(opts.endpoint);
    const retry: RetryPolicy = { ...DEFAULT_RETRY, ...(opts.retry ?? {}) };
    const onStep = safeListener(opts.onStep);

    const finishUser = (job: Job) => {
      const fd = fds.get(job.user.platform);
      if (fd === undefined) return;
      // No fsync here: the journal is the source of truth, and a resume rebuilds this file from it.
      writeSync(fd, resultLine(userRecord(job, j)) + '\n');
      j.append({ t: 'user', platform: job.user.platform, user: job.user.userId });
      progress.usersDone++;
    };

    const runJob = async (job: Job, signal: AbortSignal) => {
      const { user } = job;
      const readPosts = opts.readPosts ?? userPostsReader();
      let persona = personaMode === 'full' ? startPersonaFor(bench, startPersona, user, job.steps[0].stepId) : null;
      for (const step of job.steps) {
        const done = j.step(user.platform, user.userId, step.index);
        if (from && !isSeededFailure(done)) {
          if (done && personaMode === 'full') persona = done.persona_next;
          continue;
        }
        if (done && !from) {
          persona = personaMode === 'full' ? done.persona_next : null;
          continue;
        }
        if (signal.aborted) return;
        const rec = await runStep({
          user,
          step,
          personaIn: persona,
          template: wanted.template.text,
          systemMessage,
          source,
          personaMode,
          transport,
          retry,
          signal,
          readPosts,
          now,
        });
        if (!rec) return;
        const entry: StepEntry<Platform> = {
          ...stepEntry(user, step, rec, rec.error !== null, rec.attempts.length),
          ...stepCost(rec),
        };
        j.append(entry);
        progress.requests += rec.attempts.length;
        progress.done++;
        if (rec.error !== null) progress.failed++;
        onStep(rec);
        report();
        persona = rec.personaNext;
      }
      if (!j.userDone(user.platform, user.userId)) {
        finishUser(job);
        report();
      }
    };

    const queue = jobs.filter((job) => !j.userDone(job.user.platform, job.user.userId));
    const { fatal } = await runPool(queue, runJob, opts);

    const status: RunStatus = fatal !== null ? 'failed' : progress.usersDone === jobs.length ? 'finished' : 'cancelled';
    syncManifest(status, fatal);
    return { status, dir, files, resumed, progress: { ...progress }, manifest, error: fatal };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    try {
      if (journal)
        writeManifest(manifestPath, { ...manifest, status: 'failed', error: message, updatedAt: now().toISOString() });
    } catch {
      // the journal still holds every finished step
    }
    return { ...failure(dir, message, progress), resumed, files, manifest };
  } finally {
    for (const fd of fds.values()) {
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    journal?.close();
    release?.();
  }
}
