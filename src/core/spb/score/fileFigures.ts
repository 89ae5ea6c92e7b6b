// A results file's figures folded row by row as it is read (a cold `score --no-cache`): each row's user score, its
// score without failed requests, its coverage and its counts are taken when the row is read and the row is let go,
// as the Python peer reduces each line. The users are tables (tableUsers.ts), and a row is scored and counted from
// its pick table as scoreRun and runCoverage read the loader's tables (scoreFromTables, presentSteps), with
// isErrorRecord and aggregateUsers' sums, in the file's order: the same figures to the bit.
import { CoverageKey } from '../../coverage';
import { presentSteps } from './coverage';
import { isErrorRecord } from './failedRequests';
import { UserAccumulator } from './run';
import { UsersSum, type UserScore } from './step';
import type { PlatformFigures } from './stored';
import { rowPickTable, type TableUser } from './tableUsers';
import type { Platform, StepResult, UserResult } from '../types';

const notFailed = (s: StepResult) => !isErrorRecord(s);

export class FileFigures {
  // The users' scores summed as they come, not kept: a list per file outlived two scavenges and was old garbage.
  private readonly scores = new UsersSum();
  private readonly excluding = new UsersSum();
  private readonly key = new CoverageKey();
  private readonly acc = new UserAccumulator();
  private usersCovered = 0;
  private stepsCovered = 0;
  private failed = 0;
  private steps = 0;
  /** Rows folded (the file's rows, as its map's size would be). */
  rows = 0;

  /** `users`: the platform's users, which the reader looks each row's user up in. */
  constructor(
    private readonly platform: Platform,
    readonly users: ReadonlyMap<string, TableUser>,
  ) {}

  add(user: TableUser, row: UserResult): void {
    this.rows++;
    let failed = 0;
    for (const s of row.steps.values()) {
      this.steps++;
      if (isErrorRecord(s)) failed++;
    }
    this.failed += failed;
    const picks = rowPickTable(user, row.steps);
    const score = this.score(user, picks);
    if (score) this.scores.add(score);
    // A row without a failed step scores the same steps in the same order without them: the same score.
    const without = failed === 0 ? score : this.score(user, rowPickTable(user, row.steps, notFailed));
    if (without) this.excluding.add(without);
    const present = presentSteps(user.splits, picks, this.key, CoverageKey.of(user.userId));
    if (present > 0) {
      this.usersCovered++;
      this.stepsCovered += present;
    }
  }

  private score(user: TableUser, picks: Int32Array): UserScore | null {
    this.acc.reset();
    this.acc.addTables(user.splits, picks);
    return this.acc.score();
  }

  finish(): PlatformFigures {
    const score = this.scores.aggregate();
    // Nothing failed: the reading without failed requests is the official figure itself, as failedRequests takes it.
    const without = this.failed === 0 ? score : this.excluding.aggregate();
    const count = (covered: number) => ({ covered, total: 0 });
    return {
      score,
      coverage: {
        users: count(this.usersCovered),
        items: count(this.stepsCovered),
        key: `${this.platform}=${this.key.key}`,
      },
      failed: { failed: this.failed, steps: this.steps, recallExcludingFailed: without.metrics.Recall },
    };
  }
}
