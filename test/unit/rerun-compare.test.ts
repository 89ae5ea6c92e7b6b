import { describe, expect, it } from 'vitest';
import { ablationTable } from '../../src/core/spb/rerun/ablation';
import {
  attemptFromRecord,
  buildComparison,
  readRerunMeta,
  summarizeAttempt,
  type AttemptRow,
} from '../../src/core/spb/rerun/attemptCompare';
import type { StepRunRecord } from '../../src/core/spb/run/step';
import type { Run, Step, StepResult, User } from '../../src/core/spb/types';

const step: Step = {
  stepId: 2,
  totalSteps: 3,
  dateInput: '2024-01-02',
  dateTarget: '2024-01-12',
  index: 1,
  pool: ['k1', 'k2', 'n1', 'd1', 'p1', 'v1', 'r1', 'r2'],
  split: { tKeep: ['k1', 'k2'], tNew: ['n1'], dDecay: ['d1'], dPeer: ['p1'], dViral: ['v1'], dRandom: ['r1', 'r2'] },
};

const original: StepResult = {
  stepId: 2,
  prediction: ['k1', 'd1', 'zzz', 'k1'],
  storedMetrics: undefined,
  reasoning: 'old reasoning',
  personaSummary: '喜欢 跑步 和 咖啡',
  line: 1,
};

function attempt(over: Partial<AttemptRow> = {}): AttemptRow {
  return {
    id: 7,
    run: 'rerun',
    templateId: 'abcdef012345',
    model: 'm',
    baseURL: 'http://h/v1',
    personaIn: null,
    system: 's',
    prompt: 'p',
    raw: '{}',
    flags: [{ code: 'count', severity: 'warning', message: '3 tags predicted, 2 asked for.' }],
    error: null,
    prediction: ['k2', 'n1', 'p1'],
    reasoning: 'new reasoning',
    personaSummary: '喜欢 跑步 和 茶',
    tries: [{}, {}],
    latencyMs: 123.6,
    usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120 },
    createdAt: '2024-05-01T10:00:00.000Z',
    meta: { kind: 'rerun', personaMode: 'none', baseRun: 'demo', templateName: 'short' },
    ...over,
  };
}

describe('buildComparison', () => {
  const c = buildComparison({ step, original, originalRun: 'demo', originalPersonaIn: 'earlier', attempt: attempt() });

  it('lists the tags that flipped, positives first', () => {
    expect(c.flipped.map((f) => [f.tag, f.kind, f.group])).toEqual([
      ['k2', 'gained', 'T_keep'],
      ['n1', 'gained', 'T_new'],
      ['k1', 'lost', 'T_keep'],
      ['p1', 'newWrong', 'D_peer'],
      ['d1', 'fixedWrong', 'D_decay'],
    ]);
  });

  it("marks each side's distinct picks with their class and flip", () => {
    expect(c.original.picks.map((p) => [p.tag, p.mark, p.group, p.flip])).toEqual([
      ['k1', 'hit', 'T_keep', 'lost'],
      ['d1', 'wrongPick', 'D_decay', 'fixedWrong'],
      ['zzz', 'outside', null, null],
    ]);
    expect(c.original.predicted).toBe(4);
    expect(c.rerun.picks.map((p) => [p.tag, p.flip])).toEqual([
      ['k2', 'gained'],
      ['n1', 'gained'],
      ['p1', 'newWrong'],
    ]);
    expect(c.original.personaIn).toBe('earlier');
    expect(c.rerun.personaIn).toBeNull();
  });

  it('gives metric deltas in percentage points with a trend', () => {
    const m = Object.fromEntries(c.metrics.map((d) => [d.key, d]));
    expect(m.Recall).toMatchObject({
      beforeText: '33.3 %',
      afterText: '66.7 %',
      deltaText: '+33.3 pp',
      trend: 'better',
    });
    expect(m.Recall_Novelty).toMatchObject({ before: 0, after: 1, deltaText: '+100.0 pp', trend: 'better' });
    expect(m.Recall_Stability).toMatchObject({ deltaText: '±0.0 pp', trend: 'same' });
    expect(m.Error_Peer).toMatchObject({ deltaText: '+100.0 pp', trend: 'worse' });
    expect(m.Error_Decay).toMatchObject({ deltaText: '−100.0 pp', trend: 'better' });
    expect(JSON.stringify(c)).not.toMatch(/NaN|Infinity/);
  });

  it('diffs the two written personas and carries flags, tries, latency and usage', () => {
    expect(c.personaDiff?.filter((p) => p.kind !== 'same').map((p) => [p.kind, p.text])).toEqual([
      ['removed', '咖啡'],
      ['added', '茶'],
    ]);
    expect(c.flags).toEqual([{ code: 'count', severity: 'warning', message: '3 tags predicted, 2 asked for.' }]);
    expect(c).toMatchObject({
      tries: 2,
      latencyMs: 124,
      usage: { totalTokens: 120 },
      scored: true,
      originalRun: 'demo',
      hasReply: true,
    });
    expect(c.attempt).toMatchObject({
      id: 7,
      personaMode: 'none',
      baseRun: 'demo',
      templateName: 'short',
      recallText: '66.7 %',
      totalTokens: 120,
    });
  });

  it('handles a step without an original result and a failed re-run', () => {
    const d = buildComparison({
      step,
      original: undefined,
      originalRun: null,
      originalPersonaIn: '',
      attempt: attempt({
        prediction: [],
        error: 'boom',
        personaSummary: '',
        reasoning: 'Error: boom',
        meta: null,
        raw: '',
        flags: [],
      }),
    });
    expect(d.original.hasResult).toBe(false);
    expect(d.hasReply).toBe(false);
    expect(d.flipped).toEqual([]);
    expect(d.personaDiff).toBeNull();
    expect(d.metrics.find((m) => m.key === 'Recall')).toMatchObject({
      before: null,
      after: 0,
      deltaText: '—',
      trend: 'na',
    });
    expect(d.attempt.personaMode).toBe('chain');
  });

  it('reports an unscored step (no positives) without numbers', () => {
    const empty: Step = { ...step, split: { ...step.split, tKeep: [], tNew: [] } };
    const d = buildComparison({
      step: empty,
      original,
      originalRun: 'demo',
      originalPersonaIn: '',
      attempt: attempt(),
    });
    expect(d.scored).toBe(false);
    expect(d.metrics.every((m) => m.beforeText === '—' && m.afterText === '—')).toBe(true);
  });
});

describe('attempt rows and meta', () => {
  it('reads only well-formed re-run meta', () => {
    expect(readRerunMeta({ kind: 'rerun', personaMode: 'edited', baseRun: null, templateName: 't' })).toEqual({
      kind: 'rerun',
      personaMode: 'edited',
      baseRun: null,
      templateName: 't',
    });
    expect(readRerunMeta({ kind: 'rerun', personaMode: 'weird' })).toBeNull();
    expect(readRerunMeta(null)).toBeNull();
  });

  it('builds a row from a step record when no history is available', () => {
    const rec = {
      platform: 'weibo',
      userId: 'we_1',
      username: 'U_1',
      stepId: 2,
      stepIndex: 1,
      templateId: 't',
      personaIn: 'x',
      system: 's',
      prompt: 'p',
      k: 2,
      raw: 'r',
      parsed: null,
      error: null,
      prediction: ['k1'],
      reasoning: 'why',
      personaSummary: 'ps',
      personaNext: 'ps',
      groundTruth: [],
      metrics: null,
      attempts: [],
      latencyMs: 5,
      usage: null,
      at: '2024-01-01T00:00:00.000Z',
    } satisfies StepRunRecord;
    const row = attemptFromRecord(
      rec,
      {
        run: 'rerun',
        model: 'm',
        baseURL: 'http://h/v1',
        meta: { kind: 'rerun', personaMode: 'carried', baseRun: 'demo', templateName: 'x' },
      },
      -1,
    );
    expect(summarizeAttempt(step, row)).toMatchObject({
      id: -1,
      personaMode: 'carried',
      recallText: '33.3 %',
      totalTokens: null,
    });
  });
});

describe('ablationTable', () => {
  const user: User = {
    userId: 'we_1',
    platform: 'weibo',
    username: 'U_1',
    bio: '',
    totalSteps: 2,
    file: 'f',
    ref: { file: 'f', offset: 0, length: 0, line: 1 },
    steps: [
      { ...step, stepId: 1, index: 0 },
      step,
      { ...step, stepId: 3, index: 2, split: { ...step.split, tKeep: [], tNew: [] } },
    ],
  };
  const run = (name: string, preds: Record<number, string[]>): Run => ({
    name,
    files: new Map(),
    results: new Map([
      [
        'weibo',
        new Map([
          [
            'we_1',
            {
              userId: 'we_1',
              platform: 'weibo',
              username: 'U_1',
              file: 'f',
              line: 1,
              steps: new Map(
                Object.entries(preds).map(([id, p]) => [
                  Number(id),
                  { ...original, stepId: Number(id), prediction: p },
                ]),
              ),
            },
          ],
        ]),
      ],
    ]),
  });

  it('puts step-wise Recall of the two runs side by side with the user mean', () => {
    const t = ablationTable(
      user,
      {
        none: run('a-none', { 1: ['k1'], 2: [], 3: ['k1'] }),
        full: run('a-full', { 1: ['k1', 'k2', 'n1'], 2: ['n1'] }),
      },
      {
        names: { none: 'a-none', full: 'a-full' },
        templateId: 't',
        model: 'm',
      },
    );
    expect(t.rows.map((r) => [r.stepId, r.noneText, r.fullText, r.deltaText])).toEqual([
      [1, '33.3 %', '100.0 %', '+66.7 pp'],
      [2, '0.0 %', '33.3 %', '+33.3 pp'],
      [3, '—', '—', '—'],
    ]);
    expect([t.mean.noneText, t.mean.fullText, t.mean.deltaText]).toEqual(['16.7 %', '66.7 %', '+50.0 pp']);
  });
});
