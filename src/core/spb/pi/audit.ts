// StreamProfileBench's PI audit: every text a leak could hide in (bio, posts, tags, and per run the personas,
// reasoning and predicted tags), scanned line by line from disk, with per-category counts of placeholders and findings.
import { basename, join } from 'node:path';
import { isRecord as isObj } from '../../guards';
import { META_KEYS, POOL_CLASSES, PLATFORMS, type Benchmark, type Platform } from '../types';
import type { PiCategory } from '../../pi/placeholders';
import { AuditTally, findingKey, readScanLines, sizeOf, type AuditOptions, type AuditScanned } from '../../pi/tally';
import type { Finding } from '../../pi/types';
import { chainCounts, chainText, piChains, type PiChain } from './chains';
import type { AuditReport, CarriedPi } from '../../pi/report';
import type { PiArea } from '../../pi/spans';

export interface AuditFinding extends Finding {
  /** Relative to the benchmark root. */
  file: string;
  /** 1-based JSONL line. */
  line: number;
  /** JSON path of the string inside the line, e.g. `prediction_tasks[2].posts_text`; start/end are offsets into it. */
  field: string;
  platform: Platform;
  userId: string;
  /** null for the bio. */
  stepId: number | null;
  /** The run (results folder) for personas and reasoning; null for the tasks data. */
  run: string | null;
  /** Stable identity for verdicts: location, span, category and a hash of the text. */
  key: string;
}

/** 'tasks' for the data files, else the run name. */
export interface CountRow {
  source: string;
  platform: Platform;
  category: PiCategory;
  placeholders: number;
  findings: number;
}

export interface AuditResult {
  root: string;
  benchmark: string;
  findings: AuditFinding[];
  /** One row per source, platform and category that has a placeholder or a finding. */
  counts: CountRow[];
  scanned: AuditScanned;
  /** Lines that could not be read (they are skipped, not fatal). */
  problems: string[];
  cancelled: boolean;
  /** PI values carried through the runs' personas (chains.ts). */
  chains: PiChain[];
  /** The chains as the report lists them: each with its sentence, and the counts per run. */
  carriedPi: CarriedPi<DescribedPiChain>;
}

export type DescribedPiChain = PiChain & { description: string };

/** The report of a StreamProfileBench audit. */
export type StepAuditReport = AuditReport<AuditFinding, CountRow, DescribedPiChain>;

interface Where {
  file: string;
  line: number;
  platform: Platform;
  userId: string;
  run: string | null;
  source: string;
}

type Obj = Record<string, unknown>;

class Collector extends AuditTally<Platform> {
  readonly findings: AuditFinding[] = [];

  scan(where: Where, field: string, stepId: number | null, value: unknown): void {
    if (typeof value !== 'string' || value === '') return;
    for (const f of this.countText(where.source, where.platform, value)) {
      const located = {
        ...f,
        file: where.file,
        line: where.line,
        field,
        platform: where.platform,
        userId: where.userId,
        stepId,
        run: where.run,
      };
      this.findings.push({ ...located, key: findingKey(located) });
    }
  }

  rows(): CountRow[] {
    return this.countRows('tasks', PLATFORMS, (source, platform, category, placeholders, findings) => ({
      source,
      platform,
      category,
      placeholders,
      findings,
    }));
  }
}

function scanTaskRecord(c: Collector, where: Where, rec: Obj): void {
  c.scan(where, 'bio', null, rec.bio);
  const tasks = Array.isArray(rec.prediction_tasks) ? rec.prediction_tasks : [];
  tasks.forEach((task: unknown, i) => {
    if (!isObj(task)) return;
    const stepId = Number.isInteger(task.step_id) ? (task.step_id as number) : i + 1;
    const at = `prediction_tasks[${i}]`;
    c.scan(where, `${at}.posts_text`, stepId, task.posts_text);
    const pool = Array.isArray(task.candidate_pool) ? task.candidate_pool : [];
    pool.forEach((t, j) => c.scan(where, `${at}.candidate_pool[${j}]`, stepId, t));
    // meta splits the pool: only a tag that is not in the pool (an invariant violation) would be reported twice.
    const inPool = new Set(pool.filter((t): t is string => typeof t === 'string'));
    if (isObj(task.meta)) {
      const meta = task.meta;
      for (const cls of POOL_CLASSES) {
        const list = meta[META_KEYS[cls]];
        if (!Array.isArray(list)) continue;
        list.forEach((t, j) => {
          if (typeof t === 'string' && !inPool.has(t)) c.scan(where, `${at}.meta.${META_KEYS[cls]}[${j}]`, stepId, t);
        });
      }
    }
  });
}

function scanResultRecord(c: Collector, where: Where, rec: Obj): void {
  const steps = Array.isArray(rec.steps) ? rec.steps : [];
  steps.forEach((step: unknown, i) => {
    if (!isObj(step)) return;
    const stepId = Number.isInteger(step.step_id) ? (step.step_id as number) : i + 1;
    c.scan(where, `steps[${i}].persona_summary`, stepId, step.persona_summary);
    c.scan(where, `steps[${i}].reasoning`, stepId, step.reasoning);
    if (Array.isArray(step.prediction))
      step.prediction.forEach((t, j) => c.scan(where, `steps[${i}].prediction[${j}]`, stepId, t));
  });
}

interface FileJob {
  rel: string;
  platform: Platform;
  run: string | null;
  size: number;
}

/** Scans the benchmark's files from disk. Unreadable lines and files become `problems`; it never throws on data. */
export async function auditBenchmark(bench: Benchmark, opts: AuditOptions = {}): Promise<AuditResult> {
  const jobs: FileJob[] = [];
  for (const [platform, rel] of bench.taskFiles)
    jobs.push({ rel, platform, run: null, size: sizeOf(join(bench.root, rel)) });
  for (const [name, run] of bench.runs) {
    if (opts.runs && !opts.runs.includes(name)) continue;
    for (const [platform, rel] of run.files)
      jobs.push({ rel, platform, run: name, size: sizeOf(join(bench.root, rel)) });
  }
  const total = jobs.reduce((s, j) => s + j.size, 0);
  const c = new Collector(opts);
  const problems: string[] = [];
  let lines = 0;
  let done = 0;
  let cancelled = false;
  for (const job of jobs) {
    if (opts.signal?.aborted) {
      cancelled = true;
      break;
    }
    const base = done;
    lines += await readScanLines(
      join(bench.root, job.rel),
      job.rel,
      problems,
      opts.signal,
      (rec, line) => {
        const userId = typeof rec.user_id === 'string' ? rec.user_id : '';
        const where: Where = {
          file: job.rel,
          line,
          platform: job.platform,
          userId,
          run: job.run,
          source: job.run ?? 'tasks',
        };
        if (job.run === null) scanTaskRecord(c, where, rec);
        else scanResultRecord(c, where, rec);
      },
      (bytes) => opts.onProgress?.(base + bytes, total),
    );
    if (opts.signal?.aborted) cancelled = true;
    done = base + job.size;
  }
  const chains = piChains(bench, c.findings);
  return {
    root: bench.root,
    benchmark: opts.benchmark ?? basename(bench.root),
    findings: c.findings,
    chains,
    carriedPi: { chains: chains.map((ch) => ({ ...ch, description: chainText(ch) })), carried: chainCounts(chains) },
    counts: c.rows(),
    scanned: { files: jobs.length, lines, texts: c.texts, chars: c.chars },
    problems,
    cancelled,
  };
}

/** Where the step view shows an audit finding, from its JSON path in the tasks or results line. */
export function stepFindingArea(field: string): PiArea {
  if (field === 'bio') return 'bio';
  if (/\.posts_text$/.test(field)) return 'posts';
  if (/\.persona_summary$/.test(field)) return 'persona';
  if (/\.reasoning$/.test(field)) return 'reasoning';
  return 'tag';
}
