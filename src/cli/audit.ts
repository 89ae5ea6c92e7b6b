// `persona-lab audit <dir>`: residual PI in a benchmark, as plain lines, JSON, or a Markdown / JSON report file.
import { renameSync, writeFileSync } from 'node:fs';
import { detectFormat, FORMATS, type FormatLoadOptions } from '../core/formats';
import { cacheOption } from './cacheOption';
import {
  buildReport,
  formatTextReport,
  renderMarkdown,
  type AnyCountRow,
  type ReportableFinding,
  type ReportableResult,
} from '../core/pi/report';
import { CONFIDENCES, type Confidence } from '../core/pi/types';
import { ServerVerdictStore } from '../core/pi/server/store';
import { VerdictStore, type VerdictRow } from '../core/pi/verdicts';
import { isServerUrl } from '../core/storage/postgres';
import type { CliIo } from './labels';

export const AUDIT_USAGE = `  audit <dir> [--json] [--out FILE.md|FILE.json] [--db VERDICTS.db|postgres://…] [--run NAME]...
        [--min-confidence low|medium|high] [--redact]
                                                           residual personal information: counts of placeholders and
                                                           findings per platform (or per part of an item, as
                                                           the format counts), every finding as file:line field
                                                           [category/confidence] text; --db adds the verdicts (from
                                                           a file, or a label server: password from PGPASSWORD)`;

/** Options of `audit` that the CLI does not already define (`--json`, `--out`, `--run` are shared). */
export const AUDIT_OPTIONS = {
  db: { type: 'string' },
  'min-confidence': { type: 'string' },
  redact: { type: 'boolean' },
} as const;

export interface AuditCliOptions {
  'no-cache'?: boolean;
  json?: boolean;
  out?: string;
  db?: string;
  run?: string[];
  'min-confidence'?: string;
  redact?: boolean;
}

const processIo: CliIo = {
  write: (text) => process.stdout.write(text),
  out: (text) => process.stdout.write(text + '\n'),
  err: (text) => process.stderr.write(text + '\n'),
};

class Usage extends Error {}

function confidenceOpt(value: string | undefined): Confidence {
  if (value === undefined) return 'low';
  if ((CONFIDENCES as readonly string[]).includes(value)) return value as Confidence;
  throw new Usage(`--min-confidence must be low, medium or high, not "${value}"`);
}

/** The benchmark's verdict trail from a verdict file or a label server's URL. */
async function readTrail(path: string, benchmark: string): Promise<VerdictRow[]> {
  if (isServerUrl(path)) {
    const server = await ServerVerdictStore.open(path);
    try {
      return await server.trail({ benchmark });
    } finally {
      await server.close();
    }
  }
  const store = VerdictStore.open(path, { readOnly: true });
  try {
    return store.trail({ benchmark });
  } finally {
    store.close();
  }
}

/** Writes through a temporary file, so that an interrupted run never leaves half a report. */
function writeAtomically(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** Audits a folder of any format that offers the audit. */
async function auditFolder(
  dir: string,
  minConfidence: Confidence,
  runs: string[] | undefined,
  load: Pick<FormatLoadOptions, 'cacheDir'>,
): Promise<ReportableResult<ReportableFinding, AnyCountRow>> {
  // An unrecognised folder is audited as the first format, whose loader says what is wrong with it.
  const format = detectFormat(dir) ?? FORMATS[0];
  const { opened } = await format.load(dir, { runs, ...load });
  for (const name of runs ?? [])
    if (!opened.runNames.includes(name)) throw new Error(`no run "${name}" under ${opened.root}/results`);
  if (!opened.audit) throw new Error(`${dir}: ${format.label} has no personal-information audit`);
  return opened.audit({ minConfidence, runs });
}

/**
 * Runs `audit <dir>`. Exit status: 0 when nothing open was found (no finding, or only false positives), 1 when
 * findings remain or a file cannot be read, 2 on a usage error. Never throws.
 */
export async function runAuditCommand(args: string[], opts: AuditCliOptions, io: CliIo = processIo): Promise<number> {
  try {
    const [dir, extra] = args;
    if (!dir) throw new Usage('audit needs a benchmark folder or tasks file');
    if (extra !== undefined) throw new Usage(`unexpected argument "${extra}"`);
    const minConfidence = confidenceOpt(opts['min-confidence']);
    const audit = await auditFolder(dir, minConfidence, opts.run, cacheOption(opts));
    const trail = opts.db ? await readTrail(opts.db, audit.benchmark) : [];
    const report = buildReport(audit, { trail, redact: opts.redact });
    if (opts.json) io.out(JSON.stringify(report));
    else io.out(formatTextReport(report));
    if (opts.out) {
      writeAtomically(
        opts.out,
        opts.out.toLowerCase().endsWith('.json') ? JSON.stringify(report, null, 2) + '\n' : renderMarkdown(report),
      );
      (opts.json ? io.err : io.out)(`wrote ${opts.out}`);
    }
    const open = report.findings.filter((f) => f.verdict !== 'false-positive').length;
    return open > 0 || audit.problems.length > 0 ? 1 : 0;
  } catch (err) {
    if (err instanceof Usage) {
      io.err(`persona-lab: ${err.message}\nUsage:\n${AUDIT_USAGE}`);
      return 2;
    }
    io.err(`persona-lab: ${(err as Error).message}`);
    return 1;
  }
}
