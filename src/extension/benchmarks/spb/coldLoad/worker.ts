// The cold-load worker (a worker_threads entry, bundled as dist/spbColdLoad.js): loads a StreamProfileBench folder
// with its index, writing every index file before it answers, so that the extension host then opens warm from that
// index, off its main thread for the cold read. It imports the core only: never vscode, which a worker cannot load.
import { parentPort, workerData } from 'node:worker_threads';
import { loadBenchmark } from '../../../../core/spb/format/load';
import type { CacheReport } from '../../../../core/spb/format/indexed';
import { isColdLoadJob, type FromWorker } from './protocol';

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('spbColdLoad.js runs as a worker thread only');
  const post = (m: FromWorker) => port.postMessage(m);
  if (!isColdLoadJob(workerData)) {
    post({ type: 'failed', reason: 'the worker was started without a target and an index folder' });
    return;
  }
  const { target, cacheDir } = workerData;
  const started = Date.now();
  const report: CacheReport = { hits: 0, appended: 0, read: 0 };
  // One message per hundredth of the bytes: the progress bar shows whole percents.
  let shown = -1;
  const onProgress = (done: number, total: number) => {
    const pct = total ? Math.floor((100 * done) / total) : 100;
    if (pct === shown) return;
    shown = pct;
    post({ type: 'progress', done, total });
  };
  try {
    await loadBenchmark(target, { onProgress, cacheDir, cacheReport: report, figuresOnly: true });
  } catch (err) {
    post({ type: 'failed', reason: err instanceof Error ? err.message : String(err) });
    return;
  }
  const { hits, appended, read, writeError } = report;
  post({ type: 'done', report: { hits, appended, read, writeError }, ms: Date.now() - started });
}

void main();
