// What made a PersonaMem run, beside its results file (results/eval_results_<size>_<name>.run.json): the request's
// source (the benchmark's own from a checkout, or the Persona Lab template), the endpoint and the model. The results
// CSV has the authors' columns only, so this is where a view learns that a run used our template; and a resume that
// would mix requests of another source or model into one run is refused, as is writing into a results file that
// `persona-lab run` did not make (the authors' own runs).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularText } from '../../io/safeFs';
import { isRecord } from '../../guards';
import type { RunStatus } from '../../runner/manifest';

export const PM_RUN_FORMAT = 'persona-lab/personamem-run';

export interface PmRunManifest {
  format: typeof PM_RUN_FORMAT;
  version: 1;
  name: string;
  size: string;
  request: { kind: 'template' | 'reference'; name: string; id: string; checkout: string | null };
  endpoint: { baseURL: string; model: string; temperature: number | null };
  createdAt: string;
  updatedAt: string;
  status: RunStatus;
  counts: { questions: number; done: number; failed: number; requests: number };
  error: string | null;
}

export const manifestFileName = (size: string, name: string) => `eval_results_${size}_${name}.run.json`;

/** The manifest at `path`, null when there is none, or a sentence when it is not one of ours. */
export function readPmManifest(path: string): PmRunManifest | null | string {
  if (!existsSync(path)) return null;
  try {
    const v: unknown = JSON.parse(readRegularText(path));
    if (isRecord(v) && v.format === PM_RUN_FORMAT && isRecord(v.request) && isRecord(v.endpoint))
      return v as unknown as PmRunManifest;
  } catch {
    // said below
  }
  return `${path} is not a PersonaMem run manifest`;
}

/** Why `wanted` may not continue the run `existing` describes, or null. */
export function pmResumeProblem(existing: PmRunManifest, wanted: PmRunManifest): string | null {
  const was = existing.request;
  const now = wanted.request;
  if (was.kind !== now.kind || was.id !== now.id)
    return `this run was made with ${was.name} (${was.id}); this one would send ${now.name} (${now.id}): choose another --out`;
  if (existing.endpoint.model !== wanted.endpoint.model)
    return `this run was made with model ${existing.endpoint.model}, not ${wanted.endpoint.model}: choose another --out`;
  if (existing.endpoint.temperature !== wanted.endpoint.temperature) {
    const t = (x: number | null) => (x === null ? 'none' : String(x));
    return `this run was made with temperature ${t(existing.endpoint.temperature)}, not ${t(wanted.endpoint.temperature)}: choose another --out`;
  }
  return null;
}

/**
 * Why the run `name` of a split cannot go on with this request and endpoint (as runPersonaMem would refuse it), or
 * null: asked while a name is typed, before anything is planned.
 */
export function pmRunFolderProblem(
  root: string,
  size: string,
  name: string,
  request: PmRunManifest['request'],
  endpoint: { model: string; temperature: number | null },
): string | null {
  const existing = readPmManifest(join(root, 'results', manifestFileName(size, name)));
  if (existing === null || typeof existing === 'string') return existing;
  return pmResumeProblem(existing, { ...existing, request, endpoint: { ...existing.endpoint, ...endpoint } });
}
