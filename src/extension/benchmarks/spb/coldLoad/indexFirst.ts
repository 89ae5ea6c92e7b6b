// Before the extension host opens a StreamProfileBench target, a worker thread reads it and writes its whole index,
// so that the open then reads the index (a warm open, whose figures and problems are a cold read's: the index holds
// what the cold read found) and the cold read never runs on the extension host's main thread. Without an index
// folder, or when the worker fails, the open reads the files itself, as it always could: a load is never lost.
import { discover } from '../../../../core/spb/format/load';
import { ColdLoadStopped, coldLoadInWorker, type ColdLoad } from './inWorker';
import type { FiguresSummary } from '../../../../core/spb/format/figuresSummary';

/**
 * From this size a folder new to its index is read for its figures first: its whole read takes seconds (about 40 MiB
 * a second in the worker on a busy two-core machine), and the tree shows the figures meanwhile. A smaller folder's
 * figures would come a fraction of a second sooner, and its rows would offer no command for that moment.
 */
export const EARLY_FIGURES_FROM = 16 * 2 ** 20;

export interface IndexFirstOptions {
  /** Where the index of the benchmark at `root` goes; undefined: none (the setting is off). */
  cacheDir(root: string): string | undefined;
  /** The worker's bundle. */
  script: string;
  onProgress(done: number, total: number): void;
  /** The figures of a first, figures-only read, when the worker makes one (a large folder new to its index). */
  onFigures?(summary: FiguresSummary, ms: number): void;
  /** From how many bytes the worker makes that first read (EARLY_FIGURES_FROM unless a test says otherwise). */
  earlyFrom?: number;
  /** Called with the worker load once it has started, so that it can be stopped. */
  started(load: ColdLoad): void;
}

/**
 * Has a worker write the index of `target`. Resolves with a line for the log saying how, or why the open reads the
 * files itself (`failed`: the worker did not do its part); rejects only with ColdLoadStopped.
 */
export async function writeIndexInWorker(
  target: string,
  opts: IndexFirstOptions,
): Promise<{ line: string; failed: boolean }> {
  const inProcess = (why: string, failed = true) => ({
    line: `${why}: reading the files on the extension host`,
    failed,
  });
  let root: string;
  try {
    root = discover(target).root;
  } catch (err) {
    // The open reports it (the same error), with the target.
    return inProcess(`no worker (${(err as Error).message})`);
  }
  const cacheDir = opts.cacheDir(root);
  if (!cacheDir)
    return inProcess(
      'no index worker: no index folder (personaLab.index.enabled is off, or the folder cannot be written)',
      false,
    );
  const job = { target, cacheDir, earlyFrom: opts.earlyFrom ?? EARLY_FIGURES_FROM };
  const load = coldLoadInWorker(opts.script, job, opts.onProgress, opts.onFigures);
  opts.started(load);
  try {
    const { report, ms } = await load.done;
    const unwritten = report.writeError ? `; not written: ${report.writeError}` : '';
    const how = `${report.read} file(s) read in full, ${report.appended} from their old end, ${report.hits} from the index`;
    return {
      failed: Boolean(report.writeError),
      line: `the index worker wrote the index in ${ms} ms: ${how}${unwritten}`,
    };
  } catch (err) {
    if (err instanceof ColdLoadStopped) throw err;
    return inProcess(`the index worker failed (${err instanceof Error ? err.message : String(err)})`);
  }
}
