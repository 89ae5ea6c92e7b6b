// What the cold-load worker (worker.ts) and the extension host (inWorker.ts) say to each other: the worker is
// given a target and an index folder, reports bytes read as it goes, on a large folder its index has never seen first
// posts the figures a cold `score` computes, and ends with how the files were read or why it could not load. Both ends
// check what they receive with these guards.
import { count, message, messages, object, optional, str, type Infer } from '../../../../core/guards';
import { isFiguresSummary } from '../../../../core/spb/format/figuresSummary';

/**
 * What the worker is started with (its workerData). `earlyFrom`: from how many bytes a folder new to its index is
 * read for its figures first (a small folder's whole read takes well under a second: it is read once).
 */
export const isColdLoadJob = object({ target: str, cacheDir: str, earlyFrom: count });
export type ColdLoadJob = Infer<typeof isColdLoadJob>;

const cacheReport = object({ hits: count, appended: count, read: count, writeError: optional(str) });

export const isFromWorker = messages(
  message('progress', { done: count, total: count }),
  /** The figures of every run, before the index is written; `ms` since the worker started. */
  message('figures', { summary: isFiguresSummary, ms: count }),
  /** The index is written: `report` says how its files were read; `ms` is the load and the writes, in the worker. */
  message('done', { report: cacheReport, ms: count }),
  message('failed', { reason: str }),
);
export type FromWorker = Infer<typeof isFromWorker>;
