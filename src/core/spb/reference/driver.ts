// Talks to the Python driver (driverSource.ts): one process per checkout, requests answered in order. Every wait is
// bounded: the start and each answer have a time limit, output lines a size limit; on any breach the process is
// killed and every pending request fails with the reason. Runs the checkout's code, so callers decide on trust.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { DRIVER_SOURCE } from './driverSource';

/** What the checkout sets besides the prompt: its system message and the create call's other keyword arguments. */
export interface ReferenceInfo {
  system: string;
  /** e.g. { temperature: 0, response_format: { type: 'json_object' } } */
  params: Record<string, unknown>;
  /** bench_inference.py's line of the create call */
  line: number;
  /** the bench_task.py Python imported */
  module: string;
  python: string;
}

/** The arguments bench_inference.py's rebuild_prompt_with_persona gives format_prompt. */
export interface ReferenceArgs {
  platform: string;
  username: string;
  bio: string;
  posts_text: string;
  candidate_pool: readonly string[];
  step_id: number;
  total_steps: number;
  prev_persona: string | null;
}

export interface DriverOptions {
  /** the Python executable; default python3 */
  python?: string;
  startTimeoutMs?: number;
  /** the longest wait for one answer */
  answerTimeoutMs?: number;
  maxLineBytes?: number;
}

export class ReferenceDriverError extends Error {}

interface Pending {
  resolve: (prompt: string) => void;
  reject: (e: Error) => void;
}

const MAX_STDERR = 4096;

export class ReferenceDriver {
  private buffer = '';
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failure: Error | undefined;
  private stderr = '';
  private onReady: ((info: ReferenceInfo) => void) | undefined;
  private onFatal: ((e: Error) => void) | undefined;

  private constructor(
    private readonly proc: ChildProcessWithoutNullStreams,
    private readonly opts: Required<DriverOptions>,
  ) {}

  /** Starts Python on the checkout; rejects with a sentence saying why when it cannot. */
  static start(
    checkout: string,
    options: DriverOptions = {},
  ): Promise<{ driver: ReferenceDriver; info: ReferenceInfo }> {
    const opts: Required<DriverOptions> = {
      python: options.python ?? 'python3',
      startTimeoutMs: options.startTimeoutMs ?? 15_000,
      answerTimeoutMs: options.answerTimeoutMs ?? 15_000,
      maxLineBytes: options.maxLineBytes ?? 256 * 1024 * 1024,
    };
    return new Promise((resolve, reject) => {
      let proc: ChildProcessWithoutNullStreams;
      try {
        proc = spawn(opts.python, ['-I', '-c', DRIVER_SOURCE, checkout], { cwd: checkout, stdio: 'pipe' });
      } catch (e) {
        reject(new ReferenceDriverError(`cannot start ${opts.python}: ${(e as Error).message}`));
        return;
      }
      const driver = new ReferenceDriver(proc, opts);
      driver.onReady = (info) => {
        driver.clearTimer();
        resolve({ driver, info });
      };
      driver.onFatal = (e) => {
        driver.clearTimer();
        reject(e);
      };
      driver.arm(opts.startTimeoutMs, `${opts.python} did not start the reference driver`);
      driver.wire();
    });
  }

  private wire(): void {
    this.proc.stdout.setEncoding('utf8');
    this.proc.stderr.setEncoding('utf8');
    this.proc.stdout.on('data', (chunk: string) => this.onData(chunk));
    this.proc.stderr.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-MAX_STDERR);
    });
    this.proc.on('error', (e: NodeJS.ErrnoException) => {
      const why =
        e.code === 'ENOENT'
          ? `Python was not found ("${this.opts.python}"); the benchmark's prompt is rendered by its own bench_task.py, which needs Python 3`
          : `${this.opts.python}: ${e.message}`;
      this.fail(new ReferenceDriverError(why));
    });
    this.proc.on('close', (code) => {
      const tail = this.stderr.trim().split('\n').slice(-3).join(' | ');
      this.fail(new ReferenceDriverError(`the reference driver exited (code ${code})${tail ? `: ${tail}` : ''}`));
    });
    this.proc.stdin.on('error', () => undefined);
  }

  private arm(ms: number, why: string): void {
    this.clearTimer();
    this.timer = setTimeout(() => this.fail(new ReferenceDriverError(`${why} within ${ms / 1000} s`)), ms);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      this.onLine(line);
    }
    if (this.buffer.length > this.opts.maxLineBytes) {
      this.fail(new ReferenceDriverError(`the reference driver wrote a line over ${this.opts.maxLineBytes} bytes`));
    }
  }

  private onLine(line: string): void {
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      this.fail(
        new ReferenceDriverError(`the reference driver wrote something that is not JSON: ${line.slice(0, 120)}`),
      );
      return;
    }
    if (typeof msg !== 'object' || msg === null) return;
    const m = msg as Record<string, unknown>;
    if (typeof m.fatal === 'string') {
      this.fail(new ReferenceDriverError(m.fatal));
    } else if (typeof m.ready === 'object' && m.ready !== null) {
      this.onReady?.(m.ready as ReferenceInfo);
      this.onReady = undefined;
    } else if (typeof m.id === 'number') {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (typeof m.prompt === 'string') p.resolve(m.prompt);
      else p.reject(new ReferenceDriverError(`bench_task.py: ${typeof m.error === 'string' ? m.error : 'no prompt'}`));
      if (this.pending.size === 0) this.clearTimer();
      else this.arm(this.opts.answerTimeoutMs, 'the reference driver did not answer');
    }
  }

  private fail(e: Error): void {
    if (this.failure) return;
    this.failure = e;
    this.clearTimer();
    this.onFatal?.(e);
    this.onFatal = undefined;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
    if (this.proc.exitCode === null) this.proc.kill();
  }

  /** The prompt bench_task.py renders for these arguments. */
  render(args: ReferenceArgs): Promise<string> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.arm(this.opts.answerTimeoutMs, 'the reference driver did not answer');
      this.proc.stdin.write(JSON.stringify({ id, args }) + '\n');
    });
  }

  close(): void {
    this.fail(new ReferenceDriverError('the reference driver was closed'));
  }
}
