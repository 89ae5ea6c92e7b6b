// The compare view's side-by-side of one step: run B's answer against run A's, each with the persona its own
// thread gave it, through the same side comparison as the re-run view, and the message guard it travels through.
import { describe, expect, it } from 'vitest';
import { sidesPiMarks } from '../../src/core/spb/pi/highlight';
import { fieldKey } from '../../src/core/pi/spans';
import { runPairStep } from '../../src/core/spb/view/runPair';
import { scoreStep } from '../../src/core/spb/score/step';
import { isExtensionToWebview, isWebviewToExtension } from '../../src/shared/spb/dashboardProtocol';
import { memBench, split } from './compare-fixture';

const s = split({ tKeep: ['k'], tNew: ['n'], dDecay: ['d'], dPeer: ['p'], dViral: ['v'], dRandom: ['r'] });
const bench = memBench([{ platform: 'weibo', userId: 'we_1', steps: [s, s, s] }], {
  A: { we_1: { 1: ['k', 'n'], 2: ['k', 'd'], 3: ['n', 'k'] } },
  B: { we_1: { 1: ['k', 'v'], 3: ['k', 'p', 'zz'] } },
});
const user = bench.users.get('weibo')!.get('we_1')!;
const [runA, runB] = [bench.runs.get('A')!, bench.runs.get('B')!];
const result = (run: typeof runA, stepId: number) => run.results.get('weibo')!.get('we_1')!.steps.get(stepId)!;
result(runA, 1).personaSummary = 'A likes hiking.';
result(runA, 2).personaSummary = 'A likes hiking and tea. Call 13812345678.';
result(runB, 1).personaSummary = 'B likes hiking.';
result(runB, 3).personaSummary = 'B likes hiking and films.';
result(runA, 3).personaSummary = 'A likes hiking and tea.';

describe('runPairStep', () => {
  const p = runPairStep(user, user.steps[2], runA, runB);

  it('puts run A on the left (before) and run B on the right (after), each with its own picks', () => {
    expect([p.runA, p.runB]).toEqual(['A', 'B']);
    expect(p.before.picks.map((c) => `${c.tag}:${c.mark}`)).toEqual(['n:hit', 'k:hit']);
    expect(p.after.picks.map((c) => `${c.tag}:${c.mark}`)).toEqual(['k:hit', 'p:wrongPick', 'zz:outside']);
    expect(p.flipped.map((f) => `${f.tag}:${f.kind}`)).toEqual(['n:lost', 'p:newWrong']);
    // the chips carry the flip as seen from the other side; a pick both made has none
    expect(p.before.picks.find((c) => c.tag === 'n')!.flip).toBe('lost');
    expect(p.after.picks.find((c) => c.tag === 'k')!.flip).toBeNull();
  });

  it('scores each side as the scorer does and gives B − A', () => {
    const [a, b] = [scoreStep(s, result(runA, 3).prediction)!, scoreStep(s, result(runB, 3).prediction)!];
    for (const m of p.metrics) {
      expect(m.before).toBe(a[m.key]);
      expect(m.after).toBe(b[m.key]);
    }
    const recall = p.metrics.find((m) => m.key === 'Recall')!;
    expect(recall.delta).toBeCloseTo(-0.5, 12);
    expect(recall.trend).toBe('worse');
    expect(p.scored).toBe(true);
  });

  it("threads each run's own persona: the last one it wrote before this step", () => {
    expect(p.before.personaIn).toBe('A likes hiking and tea. Call 13812345678.');
    // B has no result at step 2, so it received what it wrote at step 1
    expect(p.after.personaIn).toBe('B likes hiking.');
    expect(p.personaDiff?.filter((d) => d.kind !== 'same').map((d) => `${d.kind}:${d.text.trim()}`)).toEqual([
      'removed:A',
      'added:B',
      'removed:tea',
      'added:films',
    ]);
  });

  it('says when a run has no result for the step', () => {
    const q = runPairStep(user, user.steps[1], runA, runB);
    expect(q.before.hasResult).toBe(true);
    expect(q.after.hasResult).toBe(false);
    expect(q.after.picks).toEqual([]);
    expect(q.metrics.every((m) => m.after === null && m.delta === null && m.trend === 'na')).toBe(true);
    expect(q.flipped.map((f) => `${f.tag}:${f.kind}`)).toEqual(['k:lost', 'd:fixedWrong']);
  });

  it('marks PI in each side under its own key', () => {
    const pi = sidesPiMarks({ a: p.before, b: p.after }, p.personaDiff);
    expect(Object.keys(pi)).toEqual([fieldKey.cmp('a', 'personaIn')]);
    expect(pi[fieldKey.cmp('a', 'personaIn')].map((m) => m.category)).toEqual(['PHONE']);
  });

  it('travels through the compare protocol and is rejected when malformed', () => {
    const pi = sidesPiMarks({ a: p.before, b: p.after }, p.personaDiff);
    const msg = JSON.parse(JSON.stringify({ type: 'pair', pair: p, pi }));
    expect(msg.pair).toEqual(p);
    expect(isExtensionToWebview(msg)).toBe(true);
    expect(isExtensionToWebview({ ...msg, pair: { ...msg.pair, before: { ...msg.pair.before, picks: 'k' } } })).toBe(
      false,
    );
    expect(isExtensionToWebview({ type: 'pairMissing', ref: p.ref, message: 'gone' })).toBe(true);
    expect(isWebviewToExtension({ type: 'closePair' })).toBe(true);
  });
});
