// What the persistent index keeps of a tasks or results file: exactly the objects the loader builds from it, in file
// order. Derived tables (split indexes, pick tables) are not stored: tag ids are per process, so they are rebuilt.
import { Decoder, Encoder } from '../../cache/codec';
import type { LineRef } from '../../io/diagnostics';
import { METRIC_KEYS, POOL_CLASSES, type Platform, type PoolSplit, type Step, type User } from '../types';
import type { StepResult, UserResult } from '../types';
import { splitIndex } from '../score/step';
import { agreesWithScore } from './results';
import { isErrorRecord } from '../score/failedRequests';
import { errorStepKey } from '../score/table';
import { FileStepResult, spanSource, storedMetricsOf, type KeptMetrics } from './stepText';

// How a step's reasoning and persona are kept: as strings, or as the byte spans a skimmed read found (stepText.ts).
const TEXTS = 0;
const TEXT_SPANS = 1;

export function encodeUsers(enc: Encoder, users: ReadonlyMap<string, User>): void {
  enc.int(users.size);
  for (const u of users.values()) {
    enc.str(u.userId);
    enc.str(u.username);
    enc.str(u.bio);
    enc.int(u.totalSteps);
    enc.float(u.ref.offset);
    enc.int(u.ref.length);
    enc.int(u.ref.line);
    enc.int(u.steps.length);
    for (const s of u.steps) {
      enc.int(s.stepId);
      enc.int(s.totalSteps);
      enc.str(s.dateInput);
      enc.str(s.dateTarget);
      enc.int(s.index);
      enc.strList(s.pool);
      for (const cls of POOL_CLASSES) enc.strList(s.split[cls]);
    }
  }
}

export function decodeUsers(
  dec: Decoder,
  abs: string,
  rel: string,
  platform: Platform,
  tag: (s: string) => string,
): Map<string, User> {
  const users = new Map<string, User>();
  for (let n = dec.count(); n > 0; n--) {
    const userId = dec.str();
    const username = dec.str();
    const bio = dec.str();
    const totalSteps = dec.int();
    const ref: LineRef = { file: abs, offset: dec.float(), length: dec.count(), line: dec.count() };
    const steps: Step[] = [];
    for (let k = dec.count(); k > 0; k--) {
      const stepId = dec.int();
      const stepTotal = dec.int();
      const dateInput = dec.str();
      const dateTarget = dec.str();
      const index = dec.count();
      const pool = dec.strList(tag);
      const split = {} as PoolSplit;
      for (const cls of POOL_CLASSES) split[cls] = dec.strList(tag);
      steps.push({ stepId, totalSteps: stepTotal, dateInput, dateTarget, pool, split, index });
    }
    users.set(userId, { userId, platform, username, bio, totalSteps, steps, file: rel, ref });
  }
  return users;
}

const NO_METRICS = 0;
const NULL_METRICS = 1;
const METRICS = 2;
/** The stored metrics are, to the bit, the step's score: recomputed when read back instead of kept. */
const SCORE_METRICS = 3;

function splitOf(users: ReadonlyMap<string, User>, userId: string, stepId: number): PoolSplit | undefined {
  return users.get(userId)?.steps.find((s) => s.stepId === stepId)?.split;
}

export function encodeResults(
  enc: Encoder,
  results: ReadonlyMap<string, UserResult>,
  users: ReadonlyMap<string, User>,
): void {
  enc.int(results.size);
  for (const r of results.values()) {
    enc.str(r.userId);
    enc.str(r.username);
    enc.int(r.line);
    enc.int(r.steps.size);
    for (const s of r.steps.values()) {
      enc.int(s.stepId);
      enc.int(s.line);
      enc.int(s.prediction.length);
      // A pick is a string id, or -(1 + id) of the JSON of a pick that is not a string (the model's own mistake).
      for (const p of s.prediction) enc.int(typeof p === 'string' ? enc.id(p) : -1 - enc.id(JSON.stringify(p)));
      // A skimmed step already knows whether its stored metrics are its score: scoring it twice more to find out
      // was a third of the index's writing time on a cold open of a paper-scale folder.
      if (s instanceof FileStepResult && s.storedIsScore) enc.int(SCORE_METRICS);
      else encodeMetrics(enc, s.storedMetrics, users, r.userId, s);
      if (s instanceof FileStepResult) {
        enc.int(TEXT_SPANS);
        enc.float(s.reasoningAt);
        enc.int(s.reasoningLength);
        enc.float(s.personaAt);
        enc.int(s.personaLength);
      } else {
        enc.int(TEXTS);
        enc.str(s.reasoning);
        enc.str(s.personaSummary);
      }
    }
  }
}

function encodeMetrics(
  enc: Encoder,
  m: StepResult['storedMetrics'],
  users: ReadonlyMap<string, User>,
  userId: string,
  s: StepResult,
): void {
  const split = m ? splitOf(users, userId, s.stepId) : undefined;
  if (m === undefined) enc.int(NO_METRICS);
  else if (m === null) enc.int(NULL_METRICS);
  else if (split && agreesWithScore(m, split, s.prediction, true)) enc.int(SCORE_METRICS);
  else {
    enc.int(METRICS);
    for (const key of METRIC_KEYS) enc.float(m[key]);
  }
}

export function decodeResults(
  dec: Decoder,
  abs: string,
  rel: string,
  platform: Platform,
  users: ReadonlyMap<string, User>,
  tag: (s: string) => string,
): Map<string, UserResult> {
  const results = new Map<string, UserResult>();
  // Checked by the index's stamp just before; unreadable since, its texts read as '' like any file gone.
  const source = spanSource(abs) ?? { path: abs, size: -1, mtimeMs: -1 };
  for (let n = dec.count(); n > 0; n--) {
    const user = users.get(dec.str());
    if (!user) throw new RangeError('cache: a result row whose user is not in the tasks');
    const username = dec.str();
    const line = dec.count();
    const steps = new Map<number, StepResult>();
    for (let k = dec.count(); k > 0; k--) {
      const stepId = dec.int();
      const stepLine = dec.count();
      const prediction: unknown[] = new Array<unknown>(dec.count());
      for (let i = 0; i < prediction.length; i++) {
        const code = dec.int();
        prediction[i] = code >= 0 ? tag(dec.strAt(code)) : (JSON.parse(dec.strAt(-1 - code)) as unknown);
      }
      const flag = dec.count();
      let storedMetrics: KeptMetrics;
      if (flag === NULL_METRICS) storedMetrics = null;
      else if (flag === SCORE_METRICS) {
        const split = splitOf(users, user.userId, stepId);
        if (!split || splitIndex(split).K === 0) throw new RangeError('cache: metrics of a step that is not scored');
        storedMetrics = { scoredBy: split };
      } else if (flag === METRICS) {
        const n = () => dec.float();
        storedMetrics = {
          Recall: n(),
          Recall_Novelty: n(),
          Recall_Stability: n(),
          Error_Decay: n(),
          Error_Peer: n(),
          Error_Viral: n(),
          Error_Random: n(),
        };
      } else if (flag !== NO_METRICS) throw new RangeError(`cache: metrics flag ${flag}`);
      const texts = dec.count();
      if (texts === TEXT_SPANS) {
        const [rAt, rLength, pAt, pLength] = [dec.float(), dec.count(), dec.float(), dec.count()];
        steps.set(
          stepId,
          new FileStepResult(stepId, prediction, storedMetrics, stepLine, source, rAt, rLength, pAt, pLength),
        );
      } else if (texts === TEXTS) {
        const reasoning = dec.str();
        const personaSummary = dec.str();
        const metrics = storedMetricsOf(storedMetrics, prediction);
        steps.set(stepId, { stepId, prediction, storedMetrics: metrics, reasoning, personaSummary, line: stepLine });
      } else throw new RangeError(`cache: texts flag ${texts}`);
    }
    results.set(user.userId, { userId: user.userId, platform, username, steps, file: rel, line });
  }
  return results;
}

/**
 * The scorer's pick table of each row (see score/table.ts), with picks as indexes into this cache's strings: tag
 * ids are per process, so they are mapped when the table is read back.
 */
export function encodePickRows(
  enc: Encoder,
  results: ReadonlyMap<string, UserResult>,
  users: ReadonlyMap<string, User>,
): void {
  let total = 0;
  for (const r of results.values())
    for (const s of users.get(r.userId)?.steps ?? []) total += 1 + (r.steps.get(s.stepId)?.prediction.length ?? 0);
  enc.int(results.size);
  enc.int(total);
  for (const r of results.values()) {
    const user = users.get(r.userId);
    if (!user) throw new RangeError('a result row whose user is not in the tasks');
    enc.str(r.userId);
    for (const s of user.steps) {
      const step = r.steps.get(s.stepId);
      if (!step) {
        enc.int(-1);
        continue;
      }
      enc.int(step.prediction.length);
      for (const p of step.prediction) enc.int(typeof p === 'string' ? enc.id(p) : -1);
      // Whether an empty step is an error record, so that a warm job counts failed requests without the rows.
      if (step.prediction.length === 0) enc.int(isErrorRecord(step) ? 1 : 0);
    }
  }
}

/** The rows' pick tables with this process's tag ids; throws when the cache does not fit the users. */
export function decodePickRows(
  dec: Decoder,
  users: ReadonlyMap<string, User>,
  tagIdOf: (tag: string) => number,
): { rows: { user: User; picks: Int32Array }[]; errorSteps: Set<string> } {
  const ids = dec.table.map(tagIdOf);
  const errorSteps = new Set<string>();
  const rows: { user: User; picks: Int32Array }[] = [];
  const n = dec.count();
  // One buffer for the file, each row a view of it, as the loader builds them.
  const buffer = new Int32Array(dec.count());
  let at = 0;
  for (let r = 0; r < n; r++) {
    const user = users.get(dec.str());
    if (!user) throw new RangeError('cache: a result row whose user is not in the tasks');
    const start = at;
    for (let k = 0; k < user.steps.length; k++) {
      const count = dec.int();
      buffer[at++] = count;
      for (let i = 0; i < count; i++) {
        const local = dec.int();
        buffer[at++] = local < 0 ? -1 : (ids[local] ?? -1);
      }
      if (count === 0 && dec.count() === 1) errorSteps.add(errorStepKey(user.userId, user.steps[k].stepId));
    }
    rows.push({ user, picks: buffer.subarray(start, at) });
  }
  if (at !== buffer.length) throw new RangeError('cache: pick table length');
  return { rows, errorSteps };
}
