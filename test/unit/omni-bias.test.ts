import { describe, expect, it } from 'vitest';
import { biasDiagnostics } from '../../src/core/omni/bias';
import { fakeBench } from './omni-fixture';

const V = 'Video Browsing' as const;

describe('biasDiagnostics', () => {
  // Real: a is a liker (halves (1, 0) and (1, 0) over [liked, shared]), b shares once (halves (0, 1) and (0, 0)).
  // Predicted: Yes everywhere except b's second shared: halves a (1, 1), (1, 1); b (1, 1), (1, 0).
  const { bench, run } = fakeBench([
    {
      user: 'a',
      index: 10,
      scene: V,
      questions: [
        ['video_liked', 'Yes', 'Yes'],
        ['video_shared', 'No', 'Yes'],
      ],
    },
    {
      user: 'a',
      index: 20,
      scene: V,
      questions: [
        ['video_liked', 'Yes', 'Yes'],
        ['video_shared', 'No', 'Yes'],
      ],
    },
    {
      user: 'b',
      index: 30,
      scene: V,
      questions: [
        ['video_liked', 'No', 'Yes'],
        ['video_shared', 'Yes', 'Yes'],
      ],
    },
    {
      user: 'b',
      index: 40,
      scene: V,
      questions: [
        ['video_liked', 'No', 'Yes'],
        ['video_shared', 'No', 'No'],
      ],
    },
  ]);
  const bias = biasDiagnostics(bench, run);

  it('positive rates per scene', () => {
    // 8 binary questions; real Yes: 3 → 0.375; predicted Yes: 7 → 0.875.
    expect(bias.perScene).toEqual([{ scene: V, n: 8, realRate: 0.375, predictedRate: 0.875 }]);
  });

  it('intra-user / inter-user distance ratio', () => {
    // Distance = RMS difference over the shared fields.
    // Real: intra = mean(d(a1,a2) = 0, d(b1,b2) = √(1/2)) = 0.353553;
    //   inter = mean(d(a1,b1) = 1, d(a1,b2) = √(1/2), d(a2,b1) = 1, d(a2,b2) = √(1/2)) = 0.853553;
    //   ratio = 0.353553 / 0.853553 = 0.414214 (√2 − 1).
    // Predicted: intra = mean(0, √(1/2)) = 0.353553; inter = mean(0, √(1/2), 0, √(1/2)) = 0.353553; ratio = 1.
    expect(bias.distanceRatio.real).toBeCloseTo(Math.SQRT2 - 1, 12);
    expect(bias.distanceRatio.predicted).toBeCloseTo(1, 12);
  });

  it('reads hyper-activity and homogenisation', () => {
    expect(bias.reading).toBe(
      'hyper-active (predicted positive rate 87.5% vs real 37.5%, above it in 1/1 scenes); ' +
        'homogenised (intra/inter distance ratio 1.00 predicted vs 0.41 real).',
    );
  });

  it('splits odd counts with the larger half first and needs two users for a ratio', () => {
    const one = fakeBench([
      { user: 'a', index: 3, scene: V, questions: [['video_liked', 'No', 'No']] },
      { user: 'a', index: 1, scene: V, questions: [['video_liked', 'No', 'No']] },
      { user: 'a', index: 2, scene: V, questions: [['video_liked', 'Yes', 'No']] },
    ]);
    const b = biasDiagnostics(one.bench, one.run);
    expect(b.distanceRatio).toEqual({ real: undefined, predicted: undefined });
    expect(b.reading).toBe(
      'not hyper-active (predicted positive rate 0.0% vs real 33.3%, above it in 0/1 scenes); ' +
        'homogenisation not measurable (needs two users with two predicted test actions and shared fields).',
    );
    // With a second user, a's halves are [#1, #2] (liked rate 0.5) and [#3] (0); b's are (1) and (1).
    // Real intra = mean(0.5, 0) = 0.25; inter = mean(|0.5−1|, |0.5−1|, |0−1|, |0−1|) = 0.75; ratio = 1/3.
    const two = fakeBench([
      ...[3, 1, 2].map((index) => ({
        user: 'a',
        index,
        scene: V,
        questions: [['video_liked', index === 2 ? 'Yes' : 'No', 'No']] as [string, string, string][],
      })),
      { user: 'b', index: 1, scene: V, questions: [['video_liked', 'Yes', 'Yes']] },
      { user: 'b', index: 2, scene: V, questions: [['video_liked', 'Yes', 'Yes']] },
    ]);
    expect(biasDiagnostics(two.bench, two.run).distanceRatio.real).toBeCloseTo(1 / 3, 12);
  });
});
