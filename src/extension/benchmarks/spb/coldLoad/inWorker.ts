// The extension host's end of the cold-load worker (worker.ts): starts it on a target and an index folder, feeds its
// progress and its early figures to the caller, and settles once: with how the files were read, or with why there is
// no index (the worker failed, threw, exited, or could not start). stop() terminates the worker at once.
import { Worker } from 'node:worker_threads';
import { isFromWorker, type ColdLoadJob } from './protocol';
import type { CacheReport } from '../../../../core/spb/format/indexed';
import type { FiguresSummary } from '../../../../core/spb/format/figuresSummary';

/** The worker's bundle, beside the extension's own in dist/ (scripts/build.mjs). */
export const COLD_LOAD_SCRIPT = 'spbColdLoad.js';

/** Why a worker load ended early: it was stopped (a newer open, the extension deactivated). */
export class ColdLoadStopped extends Error {}

export interface ColdLoad {
  /** Resolves when the worker has written the index; rejects with ColdLoadStopped or the worker's failure. */
  readonly done: Promise<{ report: CacheReport; ms: number }>;
  /** Resolves with the thread's exit code once it has ended (1 when it was terminated, -1 when it never started). */
  readonly ended: Promise<number>;
  stop(why: string): void;
}

export function coldLoadInWorker(
  script: string,
  job: ColdLoadJob,
  onProgress: (done: number, total: number) => void,
  onFigures: (summary: FiguresSummary, ms: number) => void = () => {},
): ColdLoad {
  let worker: Worker;
  try {
    worker = new Worker(script, { workerData: job });
  } catch (err) {
    const done = Promise.reject(err instanceof Error ? err : new Error(String(err)));
    return { done, ended: Promise.resolve(-1), stop: () => {} };
  }
  const ended = new Promise<number>((resolve) => worker.once('exit', resolve));
  let stop = (_why: string) => {};
  const done = new Promise<{ report: CacheReport; ms: number }>((resolve, reject) => {
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      settle();
      void worker.terminate();
    };
    worker.on('message', (m: unknown) => {
      if (!isFromWorker(m)) return finish(() => reject(new Error('the worker sent a message of no known shape')));
      if (m.type === 'progress') onProgress(m.done, m.total);
      else if (m.type === 'figures') onFigures(m.summary, m.ms);
      else if (m.type === 'done') finish(() => resolve({ report: m.report, ms: m.ms }));
      else finish(() => reject(new Error(m.reason)));
    });
    worker.on('error', (err) => finish(() => reject(err)));
    worker.on('exit', (code) => finish(() => reject(new Error(`the worker exited (code ${code}) before it answered`))));
    stop = (why) => finish(() => reject(new ColdLoadStopped(why)));
  });
  return { done, ended, stop: (why) => stop(why) };
}
