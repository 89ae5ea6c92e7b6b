// Labels of one benchmark, run and author, indexed by step: what the tree's badges, counts and filters read.
import type { LabelRow } from './model';

const key = (platform: string, userId: string, stepId: number) => JSON.stringify([platform, userId, stepId]);

export class StepLabelIndex {
  /** step -> distinct label ids, in the order they were first made */
  private readonly bySteps = new Map<string, string[]>();
  private readonly perUser = new Map<string, number>();
  private readonly perPlatform = new Map<string, number>();

  constructor(rows: readonly LabelRow[]) {
    for (const r of rows) {
      const k = key(r.platform, r.userId, r.stepId);
      let ids = this.bySteps.get(k);
      if (!ids) {
        this.bySteps.set(k, (ids = []));
        const u = JSON.stringify([r.platform, r.userId]);
        this.perUser.set(u, (this.perUser.get(u) ?? 0) + 1);
        this.perPlatform.set(r.platform, (this.perPlatform.get(r.platform) ?? 0) + 1);
      }
      if (!ids.includes(r.label)) ids.push(r.label);
    }
  }

  static readonly empty = new StepLabelIndex([]);

  labelsOf(platform: string, userId: string, stepId: number): readonly string[] {
    return this.bySteps.get(key(platform, userId, stepId)) ?? [];
  }

  /** Steps of the user with at least one label. */
  labelledStepsOfUser(platform: string, userId: string): number {
    return this.perUser.get(JSON.stringify([platform, userId])) ?? 0;
  }

  labelledStepsOfPlatform(platform: string): number {
    return this.perPlatform.get(platform) ?? 0;
  }

  get labelledSteps(): number {
    return this.bySteps.size;
  }
}
