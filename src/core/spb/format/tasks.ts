// Reads one tasks file (`data/<platform>_inference_tasks.jsonl`): one user per line, steps inside.
import { markerNumber } from '../../io/pyMarkers';
import { DiagnosticSink, isInt, isRecord } from '../../io/diagnostics';
import { readSkimmedValues } from '../../io/rows';
import { skimSpec } from '../../io/skim';
import { splitIndex, tagPosition } from '../score/step';
import { attachSplitTables } from '../score/table';
import { TableUsersBuilder } from '../score/tableUsers';
import { META_KEYS, POOL_CLASSES, type Platform, type PoolSplit, type Step, type User } from '../types';
import { type LineRef } from '../../io/diagnostics';

/** Shares one string object per distinct tag: pools and meta lists repeat the same tags many times. */
export class Interner {
  private readonly table = new Map<string, string>();
  get(s: string): string {
    const hit = this.table.get(s);
    if (hit !== undefined) return hit;
    this.table.set(s, s);
    return s;
  }
}

// The posts are most of a tasks file and are read back from the line when a view shows them (load.ts).
const TASK_SKIM = skimSpec(['posts_text']);

/** Where a tasks file is read from and where its problems go. */
type TasksRead = [
  absPath: string,
  relPath: string,
  platform: Platform,
  sink: DiagnosticSink,
  intern: Interner,
  onProgress?: (bytes: number) => void,
];

export async function readTasksFile(...read: TasksRead): Promise<Map<string, User>> {
  const users = new Map<string, User>();
  await readUsers((user) => users.set(user.userId, user), ...read);
  attachSplitTables(users.values());
  return users;
}

/**
 * As readTasksFile, with the same diagnostics, for a cold figures-only load: each user kept as tables as soon as its
 * line is read (score/tableUsers.ts), and the users as objects let go.
 */
export async function readTaskTables(...read: TasksRead): Promise<ReturnType<TableUsersBuilder['finish']>> {
  const tables = new TableUsersBuilder();
  await readUsers((user) => tables.add(user), ...read);
  return tables.finish();
}

/** Each user of the file that is read and not a duplicate, in file order, to `keep`. */
async function readUsers(
  keep: (user: User) => void,
  ...[absPath, relPath, platform, sink, intern, onProgress]: TasksRead
): Promise<void> {
  const firstLine = new Map<string, number>();
  await readSkimmedValues(
    absPath,
    TASK_SKIM,
    sink,
    (value, raw) => {
      const ref: LineRef = { file: absPath, offset: raw.offset, length: raw.length, line: raw.line };
      const user = readUser(value, ref, relPath, platform, sink, intern);
      if (!user) return;
      const seen = firstLine.get(user.userId);
      if (seen !== undefined) {
        sink.warn(
          raw.line,
          'user_id',
          `duplicate user id ${user.userId} (first on line ${seen}); this line is ignored`,
        );
        return;
      }
      firstLine.set(user.userId, raw.line);
      keep(user);
    },
    onProgress,
  );
}

function readUser(
  value: unknown,
  ref: LineRef,
  relPath: string,
  platform: Platform,
  sink: DiagnosticSink,
  intern: Interner,
): User | null {
  const line = ref.line;
  if (!isRecord(value)) {
    sink.error(line, '', `expected a JSON object, got ${describe(value)}`);
    return null;
  }
  if (typeof value.user_id !== 'string' || value.user_id === '' || markerNumber(value.user_id) !== undefined) {
    sink.error(line, 'user_id', 'missing or not a string; the line is skipped');
    return null;
  }
  if (!Array.isArray(value.prediction_tasks)) {
    sink.error(
      line,
      'prediction_tasks',
      `expected an array, got ${describe(value.prediction_tasks)}; the line is skipped`,
    );
    return null;
  }
  if (value.platform !== undefined && value.platform !== platform) {
    sink.warn(line, 'platform', `"${String(value.platform)}" in a ${platform} file`);
  }
  const bio = typeof value.bio === 'string' ? value.bio : '';
  if (value.bio !== undefined && value.bio !== null && typeof value.bio !== 'string') {
    sink.warn(line, 'bio', `expected a string, got ${describe(value.bio)}`);
  }
  const steps: Step[] = [];
  const stepLine = new Map<number, number>();
  value.prediction_tasks.forEach((task, index) => {
    const step = readStep(task, index, line, sink, intern);
    if (!step) return;
    if (stepLine.has(step.stepId)) {
      sink.warn(
        line,
        `prediction_tasks[${index}].step_id`,
        `duplicate step id ${step.stepId}; the later one is ignored`,
      );
      return;
    }
    stepLine.set(step.stepId, index);
    steps.push(step);
  });
  const totalSteps = isInt(value.total_steps) ? value.total_steps : steps.length;
  if (!isInt(value.total_steps)) {
    sink.warn(line, 'total_steps', `expected an integer, got ${describe(value.total_steps)}`);
  } else if (value.total_steps !== value.prediction_tasks.length) {
    sink.warn(line, 'total_steps', `says ${value.total_steps} but ${value.prediction_tasks.length} steps are present`);
  }
  return {
    userId: value.user_id,
    platform,
    username: typeof value.username === 'string' ? value.username : '',
    bio,
    totalSteps,
    steps,
    file: relPath,
    ref,
  };
}

function readStep(task: unknown, index: number, line: number, sink: DiagnosticSink, intern: Interner): Step | null {
  const at = `prediction_tasks[${index}]`;
  if (!isRecord(task)) {
    sink.error(line, at, `expected an object, got ${describe(task)}; the step is skipped`);
    return null;
  }
  if (!isInt(task.step_id)) {
    sink.error(line, `${at}.step_id`, `expected an integer, got ${describe(task.step_id)}; the step is skipped`);
    return null;
  }
  if (!isRecord(task.meta)) {
    sink.error(line, `${at}.meta`, `missing or not an object; step ${task.step_id} is skipped`);
    return null;
  }
  if (!Array.isArray(task.candidate_pool)) {
    sink.error(line, `${at}.candidate_pool`, `expected an array; step ${task.step_id} is skipped`);
    return null;
  }
  const pool = strings(task.candidate_pool, `${at}.candidate_pool`, line, sink, intern);
  const split = {} as PoolSplit;
  for (const cls of POOL_CLASSES) {
    const key = META_KEYS[cls];
    const list = task.meta[key];
    if (list === undefined) {
      sink.warn(line, `${at}.meta.${key}`, 'missing; taken as empty');
      split[cls] = [];
    } else if (!Array.isArray(list)) {
      sink.warn(line, `${at}.meta.${key}`, `expected an array, got ${describe(list)}; taken as empty`);
      split[cls] = [];
    } else {
      split[cls] = strings(list, `${at}.meta.${key}`, line, sink, intern);
    }
  }
  checkSplit(split, pool, `${at}`, line, sink);
  return {
    stepId: task.step_id,
    totalSteps: isInt(task.total_steps) ? task.total_steps : 0,
    dateInput: typeof task.date_input === 'string' ? task.date_input : '',
    dateTarget: typeof task.date_target === 'string' ? task.date_target : '',
    pool,
    split,
    index,
  };
}

function strings(list: unknown[], at: string, line: number, sink: DiagnosticSink, intern: Interner): string[] {
  // In place when every item is a tag: the parsed array is ours and has no spare room, where one grown by push keeps
  // room for 16 tags (the users' steps are most of what a load keeps, and a meta list holds two or three tags).
  let i = 0;
  for (; i < list.length; i++) {
    const item = list[i];
    if (typeof item !== 'string') break;
    list[i] = intern.get(item);
  }
  if (i === list.length) return list as string[];
  const out: string[] = [];
  list.forEach((item, i) => {
    if (typeof item === 'string') out.push(intern.get(item));
    else sink.warn(line, `${at}[${i}]`, `non-string tag ${describe(item)} is ignored`);
  });
  return out;
}

function checkSplit(split: PoolSplit, pool: string[], at: string, line: number, sink: DiagnosticSink): void {
  // Runs for every step of every load, so it reads the scorer's index of the split (built here once, then reused
  // by every run scored on this step) instead of building sets of its own.
  const ix = splitIndex(split);
  ix.masks.forEach((mask, i) => {
    if ((mask & (mask - 1)) === 0) return;
    const owners = POOL_CLASSES.filter((_, c) => mask & (1 << c)).map((cls) => META_KEYS[cls]);
    sink.warn(line, `${at}.meta`, `tag "${ix.tags[i]}" is in both ${owners.join(' and ')}`);
  });
  const poolSet = new Set(pool);
  // The tags are distinct: the union is the pool when they have the same size and every tag is in the pool.
  if (ix.tags.length !== poolSet.size || !ix.tags.every((t) => poolSet.has(t))) {
    const missing = [...poolSet].filter((t) => tagPosition(ix, t) === -1);
    const extra = ix.tags.filter((t) => !poolSet.has(t));
    const parts = [];
    if (missing.length) parts.push(`pool tags in no meta list: ${quoteList(missing)}`);
    if (extra.length) parts.push(`meta tags not in the pool: ${quoteList(extra)}`);
    sink.warn(line, `${at}.meta`, `the meta lists' union is not the pool (${parts.join('; ')})`);
  }
  if (pool.length !== poolSet.size) sink.warn(line, `${at}.candidate_pool`, 'the pool has duplicate tags');
  if (poolSet.size > 0 && ix.K * 4 !== poolSet.size) {
    sink.warn(line, `${at}.meta`, `positives are ${ix.K} of ${poolSet.size} pool tags, not 25 %`);
  }
}

function quoteList(tags: string[]): string {
  const shown = tags
    .slice(0, 3)
    .map((t) => `"${t}"`)
    .join(', ');
  return tags.length > 3 ? `${shown} and ${tags.length - 3} more` : shown;
}

export function describe(value: unknown): string {
  value = markerNumber(value) ?? value;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'nothing';
  const t = typeof value;
  if (t === 'string') return `the string ${JSON.stringify(value).slice(0, 40)}`;
  if (t === 'object') return 'an object';
  return `${t} ${String(value)}`;
}
