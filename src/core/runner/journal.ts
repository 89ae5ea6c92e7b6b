// The run journal: append-only JSONL (appendLog.ts), one line per finished step and per finished user. It is the
// source of truth of a run folder: the results files are rebuilt from it on resume.
import { unlinkSync, writeFileSync } from 'node:fs';
import { pyJsonLoads } from '../io/pyjson';
import { AppendLog } from './appendLog';
import { readRegularText } from '../io/safeFs';

/** Whether a journal's `platform` names one of the format's partitions (a line naming another is skipped). */
export type PartitionCheck<P extends string> = (value: unknown) => value is P;

export interface StepEntry<P extends string = string> {
  t: 'step';
  platform: P;
  user: string;
  /** position in the user's prediction_tasks (step ids are not trusted to be unique) */
  index: number;
  step: number;
  prediction: unknown[];
  reasoning: string;
  persona_summary: string;
  /** the persona the next step of this chain receives */
  persona_next: string | null;
  /** true when the step got the reference's error record */
  error: boolean;
  attempts: number;
  /** usage summed over the step's attempts as the server reported it (0 when it reported none); absent in older journals */
  prompt_tokens?: number;
  completion_tokens?: number;
  /** the attempts' latencies summed, ms */
  latency_ms?: number;
}

export interface UserEntry<P extends string = string> {
  t: 'user';
  platform: P;
  user: string;
}

export type JournalEntry<P extends string = string> = StepEntry<P> | UserEntry<P>;

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function asEntry<P extends string>(v: unknown, isPartition: PartitionCheck<P>): JournalEntry<P> | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  if (!isPartition(o.platform) || typeof o.user !== 'string') return null;
  if (o.t === 'user') return { t: 'user', platform: o.platform, user: o.user };
  if (o.t !== 'step' || !Number.isInteger(o.index) || typeof o.step !== 'number') return null;
  return {
    t: 'step',
    platform: o.platform,
    user: o.user,
    index: o.index as number,
    step: o.step,
    prediction: Array.isArray(o.prediction) ? o.prediction : [],
    reasoning: str(o.reasoning),
    persona_summary: str(o.persona_summary),
    persona_next: typeof o.persona_next === 'string' ? o.persona_next : null,
    error: o.error === true,
    attempts: typeof o.attempts === 'number' ? o.attempts : 0,
    ...(typeof o.prompt_tokens === 'number' ? { prompt_tokens: o.prompt_tokens } : {}),
    ...(typeof o.completion_tokens === 'number' ? { completion_tokens: o.completion_tokens } : {}),
    ...(typeof o.latency_ms === 'number' ? { latency_ms: o.latency_ms } : {}),
  };
}

export function stepKey(platform: string, user: string, index: number): string {
  return `${platform}\u0000${user}\u0000${index}`;
}

export function userKey(platform: string, user: string): string {
  return `${platform}\u0000${user}`;
}

export class Journal<P extends string = string> {
  readonly steps = new Map<string, StepEntry<P>>();
  /** finished users, in completion order */
  readonly users: UserEntry<P>[] = [];
  private readonly usersSeen = new Set<string>();
  /** lines that could not be read (a torn last line after a crash is cut off instead) */
  readonly skipped: number;

  private constructor(
    private readonly log: AppendLog,
    entries: JournalEntry<P>[],
    skipped: number,
  ) {
    this.skipped = skipped;
    for (const e of entries) this.remember(e);
  }

  /** Opens (creating) the journal; a last line without its newline (torn by a crash) is cut off. */
  static open<P extends string>(path: string, isPartition: PartitionCheck<P>): Journal<P> {
    const { log, values } = AppendLog.open(path);
    const entries: JournalEntry<P>[] = [];
    let skipped = 0;
    for (const v of values) {
      const entry = asEntry(v, isPartition);
      if (entry) entries.push(entry);
      else skipped++;
    }
    return new Journal(log, entries, skipped);
  }

  private remember(e: JournalEntry<P>): void {
    if (e.t === 'step') {
      this.steps.set(stepKey(e.platform, e.user, e.index), e);
    } else if (!this.usersSeen.has(userKey(e.platform, e.user))) {
      this.usersSeen.add(userKey(e.platform, e.user));
      this.users.push(e);
    }
  }

  userDone(platform: string, user: string): boolean {
    return this.usersSeen.has(userKey(platform, user));
  }

  step(platform: string, user: string, index: number): StepEntry<P> | undefined {
    return this.steps.get(stepKey(platform, user, index));
  }

  /** Appends one entry; it is remembered only once written. The fsync follows in the background. */
  append(entry: JournalEntry<P>): void {
    this.log.append(entry);
    this.remember(entry);
  }

  /** Flushes every line to disk, then closes. */
  close(): void {
    this.log.close();
  }
}

/** The finished steps of a journal, read without opening it for writing (cost estimates, experiment costs). */
export function readJournalSteps<P extends string>(
  path: string,
  isPartition: PartitionCheck<P>,
): Map<string, StepEntry<P>> {
  const steps = new Map<string, StepEntry<P>>();
  let text: string;
  try {
    text = readRegularText(path);
  } catch {
    return steps;
  }
  const end = text.lastIndexOf('\n') + 1;
  for (const line of text.slice(0, end).split('\n')) {
    if (line.trim() === '') continue;
    const parsed = pyJsonLoads(line);
    const entry = parsed.ok ? asEntry(parsed.value, isPartition) : null;
    if (entry?.t === 'step') steps.set(stepKey(entry.platform, entry.user, entry.index), entry);
  }
  return steps;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One writer per run folder. A lock left by a process that is gone (killed, crashed) is taken over.
 * Returns a release function, or throws when a live process holds the folder.
 */
export function acquireLock(path: string): () => void {
  for (let tries = 0; tries < 2; tries++) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx' });
      return () => {
        try {
          if (readRegularText(path) === String(process.pid)) unlinkSync(path);
        } catch {
          // already gone
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let holder = NaN;
      try {
        holder = Number(readRegularText(path).trim());
      } catch {
        // vanished between the two calls: try again
      }
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && pidAlive(holder)) {
        throw new Error(`the run folder is in use by process ${holder} (lock ${path})`, { cause: e });
      }
      if (holder === process.pid)
        throw new Error(`this process is already running into this folder (lock ${path})`, { cause: e });
      try {
        unlinkSync(path);
      } catch {
        // someone else took it over first; the next try tells
      }
    }
  }
  throw new Error(`could not lock ${path}`);
}
