// The cold-load worker (a worker_threads entry, bundled as dist/spbColdLoad.js): loads a StreamProfileBench folder
// with its index, writing every index file before it answers (on a large folder new to the index, after posting the
// figures of a first, figures-only read), so that the extension host then opens warm from that index, off its main
// thread for the cold read. It imports the core only: never vscode, which a worker cannot load.
import { parentPort, workerData } from 'node:worker_threads';
import { discover, firstReadBytes, loadBenchmark } from '../../../../core/spb/format/load';
import { summarizeFigures } from '../../../../core/spb/format/figuresSummary';
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
  const { target, cacheDir, earlyFrom } = workerData;
  const started = Date.now();
  const report: CacheReport = { hits: 0, appended: 0, read: 0 };
  // One message per hundredth of the bytes: the progress bar shows whole percents.
  let shown = -1;
  const progress = (pass: number, passes: number) => (done: number, total: number) => {
    const [d, t] = [pass * total + done, passes * total];
    const pct = t ? Math.floor((100 * d) / t) : 100;
    if (pct === shown) return;
    shown = pct;
    post({ type: 'progress', done: d, total: t });
  };
  try {
    // A large folder its index has never seen is read in full, which takes several times a cold `score`: read it as
    // that job does first (users as tables, rows folded as they are read), so the tree shows its figures sooner,
    // then again for the index (listing the folder again: files may have changed meanwhile). An index that knows the
    // folder makes the read mostly pages: it is read once.
    const discovered = discover(target);
    const twice = (firstReadBytes(discovered, () => cacheDir) ?? -1) >= earlyFrom;
    if (twice) {
      const figures = await loadBenchmark(target, { onProgress: progress(0, 2), figuresOnly: true, discovered });
      post({ type: 'figures', summary: summarizeFigures(figures), ms: Date.now() - started });
    }
    const onProgress = twice ? progress(1, 2) : progress(0, 1);
    await loadBenchmark(target, { onProgress, cacheDir, cacheReport: report, figuresOnly: true });
  } catch (err) {
    post({ type: 'failed', reason: err instanceof Error ? err.message : String(err) });
    return;
  }
  const { hits, appended, read, writeError } = report;
  post({ type: 'done', report: { hits, appended, read, writeError }, ms: Date.now() - started });
}

void main();
