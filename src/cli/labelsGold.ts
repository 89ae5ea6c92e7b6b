// `persona-lab labels gold` and the gold part of `labels summary`: the adjudicators' decisions read from a label
// database or server, and the gold set report the core computes from them and the annotators' labels.
import { existsSync } from 'node:fs';
import { formatDiagnostic } from '../core/io/diagnostics';
import type { Adjudication } from '../core/labels/gold';
import { formatGoldReport, goldReport, goldReportJson } from '../core/labels/goldReport';
import { readLabelFile } from '../core/labels/exportImport';
import type { GoldRow } from '../core/labels/goldRows';
import { GoldStore, type GoldImport } from '../core/labels/goldStore';
import type { LabelRow, StepRef } from '../core/labels/model';
import { ServerGoldStore } from '../core/labels/server/goldStore';
import { unitItem } from '../core/labels/server/projectItems';
import { LabelQueues } from '../core/labels/server/queue';
import { ServerLabelStore } from '../core/labels/server/store';
import { labelNames } from '../core/labels/taxonomy';
import { benchmarkId } from '../core/labels/model';
import { isServerUrl } from '../core/storage/postgres';
import { cliLabelSet, cliUnitNamer, type CliIo, type LabelsCliOptions } from './labelsIo';

export interface GoldInput {
  adjudications: Adjudication[];
  /** Keeps a unit (a project's items); undefined: every unit. */
  keep?: (ref: StepRef) => boolean;
}

class GoldUsage extends Error {}

/** The live decisions of a label database (those of `folder`'s benchmark) or server, or null after saying why. */
export async function readGold(db: string, io: CliIo, folder?: string, project?: string): Promise<GoldInput | null> {
  if (!isServerUrl(db)) {
    if (project !== undefined)
      throw new GoldUsage('--project needs a label server URL: projects live on a team server');
    if (folder !== undefined && !existsSync(db)) return { adjudications: [] };
    const opened = (() => {
      try {
        return GoldStore.open(db, { readOnly: true });
      } catch (err) {
        io.err(`persona-lab: ${(err as Error).message}`);
        return null;
      }
    })();
    if (!opened) return null;
    try {
      return {
        adjudications: opened.adjudications(folder === undefined ? {} : { benchmark: benchmarkId(folder) }),
      };
    } finally {
      opened.close();
    }
  }
  let server: ServerLabelStore | undefined;
  try {
    server = await ServerLabelStore.open(db);
    const adjudications = await new ServerGoldStore(server).adjudications();
    if (project === undefined) return { adjudications };
    const queues = new LabelQueues(server);
    const p = await queues.get(project);
    if (!p) {
      const names = (await queues.list()).map((x) => x.name);
      io.err(`persona-lab: --project ${project}: no such project (${names.length ? names.join(', ') : 'none yet'})`);
      return null;
    }
    const items = new Set(await queues.items(p));
    return { adjudications, keep: (ref) => ref.benchmark === p.benchmark && items.has(unitItem(ref)) };
  } catch (err) {
    io.err(`persona-lab: ${(err as Error).message}`);
    return null;
  } finally {
    await server?.close();
  }
}

/** `labels gold <db>`: the gold set and each annotator against it; `readRows` reads the annotators' labels. */
export async function goldCommand(
  db: string,
  opts: LabelsCliOptions,
  io: CliIo,
  folder: string | undefined,
  readRows: (db: string, io: CliIo, folder?: string) => Promise<LabelRow[] | null>,
): Promise<number> {
  let gold: GoldInput | null;
  try {
    gold = await readGold(db, io, folder, opts.project);
  } catch (err) {
    if (err instanceof GoldUsage) {
      io.err(`persona-lab: ${err.message}`);
      return 2;
    }
    throw err;
  }
  if (!gold) return 1;
  const rows = await readRows(db, io, folder);
  if (!rows) return 1;
  const report = goldReport(rows, gold.adjudications, { keep: gold.keep, unitOf: cliUnitNamer(folder) });
  if (opts.json) {
    io.out(JSON.stringify(goldReportJson(report)));
    return 0;
  }
  const set = cliLabelSet(opts);
  for (const d of set.diagnostics) io.err(formatDiagnostic(d));
  io.out(formatGoldReport(report, labelNames(set)));
  return 0;
}

/** Every decision with its undos (the trail an export carries), of `folder`'s benchmark when given; null after why. */
export async function readGoldTrail(db: string, io: CliIo, folder?: string): Promise<GoldRow[] | null> {
  try {
    if (isServerUrl(db)) {
      const server = await ServerLabelStore.open(db);
      try {
        return await new ServerGoldStore(server).list({}, true);
      } finally {
        await server.close();
      }
    }
    if (folder !== undefined && !existsSync(db)) return [];
    const store = GoldStore.open(db, { readOnly: true });
    try {
      return store.list(folder === undefined ? {} : { benchmark: benchmarkId(folder) }, true);
    } finally {
      store.close();
    }
  } catch (err) {
    io.err(`persona-lab: ${(err as Error).message}`);
    return null;
  }
}

/** Merges the gold lines of `file` (read again: the labels' import has said its problems) into `db`; exit status. */
export async function importGold(db: string, file: string, opts: LabelsCliOptions, io: CliIo): Promise<number> {
  const gold = (readLabelFile(file, file, opts.format === 'csv' ? 'csv' : undefined).gold ?? []).map((g) => g.gold);
  if (gold.length === 0) return 0;
  if (opts['dry-run']) {
    io.out(`dry run: ${gold.length} gold decision(s) not written`);
    return 0;
  }
  try {
    let done: GoldImport;
    if (isServerUrl(db)) {
      const server = await ServerLabelStore.open(db);
      try {
        done = await new ServerGoldStore(server).importTrail(gold);
      } finally {
        await server.close();
      }
    } else {
      const store = GoldStore.open(db);
      try {
        done = store.importTrail(gold);
      } finally {
        store.close();
      }
    }
    io.out(`gold: ${done.added} decision(s) added, ${done.undone} undone, ${done.identical} already present`);
    return 0;
  } catch (err) {
    io.err(`persona-lab: the gold decisions were not imported: ${(err as Error).message}`);
    return 1;
  }
}
