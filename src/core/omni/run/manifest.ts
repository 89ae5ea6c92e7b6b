// results/<name>/run.json of an OmniBehavior run: what made it (the prompt source, the endpoint without credentials,
// the history budget, the selection), so that a resume refuses to mix two configurations and every view can say
// whether the run used the benchmark's own prompt. Never holds the API key.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isRecord } from '../../guards';
import type { RunStatus } from '../../runner/manifest';
import { MANIFEST_FILE } from '../../runner/runFolder';
import { readRegularText } from '../../io/safeFs';

export const OMNI_RUN_FORMAT = 'persona-lab-omni-run';
export const OMNI_TEMPLATE_MARK = "Persona Lab's prompt, not the benchmark's";

export interface OmniRunSelection {
  /** one user's test actions, or null for every user */
  userId: string | null;
  /** one test action of that user (its index in the raw history), or null for all of them */
  index: number | null;
}

export interface OmniRunManifest {
  format: typeof OMNI_RUN_FORMAT;
  version: 1;
  name: string;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  status: RunStatus;
  sessions: number;
  prompt: { kind: 'template' | 'reference'; name: string; id: string; hash: string; checkout: string | null };
  endpoint: { baseURL: string; model: string; temperature: number | null };
  maxHistoryTokens: number;
  selection: OmniRunSelection;
  counts: { actions: number; done: number; failed: number; requests: number };
  error: string | null;
}

/** What must not change between the sessions of one run. */
export type OmniRunIdentity = Pick<OmniRunManifest, 'maxHistoryTokens' | 'selection'> & {
  prompt: Pick<OmniRunManifest['prompt'], 'hash'>;
  endpoint: Pick<OmniRunManifest['endpoint'], 'model' | 'temperature'>;
};

/** The identity of a run about to start, from what it will be run with. */
export function omniRunIdentity(
  source: { hash: string },
  opts: { model: string; temperature?: number | null; maxHistoryTokens: number },
  selection: { userId?: string | null; index?: number | null },
): OmniRunIdentity {
  return {
    prompt: { hash: source.hash },
    endpoint: { model: opts.model, temperature: opts.temperature ?? null },
    maxHistoryTokens: opts.maxHistoryTokens,
    selection: { userId: selection.userId ?? null, index: selection.index ?? null },
  };
}

export function omniManifestConflicts(a: OmniRunIdentity, b: OmniRunIdentity): string[] {
  const id = (m: OmniRunIdentity): Record<string, unknown> => ({
    prompt: m.prompt.hash,
    model: m.endpoint.model,
    temperature: m.endpoint.temperature,
    maxHistoryTokens: m.maxHistoryTokens,
    selection: m.selection,
  });
  const x = id(a);
  const y = id(b);
  return Object.keys(x).filter((k) => JSON.stringify(x[k]) !== JSON.stringify(y[k]));
}

/**
 * Why a run with these settings cannot go into `dir` (results another tool wrote, or a run started with other
 * settings), or null when it can start or resume there. Asked before anything is planned or sent.
 */
export function omniResumeProblem(dir: string, wanted: OmniRunIdentity): string | null {
  if (!existsSync(dir)) return null;
  const existing = readOmniManifest(join(dir, MANIFEST_FILE));
  if (!existing && readdirSync(dir).some((f) => f.endsWith('.jsonl')))
    return `${dir} holds results that this tool did not start; choose another run name`;
  const conflicts = existing ? omniManifestConflicts(existing, wanted) : [];
  return conflicts.length
    ? `${dir} was started with a different ${conflicts.join(', ')}; choose another run name`
    : null;
}

/** run.json of an OmniBehavior run folder; null when missing or not one of ours. Never throws. */
export function readOmniManifest(path: string): OmniRunManifest | null {
  let v: unknown;
  try {
    v = JSON.parse(readRegularText(path));
  } catch {
    return null;
  }
  if (!isRecord(v) || v.format !== OMNI_RUN_FORMAT || v.version !== 1) return null;
  const { prompt, endpoint, selection, counts } = v;
  if (!isRecord(prompt) || !isRecord(endpoint) || !isRecord(selection) || !isRecord(counts)) return null;
  if (prompt.kind !== 'template' && prompt.kind !== 'reference') return null;
  const text = (x: unknown) => (typeof x === 'string' ? x : '');
  const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : 0);
  const status = ['running', 'cancelled', 'finished', 'failed'].includes(text(v.status))
    ? (v.status as RunStatus)
    : 'failed';
  return {
    format: OMNI_RUN_FORMAT,
    version: 1,
    name: text(v.name),
    createdAt: text(v.createdAt),
    updatedAt: text(v.updatedAt),
    finishedAt: typeof v.finishedAt === 'string' ? v.finishedAt : null,
    status,
    sessions: num(v.sessions) || 1,
    prompt: {
      kind: prompt.kind,
      name: text(prompt.name),
      id: text(prompt.id),
      hash: text(prompt.hash),
      checkout: typeof prompt.checkout === 'string' ? prompt.checkout : null,
    },
    endpoint: {
      baseURL: text(endpoint.baseURL),
      model: text(endpoint.model),
      temperature: typeof endpoint.temperature === 'number' ? endpoint.temperature : null,
    },
    maxHistoryTokens: num(v.maxHistoryTokens),
    selection: {
      userId: typeof selection.userId === 'string' ? selection.userId : null,
      index: typeof selection.index === 'number' ? selection.index : null,
    },
    counts: {
      actions: num(counts.actions),
      done: num(counts.done),
      failed: num(counts.failed),
      requests: num(counts.requests),
    },
    error: typeof v.error === 'string' ? v.error : null,
  };
}

/** The mark a run carries in every view when Persona Lab's own prompt made it; null for the benchmark's. */
export function omniRunMark(m: OmniRunManifest | null): string | null {
  return m?.prompt.kind === 'template' ? OMNI_TEMPLATE_MARK : null;
}
