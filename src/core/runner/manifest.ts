// `results/<name>/run.json`: what produced a run folder, so that runs are reproducible and comparable, and a
// resume can refuse to mix two configurations in one folder. Never holds the API key.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { isRecord as isObj } from '../guards';
import { readRegularText } from '../io/safeFs';
import type { PartitionCheck } from './journal';

/** What a format's manifest is checked and keyed by: its partitions (platforms) and its templates' hash and id. */
export interface ManifestRules<P extends string> {
  isPartition: PartitionCheck<P>;
  templateKey: (template: string) => { hash: string; id: string };
}

export type PersonaMode = 'full' | 'none';

/** Where the first step of a chain that starts at n > 1 gets its persona from. */
export type StartPersona =
  | { kind: 'none' }
  /** the persona the named run's step n received, i.e. the last non-empty one written before step n */
  | { kind: 'run'; run: string }
  | { kind: 'text'; text: string };

export interface RunSelection<P extends string = string> {
  /** platforms run, in order */
  platforms: P[];
  /** one user only (a chain), or null for every user */
  userId: string | null;
  /** first step id run (1 = the whole chain) */
  fromStep: number;
  startPersona: StartPersona;
  /** only these users per platform (a sample, see core/experiments); absent: every user of the platforms */
  users?: Partial<Record<P, string[]>>;
  /** a copy of this run with its failed requests sent again */
  onlyFailedOf?: string;
}

export type RunStatus = 'running' | 'cancelled' | 'finished' | 'failed';

export interface RunCounts {
  users: number;
  steps: number;
  done: number;
  failed: number;
  requests: number;
}

export interface RunManifest<P extends string = string> {
  format: 'persona-lab-run';
  version: 1;
  name: string;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  status: RunStatus;
  /** how many times the run was started (1 + resumes) */
  sessions: number;
  /** `reference`: rendered by the checkout's bench_task.py (hash over its two files, text ''), not a template */
  template: { hash: string; id: string; text: string; reference?: { checkout: string } };
  systemMessage: string;
  endpoint: { baseURL: string; model: string; temperature: number; maxTokens: number | null };
  personaMode: PersonaMode;
  selection: RunSelection<P>;
  counts: RunCounts;
  error: string | null;
}

export interface ManifestInput<P extends string = string> {
  name: string;
  template: string;
  /** the benchmark's own prompt builder made the requests: `template` is then '' */
  reference?: { checkout: string; hash: string; id: string };
  systemMessage: string;
  /** already stripped of credentials (publicBaseURL) */
  baseURL: string;
  model: string;
  temperature: number;
  maxTokens: number | null;
  personaMode: PersonaMode;
  selection: RunSelection<P>;
}

export function newManifest<P extends string>(
  input: ManifestInput<P>,
  rules: ManifestRules<P>,
  now: Date = new Date(),
): RunManifest<P> {
  const at = now.toISOString();
  return {
    format: 'persona-lab-run',
    version: 1,
    name: input.name,
    createdAt: at,
    updatedAt: at,
    finishedAt: null,
    status: 'running',
    sessions: 1,
    template: input.reference
      ? {
          hash: input.reference.hash,
          id: input.reference.id,
          text: '',
          reference: { checkout: input.reference.checkout },
        }
      : { ...rules.templateKey(input.template), text: input.template },
    systemMessage: input.systemMessage,
    endpoint: {
      baseURL: input.baseURL,
      model: input.model,
      temperature: input.temperature,
      maxTokens: input.maxTokens,
    },
    personaMode: input.personaMode,
    selection: input.selection,
    counts: { users: 0, steps: 0, done: 0, failed: 0, requests: 0 },
    error: null,
  };
}

/** What must not change between the sessions of one run (the endpoint URL may: same model, another host). */
function identity(m: RunManifest): Record<string, unknown> {
  return {
    template: m.template.hash,
    systemMessage: m.systemMessage,
    model: m.endpoint.model,
    temperature: m.endpoint.temperature,
    maxTokens: m.endpoint.maxTokens,
    personaMode: m.personaMode,
    selection: m.selection,
  };
}

/** The fields that differ, by name; empty when a resume may go on. */
export function manifestConflicts(existing: RunManifest, wanted: RunManifest): string[] {
  const a = identity(existing);
  const b = identity(wanted);
  return Object.keys(a).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

function readUsers<P extends string>(
  v: unknown,
  isPartition: PartitionCheck<P>,
): Partial<Record<P, string[]>> | null | undefined {
  if (v === undefined) return undefined;
  if (!isObj(v)) return null;
  const out: Partial<Record<P, string[]>> = {};
  for (const [platform, ids] of Object.entries(v)) {
    if (!isPartition(platform) || !Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) return null;
    out[platform] = ids;
  }
  return out;
}

function readStartPersona(v: unknown): StartPersona | null {
  if (!isObj(v)) return null;
  if (v.kind === 'none') return { kind: 'none' };
  if (v.kind === 'run' && typeof v.run === 'string') return { kind: 'run', run: v.run };
  if (v.kind === 'text' && typeof v.text === 'string') return { kind: 'text', text: v.text };
  return null;
}

/** Reads run.json; null when it is missing or not one of ours. Never throws. */
export function readManifest<P extends string>(path: string, rules: ManifestRules<P>): RunManifest<P> | null {
  let value: unknown;
  try {
    value = JSON.parse(readRegularText(path));
  } catch {
    return null;
  }
  if (!isObj(value) || value.format !== 'persona-lab-run' || value.version !== 1) return null;
  const t = value.template;
  const e = value.endpoint;
  const s = value.selection;
  const c = value.counts;
  if (!isObj(t) || !isObj(e) || !isObj(s) || !isObj(c)) return null;
  const start = readStartPersona(s.startPersona);
  const users = readUsers(s.users, rules.isPartition);
  if (users === null) return null;
  if (typeof t.hash !== 'string' || typeof t.text !== 'string' || typeof e.model !== 'string' || !start) return null;
  const platforms: unknown = s.platforms;
  if (!Array.isArray(platforms) || !platforms.every(rules.isPartition)) return null;
  const num = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : d);
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const status: RunStatus = ['running', 'cancelled', 'finished', 'failed'].includes(text(value.status))
    ? (value.status as RunStatus)
    : 'failed';
  return {
    format: 'persona-lab-run',
    version: 1,
    name: text(value.name),
    createdAt: text(value.createdAt),
    updatedAt: text(value.updatedAt),
    finishedAt: typeof value.finishedAt === 'string' ? value.finishedAt : null,
    status,
    sessions: num(value.sessions, 1),
    template: {
      hash: t.hash,
      id: text(t.id) || t.hash.slice(0, 12),
      text: t.text,
      ...(isObj(t.reference) && typeof t.reference.checkout === 'string'
        ? { reference: { checkout: t.reference.checkout } }
        : {}),
    },
    systemMessage: text(value.systemMessage),
    endpoint: {
      baseURL: text(e.baseURL),
      model: e.model,
      temperature: num(e.temperature, 0),
      maxTokens: typeof e.maxTokens === 'number' ? e.maxTokens : null,
    },
    personaMode: value.personaMode === 'none' ? 'none' : 'full',
    selection: {
      platforms,
      userId: typeof s.userId === 'string' ? s.userId : null,
      fromStep: num(s.fromStep, 1),
      startPersona: start,
      ...(users ? { users } : {}),
      ...(typeof s.onlyFailedOf === 'string' ? { onlyFailedOf: s.onlyFailedOf } : {}),
    },
    counts: {
      users: num(c.users, 0),
      steps: num(c.steps, 0),
      done: num(c.done, 0),
      failed: num(c.failed, 0),
      requests: num(c.requests, 0),
    },
    error: typeof value.error === 'string' ? value.error : null,
  };
}

/** Atomic write (temp file, fsync, rename). */
export function writeManifest(path: string, manifest: object): void {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    // 'wx': a file or link already at the temp name is not written through.
    rmSync(tmp, { force: true });
    const fd = openSync(tmp, 'wx');
    try {
      writeSync(fd, JSON.stringify(manifest, null, 2) + '\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
