// The trace view's labels bar state (benchmarks/omni/labels/viewState.ts) and the trace protocol's label messages.
import { describe, expect, it } from 'vitest';
import type { LabelRow } from '../../src/core/labels/model';
import { DEFAULT_LABELS } from '../../src/core/spb/labels/labelSet';
import type { Freshness } from '../../src/core/labels/staleness';
import { buildScoreState, buildTraceLabelState } from '../../src/extension/benchmarks/omni/labels/viewState';
import { utteranceHash, type ScoreRow } from '../../src/core/labels/scores';
import type { OmniRun, Question } from '../../src/core/omni/types';
import { isExtensionToWebview, isWebviewToExtension } from '../../src/shared/omni/traceProtocol';

const row = (label: string, target: LabelRow['target'], author = 'me'): LabelRow => ({
  benchmark: 'omnibehavior',
  platform: 'omnibehavior',
  userId: 'u_1',
  stepId: 40,
  run: 'r',
  author,
  target,
  label,
  note: '',
  createdAt: '2026-01-01T00:00:00Z',
  contentHash: 'h',
});

describe('buildTraceLabelState', () => {
  it('lists this author’s labels with their staleness and groups the labelled history records', () => {
    const a = row('decay-error', { kind: 'action' });
    const h1 = row('peer-confusion', { kind: 'history', historyIndex: 7 });
    const h2 = row('pi-leak', { kind: 'history', historyIndex: 7 });
    const h3 = row('random-pick', { kind: 'history', historyIndex: 3 });
    const other = row('format-error', { kind: 'action' }, 'someone else');
    const freshness = new Map<LabelRow, Freshness>([
      [a, 'fresh'],
      [h1, 'stale'],
      [h2, 'fresh'],
      [h3, 'missing'],
    ]);
    const input = {
      ref: { userId: 'u_1', index: 40 },
      run: 'r',
      author: 'me',
      labels: DEFAULT_LABELS,
      rows: [a, h1, h2, h3, other],
      freshness,
      canUndo: true,
      error: null,
      labelSetNote: null,
      flash: null,
      scores: null,
    };
    const s = buildTraceLabelState(input);
    expect(s.labels.map((l) => l.key)).toEqual(DEFAULT_LABELS.map((l) => l.key));
    expect(s.applied.map((x) => `${x.labelId}:${x.staleness}`)).toEqual([
      'decay-error:fresh',
      'peer-confusion:stale',
      'pi-leak:fresh',
      'random-pick:stale',
    ]);
    expect(s.history).toEqual([
      { index: 3, names: ['D_random pick'], stale: true },
      { index: 7, names: ['D_peer pick', 'PI leak'], stale: true },
    ]);
    expect(s.project).toBeNull();
    expect(isExtensionToWebview({ type: 'labels', state: s })).toBe(true);
    // The labelling project whose queue `.` walks: its name, as text.
    const inProject = buildTraceLabelState({ ...input, project: 'Scenes pass 1' });
    expect(inProject.project).toBe('Scenes pass 1');
    expect(isExtensionToWebview({ type: 'labels', state: inProject })).toBe(true);
    expect(isExtensionToWebview({ type: 'labels', state: { ...s, project: 3 } })).toBe(false);
  });

  it('shows a label without a staleness check as unknown, never stale', () => {
    const a = row('decay-error', { kind: 'action' });
    const s = buildTraceLabelState({
      ref: { userId: 'u_1', index: 40 },
      run: '',
      author: 'me',
      labels: DEFAULT_LABELS,
      rows: [a],
      freshness: new Map(),
      canUndo: false,
      error: null,
      labelSetNote: null,
      flash: null,
      scores: null,
    });
    expect(s.applied[0].staleness).toBe('unknown');
    expect(s.history).toEqual([]);
  });
});

// The label messages are shaped as the step view's (src/shared/labelProtocol.ts): { type: 'label', action }.
const toggle = (action: Record<string, unknown>) => ({ type: 'label', action: { kind: 'toggle', ...action } });

describe('trace protocol label messages', () => {
  it('accepts toggles on the test action or a history record, and undo', () => {
    expect(
      isWebviewToExtension(toggle({ ref: { userId: 'u', index: 3 }, labelId: 'x', target: { kind: 'action' } })),
    ).toBe(true);
    expect(
      isWebviewToExtension(
        toggle({ ref: { userId: 'u', index: 3 }, labelId: 'x', target: { kind: 'history', historyIndex: 1 } }),
      ),
    ).toBe(true);
    expect(isWebviewToExtension({ type: 'label', action: { kind: 'undo' } })).toBe(true);
    expect(isExtensionToWebview({ type: 'reveal', index: 4 })).toBe(true);
  });

  it('rejects other targets and malformed toggles', () => {
    expect(
      isWebviewToExtension(toggle({ ref: { userId: 'u', index: 3 }, labelId: 'x', target: { kind: 'step' } })),
    ).toBe(false);
    expect(
      isWebviewToExtension(
        toggle({ ref: { userId: 'u', index: 3 }, labelId: 'x', target: { kind: 'history', historyIndex: -1 } }),
      ),
    ).toBe(false);
    expect(isWebviewToExtension(toggle({ ref: { userId: 'u' }, labelId: 'x', target: { kind: 'action' } }))).toBe(
      false,
    );
    expect(isExtensionToWebview({ type: 'reveal', index: 'a' })).toBe(false);
    // the step view's other actions, and the former trace-only message shapes
    expect(
      isWebviewToExtension({ type: 'label', action: { kind: 'move', ref: { userId: 'u', index: 3 }, delta: 1 } }),
    ).toBe(false);
    expect(
      isWebviewToExtension({
        type: 'labelToggle',
        ref: { userId: 'u', index: 3 },
        labelId: 'x',
        target: { kind: 'action' },
      }),
    ).toBe(false);
    expect(isWebviewToExtension({ type: 'labelUndo' })).toBe(false);
  });
});

describe('scoring an utterance (trace view)', () => {
  const ref = { userId: 'u_1', index: 40 };
  const q = (text: string, judged: boolean): Question => ({
    type: 'text',
    field: 'next_user_message',
    trueValue: 'true text',
    predictedValue: text,
    predictedLabel: null,
    rawOutput: text,
    ...(judged
      ? {
          judgeModel: 'judge-m',
          judgeScores: { intent_fidelity: 7, persona_mimicry: 5, knowledge_boundary: 8, semantic_alignment: 6 },
        }
      : {}),
  });
  const run = (question: Question): OmniRun => ({
    name: 'r',
    dir: '/r',
    file: 'p.jsonl',
    predictions: new Map([['u_1#40', { userId: 'u_1', index: 40, questions: [question], file: 'p.jsonl', line: 3 }]]),
  });
  const score = (dimension: ScoreRow['dimension'], n: number, hash: string): ScoreRow => ({
    benchmark: 'omnibehavior',
    userId: 'u_1',
    index: 40,
    run: 'r',
    author: 'me',
    dimension,
    score: n,
    createdAt: '2026-01-01T00:00:00Z',
    contentHash: hash,
  });

  it('puts the judge beside this author per dimension, and marks a score of an earlier answer as stale', () => {
    const s = buildScoreState(run(q('is it in stock?', true)), ref, [
      score('intent_fidelity', 9, utteranceHash('is it in stock?')),
      score('persona_mimicry', 4, utteranceHash('an earlier answer')),
    ]);
    expect(s).toMatchObject({ run: 'r', utterance: 'is it in stock?', judgeModel: 'judge-m' });
    expect(s!.dimensions).toEqual([
      { dimension: 'intent_fidelity', judge: 7, mine: 9, stale: false },
      { dimension: 'persona_mimicry', judge: 5, mine: 4, stale: true },
      { dimension: 'knowledge_boundary', judge: 8, mine: null, stale: false },
      { dimension: 'semantic_alignment', judge: 6, mine: null, stale: false },
    ]);
    expect(buildScoreState(run(q('not judged', false)), ref, [])!.dimensions.every((d) => d.judge === null)).toBe(true);
  });

  it('has nothing to score without a run, another test action, or an empty answer', () => {
    expect(buildScoreState(undefined, ref, [])).toBeNull();
    expect(buildScoreState(run(q('x', true)), { userId: 'u_1', index: 41 }, [])).toBeNull();
    expect(buildScoreState(run(q('  ', true)), ref, [])).toBeNull();
  });

  it('the score action takes 1–10 or null on a known dimension', () => {
    const msg = (dimension: string, s: unknown) => ({
      type: 'label',
      action: { kind: 'score', ref, dimension, score: s },
    });
    expect(isWebviewToExtension(msg('intent_fidelity', 10))).toBe(true);
    expect(isWebviewToExtension(msg('semantic_alignment', null))).toBe(true);
    expect(isWebviewToExtension(msg('intent_fidelity', 0))).toBe(false);
    expect(isWebviewToExtension(msg('intent_fidelity', 11))).toBe(false);
    expect(isWebviewToExtension(msg('intent_fidelity', 6.5))).toBe(false);
    expect(isWebviewToExtension(msg('fluency', 5))).toBe(false);
  });
});
