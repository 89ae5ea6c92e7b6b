// One long-lived Python process speaking JSON lines: our own driver code, run with the user's Python against the
// user's checkout of a benchmark's repository. Requests are answered in order. Every wait is bounded: the start and
// each answer have a time limit, output lines a size limit; on any breach the process is killed and every pending
// request fails with the reason. It runs the checkout's code, so callers decide on trust.
//
// Protocol: first {"ready": {...}} or {"fatal": "..."}; then per request line {"id", ...payload} one answer
// {"id", ...} or {"id", "error"}. The driver writes ASCII-only JSON on a duplicate of its original stdout, and sends
// anything the checkout prints to stderr.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { childProcess } from './builtins';

export interface DriverOptions {
  /** the Python executable; default python3 */
  python?: string;
  startTimeoutMs?: number;
  /** the longest wait for one answer */
  answerTimeoutMs?: number;
  maxLineBytes?: number;
}

export class DriverError extends Error {}

interface Pending {
  resolve: (answer: Record<string, unknown>) => void;
  reject: (e: Error) => void;
}

const MAX_STDERR = 4096;

export class PythonDriver {
  private buffer = '';
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failure: Error | undefined;
  private stderr = '';
  private onReady: ((info: Record<string, unknown>) => void) | undefined;
  private onFatal: ((e: Error) => void) | undefined;

  private constructor(
    private readonly proc: ChildProcessWithoutNullStreams,
    private readonly opts: Required<DriverOptions>,
    /** what the checkout's code is, for messages ("bench_task.py") */
    private readonly what: string,
  ) {}

  /**
   * Starts `python -I -c source checkout`; resolves with the driver's ready object, or rejects with a sentence saying
   * why it cannot. `missingPython` says what needs Python, for the message when it is not found.
   */
  static start(
    source: string,
    checkout: string,
    what: string,
    options: DriverOptions = {},
  ): Promise<{ driver: PythonDriver; ready: Record<string, unknown> }> {
    const opts: Required<DriverOptions> = {
      python: options.python ?? 'python3',
      startTimeoutMs: options.startTimeoutMs ?? 15_000,
      answerTimeoutMs: options.answerTimeoutMs ?? 15_000,
      maxLineBytes: options.maxLineBytes ?? 256 * 1024 * 1024,
    };
    return new Promise((resolve, reject) => {
      let proc: ChildProcessWithoutNullStreams;
      try {
        proc = childProcess().spawn(opts.python, ['-I', '-c', source, checkout], { cwd: checkout, stdio: 'pipe' });
      } catch (e) {
        reject(new DriverError(`cannot start ${opts.python}: ${(e as Error).message}`));
        return;
      }
      const driver = new PythonDriver(proc, opts, what);
      driver.onReady = (ready) => {
        driver.clearTimer();
        resolve({ driver, ready });
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
          ? `Python was not found ("${this.opts.python}"); the benchmark's prompt is rendered by its own ${this.what}, which needs Python 3`
          : `${this.opts.python}: ${e.message}`;
      this.fail(new DriverError(why));
    });
    this.proc.on('close', (code) => {
      const tail = this.stderr.trim().split('\n').slice(-3).join(' | ');
      this.fail(new DriverError(`the reference driver exited (code ${code})${tail ? `: ${tail}` : ''}`));
    });
    this.proc.stdin.on('error', () => undefined);
  }

  private arm(ms: number, why: string): void {
    this.clearTimer();
    this.timer = setTimeout(() => this.fail(new DriverError(`${why} within ${ms / 1000} s`)), ms);
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
      this.fail(new DriverError(`the reference driver wrote a line over ${this.opts.maxLineBytes} bytes`));
    }
  }

  private onLine(line: string): void {
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      this.fail(new DriverError(`the reference driver wrote something that is not JSON: ${line.slice(0, 120)}`));
      return;
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return;
    const m = msg as Record<string, unknown>;
    if (typeof m.fatal === 'string') {
      this.fail(new DriverError(m.fatal));
    } else if (typeof m.ready === 'object' && m.ready !== null && !Array.isArray(m.ready)) {
      this.onReady?.(m.ready as Record<string, unknown>);
      this.onReady = undefined;
    } else if (typeof m.id === 'number') {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (typeof m.error === 'string') p.reject(new DriverError(`${this.what}: ${m.error}`));
      else p.resolve(m);
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

  /** Sends one request; resolves with the driver's answer object (its `error` rejects). */
  call(payload: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.arm(this.opts.answerTimeoutMs, 'the reference driver did not answer');
      this.proc.stdin.write(JSON.stringify({ ...payload, id }) + '\n');
    });
  }

  close(): void {
    this.fail(new DriverError('the reference driver was closed'));
  }
}
