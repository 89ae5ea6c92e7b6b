// The allocation-free scoring path (countHits, scoreRun's per-user sums) against plain set arithmetic.
import { describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { mulberry32 } from '../../src/core/stats/random';
import { scoreRun, scoreUserOfRun } from '../../src/core/spb/score/run';
import { scoreStep, splitIndex } from '../../src/core/spb/score/step';
import { platformTableOf, splitTableOf } from '../../src/core/spb/score/table';
import { METRIC_KEYS, POOL_CLASSES, type PoolSplit, type Run, type StepMetrics } from '../../src/core/spb/types';
import { SAMPLE } from '../support/committedSample';

/** The reference's reading, with sets: |P ∩ S| / |S|, NaN for an empty S; null without positives. */
function setScore(split: PoolSplit, prediction: readonly unknown[]): StepMetrics | null {
  const picks = new Set(prediction.filter((p): p is string => typeof p === 'string'));
  const set = (...lists: string[][]) => new Set(lists.flat());
  const rate = (s: Set<string>) => (s.size === 0 ? NaN : [...s].filter((t) => picks.has(t)).length / s.size);
  const positives = set(split.tKeep, split.tNew);
  if (positives.size === 0) return null;
  return {
    Recall: rate(positives),
    Recall_Novelty: rate(set(split.tNew)),
    Recall_Stability: rate(set(split.tKeep)),
    Error_Decay: rate(set(split.dDecay)),
    Error_Peer: rate(set(split.dPeer)),
    Error_Viral: rate(set(split.dViral)),
    Error_Random: rate(set(split.dRandom)),
  };
}

function randomCase(rand: () => number, tagCount: number): { split: PoolSplit; prediction: unknown[] } {
  const tag = () => `#t${Math.floor(rand() * tagCount)}#`;
  const split = {} as PoolSplit;
  for (const cls of POOL_CLASSES) split[cls] = Array.from({ length: Math.floor(rand() * (tagCount / 3)) }, tag);
  const prediction: unknown[] = Array.from({ length: Math.floor(rand() * 40) }, () => (rand() < 0.1 ? 7 : tag()));
  return { split, prediction };
}

describe('scoring kernel', () => {
  it('matches set arithmetic on random splits, small and large, with duplicates, overlaps and non-strings', () => {
    const rand = mulberry32(7);
    for (let i = 0; i < 3000; i++) {
      const { split, prediction } = randomCase(rand, i % 3 === 0 ? 200 : 20);
      const ours = scoreStep(split, prediction);
      const want = setScore(split, prediction);
      if (want === null) {
        expect(ours).toBeNull();
        continue;
      }
      for (const key of METRIC_KEYS) expect(ours![key], `case ${i} ${key}`).toBe(want[key]);
    }
  });

  it('indexes a split with more tags than a scan handles through a map', () => {
    const tags = Array.from({ length: 100 }, (_, i) => `#t${i}#`);
    const split: PoolSplit = {
      tKeep: tags.slice(0, 50),
      tNew: tags.slice(50),
      dDecay: [],
      dPeer: [],
      dViral: [],
      dRandom: [],
    };
    expect(splitIndex(split).byTag?.size).toBe(100);
    expect(scoreStep(split, [...tags.slice(0, 10), ...tags.slice(0, 10), '#t99#'])!.Recall).toBe(11 / 100);
  });

  it('gives the same per-user figures as scoring step by step, to the last bit', async () => {
    const bench = await loadBenchmark(SAMPLE);
    expect(bench.runs.size).toBeGreaterThan(1);
    for (const run of bench.runs.values()) {
      const score = scoreRun(bench, run);
      for (const [platform, figures] of score.platforms) {
        const users = bench.users.get(platform)!;
        const expected = [...run.results.get(platform)!.keys()]
          .map((id) => [id, scoreUserOfRun(run, users.get(id)!)] as const)
          .filter(([, s]) => s !== null);
        expect([...figures.userScores.keys()]).toEqual(expected.map(([id]) => id));
        for (const [id, want] of expected) expect(figures.userScores.get(id), `${run.name} ${id}`).toEqual(want);
      }
    }
  });

  it("scores results without the loader's tables (built in memory) the same way", async () => {
    const bench = await loadBenchmark(SAMPLE);
    for (const run of bench.runs.values()) {
      const user = [...bench.users.get('weibo')!.values()][0];
      expect(splitTableOf(user)).toBeDefined();
      // Copies carry no hidden tables.
      const copy: Run = {
        ...run,
        results: new Map([...run.results].map(([p, m]) => [p, new Map([...m].map(([id, r]) => [id, { ...r }]))])),
      };
      expect(platformTableOf(run.results.get('weibo')!, bench.users.get('weibo')!)).toBeDefined();
      expect(platformTableOf(copy.results.get('weibo')!, bench.users.get('weibo')!)).toBeUndefined();
      expect(scoreRun(bench, copy)).toEqual(scoreRun(bench, run));
    }
  });

  it('does not use the tables of a run loaded with other tasks (a reload)', async () => {
    const first = await loadBenchmark(SAMPLE);
    const second = await loadBenchmark(SAMPLE);
    for (const [name, run] of first.runs) {
      expect(platformTableOf(run.results.get('weibo')!, second.users.get('weibo')!)).toBeUndefined();
      expect(scoreRun(second, run)).toEqual(scoreRun(second, second.runs.get(name)!));
    }
  });
});
