// Users as a cold figures-only load keeps them (`score --no-cache`): each user's step ids and split table (table.ts),
// no step objects, meta lists or split indexes. Those are most of what a load keeps, and a job that folds each
// results row into its figures as it is read (fileFigures.ts) needs only what the tables hold.
import { splitTableSize, scoreFromTables, writePickTable, writeSplitTable } from './table';
import { tagId } from './step';
import type { PlatformTotals } from './stored';
import type { StepResult, User } from '../types';

export interface TableUser {
  userId: string;
  /** the user's step ids, in the tasks' order */
  stepIds: Int32Array;
  /** the user's split table, a step per entry in the same order (table.ts) */
  splits: Int32Array;
}

/** One step of a TableUser: its entry in the user's split table. */
export interface TableStep {
  splits: Int32Array;
  at: number;
  end: number;
}

/**
 * A tasks file's users as tables, built one user at a time as each line is read, so that the user's objects die
 * young: one buffer of split tables and one of step ids for the file, each user a view of both.
 */
export class TableUsersBuilder {
  private splits = new Int32Array(1 << 16);
  private stepIds = new Int32Array(1 << 12);
  private splitsAt = 0;
  private stepsAt = 0;
  private readonly kept: { userId: string; splitsAt: number; stepsAt: number; steps: number }[] = [];
  private readonly totals: PlatformTotals = { users: 0, steps: 0 };

  add(user: User): void {
    const size = splitTableSize(user);
    this.splits = grown(this.splits, this.splitsAt + size);
    this.stepIds = grown(this.stepIds, this.stepsAt + user.steps.length);
    writeSplitTable(user, this.splits.subarray(this.splitsAt, this.splitsAt + size));
    user.steps.forEach((s, i) => (this.stepIds[this.stepsAt + i] = s.stepId));
    this.kept.push({ userId: user.userId, splitsAt: this.splitsAt, stepsAt: this.stepsAt, steps: user.steps.length });
    this.splitsAt += size;
    this.stepsAt += user.steps.length;
    // As totalsIn counts: a user without steps has nothing a run could cover.
    if (user.steps.length > 0) {
      this.totals.users++;
      this.totals.steps += user.steps.length;
    }
  }

  /** The users in the order added, and the totals a run's coverage counts against. */
  finish(): { users: Map<string, TableUser>; totals: PlatformTotals } {
    const splits = this.splits.slice(0, this.splitsAt);
    const stepIds = this.stepIds.slice(0, this.stepsAt);
    const users = new Map<string, TableUser>();
    this.kept.forEach((k, i) => {
      const splitsEnd = i + 1 < this.kept.length ? this.kept[i + 1].splitsAt : splits.length;
      users.set(k.userId, {
        userId: k.userId,
        stepIds: stepIds.subarray(k.stepsAt, k.stepsAt + k.steps),
        splits: splits.subarray(k.splitsAt, splitsEnd),
      });
    });
    return { users, totals: this.totals };
  }
}

function grown(buffer: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
  if (size <= buffer.length) return buffer;
  const out = new Int32Array(Math.max(size, buffer.length * 2));
  out.set(buffer);
  return out;
}

/** The user's step with this id; undefined when the user has none. */
export function tableStep(user: TableUser, stepId: number): TableStep | undefined {
  let at = 0;
  for (let i = 0; i < user.stepIds.length; i++) {
    const end = at + 8 + 2 * user.splits[at + 7];
    if (user.stepIds[i] === stepId) return { splits: user.splits, at, end };
    at = end;
  }
  return undefined;
}

const sums = new Float64Array(7);
const counts = new Int32Array(7);
let onePick = new Int32Array(64);

/**
 * The step's metrics (METRIC_KEYS order, NaN for an empty class) into `out`; false when the step is not scored (no
 * positives). scoreFromTables over this step alone: the same arithmetic as countHits and metricsFromHits.
 */
export function tableStepValues(step: TableStep, prediction: readonly unknown[], out: Float64Array): boolean {
  onePick = grown(onePick, prediction.length + 1);
  onePick[0] = prediction.length;
  for (let j = 0; j < prediction.length; j++) onePick[j + 1] = tagId(prediction[j]);
  sums.fill(0);
  counts.fill(0);
  if (scoreFromTables(step.splits.subarray(step.at, step.end), onePick, sums, counts) === 0) return false;
  for (let m = 0; m < 7; m++) out[m] = counts[m] === 0 ? NaN : sums[m];
  return true;
}

/** A results row's pick table against the user's steps (table.ts), leaving out the steps `keep` does not keep. */
export function rowPickTable(
  user: TableUser,
  steps: ReadonlyMap<number, StepResult>,
  keep?: (step: StepResult) => boolean,
): Int32Array {
  let size = user.stepIds.length;
  for (const s of steps.values()) size += s.prediction.length;
  const table = new Int32Array(size);
  writePickTable(user.stepIds, steps, table, keep);
  return table;
}
