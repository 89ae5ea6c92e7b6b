// Builds an OmniBenchmark and one run in memory, for score and bias tests with hand-computed values.
import { FIELDS, predictedBinaryLabel } from '../../src/core/omni/fields';
import type { HistoryIndex } from '../../src/core/omni/history';
import {
  predictionKey,
  type OmniBenchmark,
  type OmniRun,
  type OmniUser,
  type Question,
  type Scene,
} from '../../src/core/omni/types';

/** [field, true value, predicted value, judge score?] */
export type Q = [string, string | number | null, string | number | null, number?];

export interface FakeAction {
  user: string;
  index: number;
  scene: Scene;
  normaliser?: number;
  questions: Q[];
}

const emptyIndex = (userId: string): HistoryIndex => ({
  userId,
  profile: '',
  count: 0,
  offsets: new Float64Array(0),
  lengths: new Uint32Array(0),
  lines: new Uint32Array(0),
  scenes: new Uint8Array(0),
  times: new Float64Array(0),
  behaviours: new Uint32Array(0),
});

export function question([field, trueValue, predictedValue, judgeScore]: Q): Question {
  const kind = FIELDS[field].kind;
  const q: Question = {
    type: kind,
    field,
    trueValue,
    predictedValue,
    predictedLabel: kind === 'binary' ? predictedBinaryLabel(null, predictedValue) : null,
    rawOutput: String(predictedValue),
  };
  if (judgeScore !== undefined) q.judgeScore = judgeScore;
  return q;
}

export function fakeBench(actions: FakeAction[]): { bench: OmniBenchmark; run: OmniRun } {
  const bench: OmniBenchmark = { root: '/fake', users: new Map(), runs: new Map(), diagnostics: [] };
  const run: OmniRun = {
    name: 'fake',
    dir: '/fake/results/fake',
    file: 'results/fake/predictions.jsonl',
    predictions: new Map(),
  };
  actions.forEach((a, i) => {
    let user = bench.users.get(a.user);
    if (!user) {
      user = {
        userId: a.user,
        profile: '',
        file: `/fake/raw/${a.user}.json`,
        relFile: `raw/${a.user}.json`,
        historyLength: 1000,
        index: emptyIndex(a.user),
        testActions: [],
      } satisfies OmniUser;
      bench.users.set(a.user, user);
    }
    user.testActions.push({
      userId: a.user,
      index: a.index,
      scene: a.scene,
      timestamp: '2025-03-01',
      fields: a.questions.map((q) => q[0]),
      line: i + 1,
      normaliser: a.normaliser,
    });
    run.predictions.set(predictionKey(a.user, a.index), {
      userId: a.user,
      index: a.index,
      questions: a.questions.map(question),
      file: run.file,
      line: i + 1,
    });
  });
  bench.runs.set(run.name, run);
  return { bench, run };
}
