// The audit report: counts, findings with their current verdict, confirmed leaks and the verdict trail, as JSON,
// Markdown, or the CLI's plain lines.
// Every format shares it: audits that count per source and platform, and audits that count per source and part of
// an item; each format's audit result fits ReportableResult.
import { PI_CATEGORIES, emptyCounts, type CategoryCounts, type PiCategory } from './placeholders';
import type { Confidence, Finding } from './types';
import type { AuditScanned, PartRow } from './tally';
import { latestByKey, VERDICTS, type Verdict, type VerdictRow } from './verdicts';

/** What a report needs of a finding: every format's audit finding has it. */
export interface ReportableFinding extends Finding {
  key: string;
  file: string;
  line: number;
  field: string;
  userId: string;
  run: string | null;
  /** The item the finding belongs to, shown beside its user (a test action), where the format has one. */
  testAction?: number | null;
}

/** A count row per source and part of an item. */
export type PartCountRow = PartRow<string>;

/** A count row per source and platform. */
export interface PlatformCountRow {
  source: string;
  platform: string;
  category: PiCategory;
  placeholders: number;
  findings: number;
}

export type AnyCountRow = PlatformCountRow | PartCountRow;

/** A PI value an audit followed through a run (the PI a model carried into its personas), as the report lists it. */
export interface DescribedChain {
  run: string;
  platform: string;
  userId: string;
  category: PiCategory;
  text: string;
  /** where the value entered and where it was carried, in a sentence */
  description: string;
}

/** Per run: the values carried, and the steps whose persona carries one. */
export type CarriedCounts = Record<string, { values: number; steps: number }>;

/** What an audit that follows PI through a run adds to its report. */
export interface CarriedPi<X extends DescribedChain = DescribedChain> {
  chains: X[];
  carried: CarriedCounts;
}

/** An audit result of any format. */
export interface ReportableResult<
  F extends ReportableFinding = ReportableFinding,
  C extends AnyCountRow = AnyCountRow,
  X extends DescribedChain = DescribedChain,
> {
  /** The format's id, set by the audits that count per part; absent on a result counted per platform. */
  format?: string;
  root: string;
  benchmark: string;
  findings: F[];
  counts: C[];
  scanned: AuditScanned;
  problems: string[];
  cancelled: boolean;
  /** PI values carried through the runs' personas, where the format's audit follows them. */
  carriedPi?: CarriedPi<X>;
}

export type ReportFinding<F extends ReportableFinding = ReportableFinding> = Omit<F, 'text'> & {
  text: string;
  verdict: Verdict | null;
  verdictBy: string | null;
  verdictAt: string | null;
  note: string;
};

export interface AuditReport<
  F extends ReportableFinding = ReportableFinding,
  C extends AnyCountRow = AnyCountRow,
  X extends DescribedChain = DescribedChain,
> {
  format: 'persona-lab-pi-audit';
  version: 1;
  /** The result's `format`, set by the audits that count per part (a report per platform has none). */
  benchmarkFormat?: string;
  benchmark: string;
  root: string;
  generatedAt: string;
  redacted: boolean;
  scanned: AuditScanned;
  cancelled: boolean;
  problems: string[];
  counts: C[];
  totals: { placeholders: CategoryCounts; findings: CategoryCounts };
  byConfidence: Record<Confidence, number>;
  byVerdict: Record<Verdict | 'none', number>;
  findings: ReportFinding<F>[];
  confirmedLeaks: ReportFinding<F>[];
  verdictTrail: VerdictRow[];
  /** Latest verdicts whose finding is no longer found (data changed, or another confidence threshold). */
  staleVerdicts: VerdictRow[];
  /** Each PI value carried through a run's personas, with its description (from the result's carriedPi). */
  chains?: X[];
  /** Per run, the PI values carried into personas and the steps whose persona carries one. */
  carried?: CarriedCounts;
}

/** Keeps the first and last two characters of a value; the rest becomes '*' (separators stay). */
export function redactText(text: string): string {
  const chars = [...text];
  const idx = chars.map((c, i) => (/[\p{L}\p{N}]/u.test(c) ? i : -1)).filter((i) => i >= 0);
  const keep = new Set(idx.length > 4 ? [...idx.slice(0, 2), ...idx.slice(-2)] : idx.slice(0, 1));
  return chars.map((c, i) => (keep.has(i) || !idx.includes(i) ? c : '*')).join('');
}

export interface ReportOptions {
  /** The verdict trail (all rows of this benchmark, oldest first). */
  trail?: readonly VerdictRow[];
  generatedAt?: string;
  redact?: boolean;
}

export function buildReport<
  F extends ReportableFinding = ReportableFinding,
  C extends AnyCountRow = AnyCountRow,
  X extends DescribedChain = DescribedChain,
>(audit: ReportableResult<F, C, X>, opts: ReportOptions = {}): AuditReport<F, C, X> {
  const trail = (opts.trail ?? []).filter((r) => r.benchmark === audit.benchmark);
  const latest = latestByKey(trail);
  const show = (t: string) => (opts.redact ? redactText(t) : t);
  const findings: ReportFinding<F>[] = audit.findings.map((f) => {
    const v = latest.get(f.key);
    return {
      ...f,
      text: show(f.text),
      verdict: v?.verdict ?? null,
      verdictBy: v?.author ?? null,
      verdictAt: v?.createdAt ?? null,
      note: v?.note ?? '',
    };
  });
  const keys = new Set(audit.findings.map((f) => f.key));
  const totals = { placeholders: emptyCounts(), findings: emptyCounts() };
  for (const r of audit.counts) {
    totals.placeholders[r.category] += r.placeholders;
    totals.findings[r.category] += r.findings;
  }
  const byConfidence: Record<Confidence, number> = { high: 0, medium: 0, low: 0 };
  const byVerdict = { none: 0 } as Record<Verdict | 'none', number>;
  for (const v of VERDICTS) byVerdict[v] = 0;
  for (const f of findings) {
    byConfidence[f.confidence]++;
    byVerdict[f.verdict ?? 'none']++;
  }
  return {
    format: 'persona-lab-pi-audit',
    version: 1,
    ...(audit.format ? { benchmarkFormat: audit.format } : {}),
    benchmark: audit.benchmark,
    root: audit.root,
    generatedAt: opts.generatedAt ?? new Date().toISOString(),
    redacted: Boolean(opts.redact),
    scanned: audit.scanned,
    cancelled: audit.cancelled,
    problems: audit.problems,
    counts: audit.counts,
    totals,
    byConfidence,
    byVerdict,
    findings,
    confirmedLeaks: findings.filter((f) => f.verdict === 'confirmed-leak'),
    verdictTrail: trail,
    staleVerdicts: [...latest.values()].filter((r) => !keys.has(r.key)),
    ...(audit.carriedPi
      ? {
          chains: audit.carriedPi.chains.map((c) => ({ ...c, text: show(c.text) })),
          carried: audit.carriedPi.carried,
        }
      : {}),
  };
}

/** "PI carried into personas" lines: per run, then each chain; none without chains. */
export function chainLines(report: Pick<AuditReport, 'chains' | 'carried'>): string[] {
  if (!report.chains?.length || !report.carried) return [];
  return [
    'PI carried into personas (a value a model copied into a persona reaches every later prompt of that user):',
    ...Object.entries(report.carried).map(
      ([run, c]) => `  ${run}: ${c.values} value(s), in the personas of ${c.steps} step(s)`,
    ),
    ...report.chains.map((c) => `  ${c.run} ${c.platform}/${c.userId} ${c.category} ${c.text}: ${c.description}`),
  ];
}

const oneLine = (s: string) => s.replace(/[\r\n\t\u0000-\u001f]/g, ' ');

/** `file:line field [category/confidence] text`, as the CLI prints it. */
export function formatFindingLine(
  f: Pick<ReportFinding, 'file' | 'line' | 'field' | 'category' | 'confidence' | 'text' | 'run'> & {
    verdict?: Verdict | null;
  },
): string {
  const verdict = f.verdict ? ` (${f.verdict})` : '';
  return `${f.file}:${f.line} ${f.field} [${f.category}/${f.confidence}] ${oneLine(f.text)}${verdict}`;
}

interface Matrix {
  label: string;
  cells: Map<PiCategory, { placeholders: number; findings: number }>;
}

/** The second dimension of a count row: the platform, or the part of an item. */
const groupOf = (r: AnyCountRow): string => ('part' in r ? r.part : r.platform);
/** The sources that are the benchmark's own files (each audit's first one); any other source is a run. */
const DATA_SOURCES: readonly string[] = ['tasks', 'raw', 'data'];

function matrix(rows: readonly AnyCountRow[]): Matrix[] {
  const out = new Map<string, Matrix>();
  const sources = [...new Set(rows.map((r) => r.source))];
  for (const source of sources) {
    // Each audit counts a source's groups in its format's order (AuditTally.countRows).
    const groups = [...new Set(rows.filter((r) => r.source === source).map(groupOf))];
    for (const group of groups) {
      const mine = rows.filter((r) => r.source === source && groupOf(r) === group);
      if (!mine.length) continue;
      const label = `${DATA_SOURCES.includes(source) ? source : `run ${source}`} · ${group}`;
      out.set(label, {
        label,
        cells: new Map(mine.map((r) => [r.category, { placeholders: r.placeholders, findings: r.findings }])),
      });
    }
  }
  return [...out.values()];
}

/** Placeholders / findings per source and platform (or trace part), one column per category. */
export function formatCountTable(rows: readonly AnyCountRow[]): string {
  const m = matrix(rows);
  if (!m.length) return '(no placeholders and no findings)';
  const width = Math.max(...m.map((r) => r.label.length), 6);
  const head = `${'where'.padEnd(width)}  ${PI_CATEGORIES.map((c) => c.padStart(8)).join('')}`;
  const lines = m.map((r) => {
    const cells = PI_CATEGORIES.map((c) => {
      const v = r.cells.get(c);
      return (v ? `${v.placeholders}/${v.findings}` : '·').padStart(8);
    });
    return `${r.label.padEnd(width)}  ${cells.join('')}`;
  });
  return [head, ...lines].join('\n');
}

export function formatTextReport<F extends ReportableFinding, C extends AnyCountRow>(
  report: AuditReport<F, C>,
): string {
  const n = report.findings.length;
  const placeholders = PI_CATEGORIES.reduce((s, c) => s + report.totals.placeholders[c], 0);
  const out = [
    `${report.benchmark}: ${n} finding(s) (${report.byConfidence.high} high, ${report.byConfidence.medium} medium, ` +
      `${report.byConfidence.low} low) and ${placeholders} placeholder(s) in ${report.scanned.texts} text(s) of ${report.scanned.files} file(s)`,
    '',
    'Placeholders / findings:',
    formatCountTable(report.counts),
  ];
  if (n) out.push('', 'Findings:', ...report.findings.map(formatFindingLine));
  const carried = chainLines(report as Pick<AuditReport, 'chains' | 'carried'>);
  if (carried.length) out.push('', ...carried);
  for (const p of report.problems) out.push(`warning: ${p}`);
  if (report.cancelled) out.push('warning: the audit was cancelled; the counts are partial');
  return out.join('\n');
}

/** Escapes text for a Markdown table cell (no HTML, no table breaks, no emphasis). */
export function mdCell(text: string): string {
  return oneLine(text).replace(/[\\`*_[\]|<>#]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : `\\${c}`));
}

/** A code span for a table cell: paths and JSON fields read better unescaped. */
export function mdCode(text: string): string {
  return text === '' ? '' : '`' + oneLine(text).replace(/`/g, "'").replace(/\|/g, '\\|') + '`';
}

/** The user cell: with the item (a test action) where the finding names one. */
const userCell = (f: ReportableFinding) =>
  mdCode(f.testAction === undefined || f.testAction === null ? f.userId : `${f.userId} #${f.testAction}`);

export function renderMarkdown<F extends ReportableFinding, C extends AnyCountRow>(report: AuditReport<F, C>): string {
  const lines: string[] = [];
  const push = (...l: string[]) => lines.push(...l);
  const where = (f: { file: string; line: number }) => mdCode(`${f.file}:${f.line}`);
  push(`# PI audit: ${mdCell(report.benchmark)}`, '');
  push(
    `Generated ${report.generatedAt}. Scanned ${report.scanned.files} file(s), ${report.scanned.lines} line(s), ` +
      `${report.scanned.texts} text(s). ${report.findings.length} finding(s): ${report.byConfidence.high} high, ` +
      `${report.byConfidence.medium} medium, ${report.byConfidence.low} low confidence.` +
      (report.redacted ? ' Values are redacted.' : ''),
    '',
  );
  if (report.cancelled) push('**The audit was cancelled: the counts are partial.**', '');
  push(
    report.benchmarkFormat ? '## Counts per source and part' : '## Counts per platform',
    '',
    'Each cell: placeholders / findings.',
    '',
  );
  const m = matrix(report.counts);
  push(`| where | ${PI_CATEGORIES.join(' | ')} |`, `|---|${PI_CATEGORIES.map(() => '---:').join('|')}|`);
  for (const r of m) {
    push(
      `| ${mdCell(r.label)} | ${PI_CATEGORIES.map((c) => {
        const v = r.cells.get(c);
        return v ? `${v.placeholders} / ${v.findings}` : '·';
      }).join(' | ')} |`,
    );
  }
  const t = report.totals;
  push(`| **total** | ${PI_CATEGORIES.map((c) => `${t.placeholders[c]} / ${t.findings[c]}`).join(' | ')} |`, '');
  push(
    '## Verdicts',
    '',
    VERDICTS.map((v) => `${v}: ${report.byVerdict[v]}`).join(', ') + `, no verdict yet: ${report.byVerdict.none}.`,
    '',
  );
  push(`## Confirmed leaks (${report.confirmedLeaks.length})`, '');
  if (report.confirmedLeaks.length) {
    push('| location | field | category | text | by | at | note |', '|---|---|---|---|---|---|---|');
    for (const f of report.confirmedLeaks) {
      push(
        `| ${where(f)} | ${mdCode(f.field)} | ${f.category} | ${mdCell(f.text)} | ${mdCell(f.verdictBy ?? '')} | ${f.verdictAt ?? ''} | ${mdCell(f.note)} |`,
      );
    }
  } else push('None.');
  push('', `## Findings (${report.findings.length})`, '');
  if (report.findings.length) {
    push(
      '| location | field | user | run | category | confidence | text | verdict |',
      '|---|---|---|---|---|---|---|---|',
    );
    for (const f of report.findings) {
      push(
        `| ${where(f)} | ${mdCode(f.field)} | ${userCell(f)} | ${mdCode(f.run ?? '')} | ${f.category} | ${f.confidence} | ` +
          `${mdCell(f.text)} | ${f.verdict ?? ''} |`,
      );
    }
  } else push('None.');
  const chains = (report as Pick<AuditReport, 'chains'>).chains;
  const carried = (report as Pick<AuditReport, 'carried'>).carried;
  if (chains && carried) {
    push('', `## PI carried into personas (${chains.length})`, '');
    push('A value a model copied into a persona reaches every later prompt of that user.', '');
    if (chains.length) {
      push('| run | values | steps whose persona carries one |', '|---|---:|---:|');
      for (const [run, c] of Object.entries(carried)) push(`| ${mdCode(run)} | ${c.values} | ${c.steps} |`);
      push('', '| run | user | category | text | chain |', '|---|---|---|---|---|');
      for (const c of chains)
        push(
          `| ${mdCode(c.run)} | ${mdCode(`${c.platform}/${c.userId}`)} | ${c.category} | ${mdCell(c.text)} | ${mdCell(c.description)} |`,
        );
    } else push('None.');
  }
  push('', `## Verdict trail (${report.verdictTrail.length})`, '');
  if (report.verdictTrail.length) {
    push('| time | author | verdict | finding | note |', '|---|---|---|---|---|');
    for (const r of report.verdictTrail) {
      push(
        `| ${r.createdAt} | ${mdCell(r.author)} | ${r.verdict} | ${where(r)} ${mdCode(r.field)} ${r.category} | ${mdCell(r.note)} |`,
      );
    }
  } else push('No verdicts recorded.');
  if (report.staleVerdicts.length) {
    push(
      '',
      `${report.staleVerdicts.length} verdict(s) refer to findings that are no longer found (the data changed).`,
    );
  }
  if (report.problems.length) push('', '## Problems', '', ...report.problems.map((p) => `- ${mdCell(p)}`));
  return lines.join('\n') + '\n';
}
