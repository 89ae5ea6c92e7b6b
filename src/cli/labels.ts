// `persona-lab labels export|import|summary|gold`: the label store from the command line.
import { existsSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatDiagnostic } from '../core/io/diagnostics';
import { detectFormat, detectFormats } from '../core/formats';
import { cacheOption } from './cacheOption';
import { countFreshness, labelFreshness, type FreshnessCounts } from '../core/labels/freshness';
import type { LabelRow } from '../core/labels/model';
import { benchmarkId } from '../core/labels/model';
import { formatSummary, KAPPA_MIN_UNITS, summarize, type Kappa } from '../core/labels/agreement';
import {
  formatLabelAgreements,
  labelAgreementsByBenchmark,
  type LabelAgreements,
} from '../core/labels/agreementPerLabel';
import { formatFor, readLabelFile, toCsv, toJsonl, type LabelFileFormat } from '../core/labels/exportImport';
import { CONFLICT_DECISIONS, ImportSession, type ConflictDecision, type ImportConflict } from '../core/labels/merge';
import { LabelStore, type OpenOptions } from '../core/labels/store';
import { isServerUrl } from '../core/storage/postgres';
import { importToServer, listProjects, serverRows } from './labelServer';
import { cliLabelSet, cliUnitNamer, type CliIo, type LabelsCliOptions } from './labelsIo';
import { labelNames } from '../core/labels/taxonomy';
import { goldCommand, importGold, readGold, readGoldTrail } from './labelsGold';
import { goldReport, goldReportJson, formatAgainstGold } from '../core/labels/goldReport';
import {
  formatAgreementIntervals,
  intervalJson,
  labelKappaIntervals,
  pairIntervals,
} from '../core/labels/agreementIntervals';
import { AGREEMENT_RESAMPLES, AGREEMENT_SEED } from '../core/labels/goldAgreement';
import type { Interval } from '../core/stats/bootstrap';
import { labelsJudgeFormats } from './formats';

export const LABELS_USAGE = `Usage:
  persona-lab labels export <db> [--out FILE] [--format jsonl|csv]    every label (stdout without --out)
  persona-lab labels import <db> FILE [--format jsonl|csv] [--conflicts local|incoming|both]
                            [--resolve N=local|incoming|both]... [--dry-run]
                                                                     merge another annotator's file
  persona-lab labels summary <db> [--json] [--label-set labels.json] counts per label per platform, kappa per
                                                                     pair, per label (Cohen's or Fleiss') and the
                                                                     disagreements, each κ with a 95 % bootstrap
                                                                     interval, and each annotator against gold
  persona-lab labels gold <db> [--json] [--project NAME]             the gold set (adjudicated, else unanimous,
                                                                     else open) with counts, each annotator's
                                                                     precision, recall and kappa against it
${labelsJudgeFormats()
  .map((j) => j.usage)
  .join('\n')}

<db> may also be a team's label server, postgres://user@host:port/database (the password from PGPASSWORD): export
and summary read it, import merges into it with the same conflict table (a row someone changes on the server during
the import is not overwritten: it is listed, exit 3), and
  persona-lab labels projects <url> [--json]                         its labelling projects, progress per annotator

<db> may also be a benchmark folder of any format with labels: its .personalab/labels.db is used, export and summary
keep that benchmark's labels only, and summary adds how many are fresh, stale (the data changed since they were made),
unknown (no content hash) or missing (the item they are on, a step, test action, history item or question, is gone).

Import: conflicts (same author and target, a different label or note) are listed and nothing is written until each
has a decision (--conflicts for all, --resolve N for conflict N). Exit status: 0 done, 1 when lines of the file were
skipped or the database cannot be opened, 2 on a usage error, 3 while conflicts are unresolved.`;

export type { CliIo, LabelsCliOptions } from './labelsIo';

const processIo: CliIo = {
  write: (text) => process.stdout.write(text),
  out: (text) => process.stdout.write(text + '\n'),
  err: (text) => process.stderr.write(text + '\n'),
};

class Usage extends Error {}

function isDecision(s: string | undefined): s is ConflictDecision {
  return s !== undefined && (CONFLICT_DECISIONS as readonly string[]).includes(s);
}

function formatOpt(value: string | undefined, path: string): LabelFileFormat {
  if (value === undefined) return formatFor(path);
  if (value === 'jsonl' || value === 'csv') return value;
  throw new Usage(`--format must be jsonl or csv, not "${value}"`);
}

/** Runs `labels <sub> ...`; `args` starts with the subcommand. Returns the exit status; never throws. */
export async function runLabelsCommand(args: string[], opts: LabelsCliOptions, io: CliIo = processIo): Promise<number> {
  try {
    const [sub, target, file, extra] = args;
    if (!sub) throw new Usage('labels needs a subcommand: export, import, summary, gold or judge');
    if (!target) throw new Usage(`labels ${sub} needs the label database path`);
    const server = isServerUrl(target);
    const db =
      !server && existsSync(target) && statSync(target).isDirectory()
        ? join(target, '.personalab', 'labels.db')
        : target;
    const folder = db === target ? undefined : target;
    if (sub === 'import') {
      if (!file) throw new Usage('labels import needs the file to import');
      if (extra !== undefined) throw new Usage(`unexpected argument "${extra}"`);
      const status = server
        ? await importToServer(db, (store) => importInto(store, file, opts, io), io)
        : importLabels(db, file, opts, io);
      return status === 0 || status === 1 ? Math.max(status, await importGold(db, file, opts, io)) : status;
    }
    if (file !== undefined) throw new Usage(`unexpected argument "${file}"`);
    if (sub === 'projects') {
      if (!server) throw new Usage('labels projects needs a label server URL (postgres://user@host:port/database)');
      return await listProjects(db, opts, io);
    }
    if (sub === 'export') return await exportLabels(db, opts, io, folder);
    if (sub === 'summary') return await summary(db, opts, io, folder);
    if (sub === 'gold') return await goldCommand(db, opts, io, folder, readRows);
    if (sub === 'judge') return await judgeAgainstPeople(db, opts, io, folder);
    throw new Usage(`unknown labels subcommand "${sub}"`);
  } catch (err) {
    if (err instanceof Usage) {
      io.err(`persona-lab: ${err.message}\n${LABELS_USAGE}`);
      return 2;
    }
    io.err(`persona-lab: ${(err as Error).message}`);
    return 1;
  }
}

function openStore(db: string, opts: OpenOptions, io: CliIo): LabelStore | null {
  const opened = LabelStore.tryOpen(db, opts);
  if (!opened.ok) {
    io.err(`persona-lab: ${opened.message}`);
    return null;
  }
  return opened.store;
}

async function exportLabels(db: string, opts: LabelsCliOptions, io: CliIo, folder?: string): Promise<number> {
  const format = formatOpt(opts.format, opts.out ?? 'labels.jsonl');
  const rows = await readRows(db, io, folder);
  if (!rows) return 1;
  const gold = await readGoldTrail(db, io, folder);
  if (!gold) return 1;
  if (format === 'csv' && gold.length)
    io.err(`persona-lab: ${gold.length} gold decision(s) left out: CSV carries labels only (JSONL carries both)`);
  const text = format === 'csv' ? toCsv(rows) : toJsonl(rows, gold);
  if (!opts.out) {
    io.write(text);
    return 0;
  }
  // Write then rename, so a crash never leaves a half-written export in place of an older one.
  const tmp = `${opts.out}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, opts.out);
  const decisions = format === 'jsonl' && gold.length ? ` and ${gold.length} gold decision(s)` : '';
  io.out(`wrote ${rows.length} label(s)${decisions} to ${opts.out} (${format})`);
  return 0;
}

/**
 * The rows of a label database (those of `folder`'s benchmark when given), or null after saying why. A benchmark
 * folder that has no label database yet has no labels: that is an empty list, not an error.
 */
async function readRows(db: string, io: CliIo, folder?: string): Promise<LabelRow[] | null> {
  if (isServerUrl(db)) return serverRows(db, io);
  if (folder !== undefined && !existsSync(db)) return [];
  // Read-only: export and summary never write, so a read-only file (or folder) works and nothing is locked.
  const store = openStore(db, { readOnly: true }, io);
  if (!store) return null;
  try {
    return store.list(folder === undefined ? {} : { benchmark: benchmarkId(folder) });
  } finally {
    store.close();
  }
}

function describeConflict(c: ImportConflict, n: number): string {
  const side = (rows: { label: string; note: string }[]) =>
    rows.map((r) => (r.note ? `${r.label} ("${r.note.replace(/\n/g, ' / ')}")` : r.label)).join(', ') || '(none)';
  const lines = c.incoming.map((r) => r.line).join(', ');
  return `  [${n}] ${c.description}\n      local:    ${side(c.local)}\n      incoming: ${side(c.incoming.map((r) => r.row))} (line ${lines})`;
}

function decisionsFrom(opts: LabelsCliOptions, conflicts: ImportConflict[]): Map<string, ConflictDecision> {
  const all = opts.conflicts;
  if (all !== undefined && !isDecision(all))
    throw new Usage(`--conflicts must be one of ${CONFLICT_DECISIONS.join(', ')}`);
  const map = new Map<string, ConflictDecision>();
  if (all) for (const c of conflicts) map.set(c.id, all);
  for (const spec of opts.resolve ?? []) {
    const m = /^(\d+)=(.+)$/.exec(spec);
    const n = m ? Number(m[1]) : NaN;
    if (!m || !isDecision(m[2]) || n < 1 || n > conflicts.length) {
      throw new Usage(
        `--resolve ${spec}: expected N=${CONFLICT_DECISIONS.join('|')} with N from 1 to ${conflicts.length}`,
      );
    }
    map.set(conflicts[n - 1].id, m[2]);
  }
  return map;
}

function importLabels(db: string, file: string, opts: LabelsCliOptions, io: CliIo): number {
  const store = openStore(db, {}, io);
  if (!store) return 1;
  try {
    return importInto(store, file, opts, io);
  } finally {
    store.close();
  }
}

/** Merges `file` into `store` (the file's problems and the conflicts said on `io`); returns the exit status. */
function importInto(store: LabelStore, file: string, opts: LabelsCliOptions, io: CliIo): number {
  const format = opts.format === undefined ? undefined : formatOpt(opts.format, file);
  const parsed = readLabelFile(file, file, format);
  for (const d of parsed.diagnostics) io.err(formatDiagnostic(d));
  {
    const session = new ImportSession(store, parsed.rows, file);
    const { plan } = session;
    for (const d of plan.diagnostics) io.err(formatDiagnostic(d));
    const skipped = [...parsed.diagnostics, ...plan.diagnostics].filter((d) => d.severity === 'error').length;
    io.out(
      `${file}: ${parsed.rows.length} label(s) read, ${skipped} line(s) skipped; ${plan.additions.length} new, ${plan.identical} already present, ${plan.conflicts.length} conflict(s)`,
    );
    const decisions = decisionsFrom(opts, plan.conflicts);
    const open = plan.conflicts.filter((c) => !decisions.has(c.id));
    if (open.length > 0) {
      io.out(`Unresolved conflicts (nothing was imported):`);
      plan.conflicts.forEach((c, i) => {
        if (!decisions.has(c.id)) io.out(describeConflict(c, i + 1));
      });
      io.out('Resolve with --conflicts local|incoming|both, or --resolve N=local|incoming|both for each.');
      return 3;
    }
    if (opts['dry-run']) {
      io.out('dry run: nothing was written');
      return skipped > 0 ? 1 : 0;
    }
    const result = session.resolve(decisions);
    if (!result.ok) {
      io.out(`${result.message} (the database changed while importing; run the import again)`);
      result.unresolved.forEach((c, i) => io.out(describeConflict(c, i + 1)));
      return 3;
    }
    io.out(`imported: ${result.added} added, ${result.removed} removed, ${result.notesChanged} note(s) changed`);
    return skipped > 0 ? 1 : 0;
  }
}

function kappaJson(k: Kappa, ci?: Interval) {
  const num = (x: number) => (Number.isFinite(x) ? x : null);
  return {
    kappa: num(k.kappa),
    ci: ci ? intervalJson(ci) : null,
    po: num(k.po),
    pe: num(k.pe),
    n: k.n,
    both: k.both,
    onlyA: k.onlyA,
    onlyB: k.onlyB,
    neither: k.neither,
  };
}

/** Per benchmark: per label κ among all authors and the units where their labels differ (author → labels). */
function labelAgreementJson(b: LabelAgreements, cis: ReadonlyMap<string, Interval>) {
  const num = (x: number) => (Number.isFinite(x) ? x : null);
  return {
    benchmark: b.benchmark,
    unit: b.unit.key,
    units: b.units,
    authors: b.authors,
    // As for the pairs: κ as computed, `enough` false below KAPPA_MIN_UNITS units, where the views say n/a.
    enough: b.units >= KAPPA_MIN_UNITS,
    perLabel: Object.fromEntries(
      b.perLabel.map((p) => [
        p.label,
        {
          kind: p.kind,
          kappa: num(p.kappa),
          ci: cis.has(p.label) ? intervalJson(cis.get(p.label)!) : null,
          po: num(p.po),
          pe: num(p.pe),
          n: p.n,
          raters: p.raters,
          disagreements: p.disagreements,
        },
      ]),
    ),
    disagreements: b.disagreements.map((d) => ({
      ...d.unit,
      labels: Object.fromEntries(d.labels.map((a) => [a.author, a.labels])),
      disputed: d.disputed,
    })),
  };
}

/** Fresh / stale / unknown / missing counts of the folder's labels, read against the benchmark as it is now. */
async function freshnessOf(
  folder: string,
  rows: readonly LabelRow[],
  opts: LabelsCliOptions,
): Promise<FreshnessCounts> {
  const format = detectFormat(folder);
  if (!format) throw new Error(`${folder}: not a benchmark folder`);
  const { opened } = await format.load(folder, { runs: [], ...cacheOption(opts) });
  return countFreshness((await labelFreshness(opened, benchmarkId(folder), rows)).values());
}

async function summary(db: string, opts: LabelsCliOptions, io: CliIo, folder?: string): Promise<number> {
  const rows = await readRows(db, io, folder);
  if (!rows) return 1;
  const gold = await readGold(db, io, folder);
  if (!gold) return 1;
  const freshness = folder === undefined ? undefined : await freshnessOf(folder, rows, opts);
  const s = summarize(rows);
  const unitOf = cliUnitNamer(folder);
  const perLabel = labelAgreementsByBenchmark(rows, unitOf);
  const pairCis = s.agreements.map((a) => pairIntervals(rows, a.authorA, a.authorB));
  const labelCis = perLabel.map((b) => labelKappaIntervals(rows.filter((r) => r.benchmark === b.benchmark)));
  const against = goldReport(rows, gold.adjudications, { unitOf });
  if (opts.json) {
    const counts: Record<string, Record<string, number>> = {};
    for (const [label, m] of s.counts) counts[label] = Object.fromEntries(m);
    const agreements = s.agreements.map((a, i) => ({
      authorA: a.authorA,
      authorB: a.authorB,
      units: a.units,
      // kappa is given as computed; `enough` is false below KAPPA_MIN_UNITS shared steps, where the views say n/a.
      enough: a.units >= KAPPA_MIN_UNITS,
      overall: kappaJson(a.overall, pairCis[i].overall),
      perLabel: Object.fromEntries(
        a.perLabel.map((p) => [p.label, kappaJson(p.kappa, pairCis[i].perLabel.get(p.label))]),
      ),
    }));
    io.out(
      JSON.stringify({
        total: s.total,
        authors: s.authors,
        counts,
        agreements,
        labelAgreement: perLabel.map((b, i) => labelAgreementJson(b, labelCis[i])),
        interval: { level: 0.95, resamples: AGREEMENT_RESAMPLES, seed: AGREEMENT_SEED },
        gold: goldReportJson(against, false),
        ...(freshness ? { freshness } : {}),
      }),
    );
    return 0;
  }
  const set = cliLabelSet(opts);
  for (const d of set.diagnostics) io.err(formatDiagnostic(d));
  const names = labelNames(set);
  // One folder's rows are one benchmark's: its format names the units its pairs share.
  const id = folder === undefined ? undefined : benchmarkId(folder);
  io.out(formatSummary(s, names, id === undefined ? undefined : unitOf(id, rows)));
  if (perLabel.length > 0) io.out(formatLabelAgreements(perLabel, names));
  if (s.agreements.length > 0 || perLabel.length > 0)
    io.out(
      formatAgreementIntervals(
        s.agreements.map((a, i) => ({ authorA: a.authorA, authorB: a.authorB, cis: pairCis[i] })),
        perLabel.map((b, i) => ({ benchmark: b.benchmark, cis: labelCis[i] })),
        names,
        `\nκ with its 95 % bootstrap interval over units (${AGREEMENT_RESAMPLES} resamples, seed ${AGREEMENT_SEED}):`,
      ),
    );
  const vsGold = formatAgainstGold(against, names);
  if (vsGold) io.out(vsGold);
  if (freshness) {
    const f = freshness;
    io.out(
      `Against the data now: ${f.fresh} fresh, ${f.stale} stale (the data changed), ${f.unknown} unknown (no content hash), ${f.missing} missing (no longer in the data)`,
    );
  }
  return 0;
}

/** `labels judge`: people's judge scores in the folder's label database against the judge's, for one run. */
async function judgeAgainstPeople(db: string, opts: LabelsCliOptions, io: CliIo, folder?: string): Promise<number> {
  const judges = labelsJudgeFormats();
  const judge = folder === undefined ? undefined : labelsJudgeFormats(detectFormats(folder))[0];
  if (folder === undefined || !judge)
    throw new Usage(
      `labels judge needs ${judges.map((j) => j.folder).join(' or ')} (its .personalab/labels.db holds the scores)`,
    );
  const runName = opts.run?.length === 1 ? opts.run[0] : undefined;
  if (!runName) throw new Usage('labels judge needs one --run NAME');
  const readScores = () => {
    if (!existsSync(db)) return [];
    const store = openStore(db, { readOnly: true }, io);
    if (!store) return null;
    try {
      return store.scores({ benchmark: benchmarkId(folder), run: runName });
    } finally {
      store.close();
    }
  };
  return judge.run(folder, runName, opts, io, readScores, (message) => new Usage(message));
}
