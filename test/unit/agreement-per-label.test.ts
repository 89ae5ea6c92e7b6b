// Agreement per label among all authors (src/core/labels/agreementPerLabel.ts): Fleiss' κ for three authors worked by
// hand, Cohen's κ for two equal to their pair's row, the units compared (the pairs' rule), the disagreements with
// everyone's labels, the split per benchmark, and `labels summary` (text and --json) giving the same.
import { intervalJson, labelKappaIntervals } from '../../src/core/labels/agreementIntervals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLabelsCommand } from '../../src/cli/labels';
import { agreement, formatSummary, summarize } from '../../src/core/labels/agreement';
import {
  formatLabelAgreements,
  labelAgreements,
  labelAgreementsByBenchmark,
  unitDisagreements,
} from '../../src/core/labels/agreementPerLabel';
import { type LabelRow } from '../../src/core/labels/model';
import { TRACE_PLATFORM } from '../../src/core/omni/labels/labelSet';
import { LabelStore } from '../../src/core/labels/store';
import { defaultLabelSet, labelNames } from '../../src/core/labels/taxonomy';
import { labelRow } from './labelStore-fixture';

const step = (author: string, stepId: number, label: string, over: Partial<LabelRow> = {}) =>
  labelRow({ author, stepId, label, ...over });
const action = (author: string, index: number, label: string) =>
  labelRow({
    benchmark: 'omnibehavior',
    platform: TRACE_PLATFORM,
    userId: 'u1',
    stepId: index,
    run: 'demo',
    author,
    label,
    target: { kind: 'action' },
  });

// Step 1: all three decay. Step 2: alice and carol decay, bob pi-leak. Step 3: alice pi-leak + format, bob format.
// Step 4: carol alone (not compared). Step 5: alice decay on a tag, bob decay on the step: the same unit, agreeing.
const three = [
  step('alice', 1, 'decay-error'),
  step('bob', 1, 'decay-error'),
  step('carol', 1, 'decay-error'),
  step('alice', 2, 'decay-error'),
  step('bob', 2, 'pi-leak'),
  step('carol', 2, 'decay-error'),
  step('alice', 3, 'pi-leak'),
  step('alice', 3, 'format-error'),
  step('bob', 3, 'format-error'),
  step('carol', 4, 'pi-leak'),
  step('alice', 5, 'decay-error', { target: { kind: 'tag', tag: '#x#' } }),
  step('bob', 5, 'decay-error'),
];

describe('agreement per label among all authors', () => {
  it("gives Fleiss' κ for three authors over the units at least two did, worked by hand", () => {
    const a = labelAgreements(three);
    expect(a.units).toBe(4);
    expect(a.authors).toEqual(['alice', 'bob', 'carol']);
    const by = Object.fromEntries(a.perLabel.map((p) => [p.label, p]));
    expect(Object.keys(by)).toEqual(['decay-error', 'format-error', 'pi-leak']);
    // decay per unit [gave, did not]: [3,0] [2,1] [0,2] [2,0]. P_i 1, 1/3, 1, 1: P̄ = 5/6. p = 7/10: P_e = .58.
    expect(by['decay-error']).toMatchObject({ kind: 'Fleiss', n: 4, raters: 3, disagreements: 1 });
    expect(by['decay-error'].po).toBeCloseTo(5 / 6, 12);
    expect(by['decay-error'].pe).toBeCloseTo(0.58, 12);
    expect(by['decay-error'].kappa).toBeCloseTo(38 / 63, 12);
    // format: [0,3] [0,3] [2,0] [0,2]: every unit agrees, κ 1.
    expect(by['format-error']).toMatchObject({ kind: 'Fleiss', disagreements: 0, po: 1 });
    expect(by['format-error'].kappa).toBeCloseTo(1, 12);
    // pi-leak: [0,3] [1,2] [1,1] [0,2]: P̄ = (1 + 1/3 + 0 + 1) / 4 = 7/12; p = 2/10: P_e = .68.
    expect(by['pi-leak'].disagreements).toBe(2);
    expect(by['pi-leak'].kappa).toBeCloseTo((7 / 12 - 0.68) / 0.32, 12);
  });

  it("lists each unit whose authors' labels differ, with everyone's labels and the disputed ones", () => {
    const ref = (stepId: number) => ({
      benchmark: 'spb',
      platform: 'weibo',
      userId: 'we_0000000001',
      stepId,
      run: 'gpt',
    });
    expect(unitDisagreements(three)).toEqual([
      {
        unit: ref(2),
        labels: [
          { author: 'alice', labels: ['decay-error'] },
          { author: 'bob', labels: ['pi-leak'] },
          { author: 'carol', labels: ['decay-error'] },
        ],
        disputed: ['decay-error', 'pi-leak'],
      },
      {
        unit: ref(3),
        labels: [
          { author: 'alice', labels: ['format-error', 'pi-leak'] },
          { author: 'bob', labels: ['format-error'] },
        ],
        disputed: ['pi-leak'],
      },
    ]);
    expect(labelAgreements(three).disagreements).toEqual(unitDisagreements(three));
  });

  it('lists the disagreements in reading order, step 9 before step 10', () => {
    const rows = [10, 9].flatMap((stepId) => [step('alice', stepId, 'pi-leak'), step('bob', stepId, 'decay-error')]);
    expect(unitDisagreements(rows).map((d) => d.unit.stepId)).toEqual([9, 10]);
  });

  it("gives Cohen's κ for exactly two authors, the pair row's figures on the same units", () => {
    const two = three.filter((r) => r.author !== 'carol');
    const a = labelAgreements(two);
    const pair = agreement(two, 'alice', 'bob');
    expect(a.units).toBe(pair.units);
    expect(a.perLabel.map((p) => p.label)).toEqual(pair.perLabel.map((p) => p.label));
    for (const p of a.perLabel) {
      const k = pair.perLabel.find((x) => x.label === p.label)!.kappa;
      expect(p).toMatchObject({ kind: 'Cohen', n: pair.units, raters: 2, disagreements: k.onlyA + k.onlyB });
      expect([p.kappa, p.po, p.pe]).toEqual([k.kappa, k.po, k.pe]);
    }
  });

  it("takes three authors who never all met (two per unit) as Fleiss' κ with three raters", () => {
    const rows = [
      step('alice', 1, 'decay-error'),
      step('bob', 1, 'decay-error'),
      step('bob', 2, 'pi-leak'),
      step('carol', 2, 'decay-error'),
    ];
    const a = labelAgreements(rows);
    expect(a.units).toBe(2);
    expect(a.perLabel.every((p) => p.kind === 'Fleiss' && p.raters === 3)).toBe(true);
    // decay: [2,0] [1,1]: P̄ = 1/2, p = 3/4: P_e = 10/16, κ = (8 − 10) / (16 − 10).
    expect(a.perLabel.find((p) => p.label === 'decay-error')!.kappa).toBeCloseTo(-1 / 3, 12);
  });

  it('splits by benchmark and leaves out a benchmark no two authors share a unit of', () => {
    const rows = [
      ...three,
      action('erin', 5, 'missed-action'),
      action('frank', 5, 'wrong-scene'),
      labelRow({ benchmark: 'solo', author: 'alice' }),
    ];
    const list = labelAgreementsByBenchmark(rows);
    expect(list.map((b) => [b.benchmark, b.unit.key, b.units, b.authors.join('+')])).toEqual([
      ['omnibehavior', 'test action', 1, 'erin+frank'],
      ['spb', 'step', 4, 'alice+bob+carol'],
    ]);
    expect(list[0].perLabel.map((p) => p.kind)).toEqual(['Cohen', 'Cohen']);
    expect(list[0].disagreements[0].labels).toEqual([
      { author: 'erin', labels: ['missed-action'] },
      { author: 'frank', labels: ['wrong-scene'] },
    ]);
    const text = formatLabelAgreements(list, new Map());
    expect(text).toContain('u1 · test action #5 · run demo  —  erin: missed-action | frank: wrong-scene');
  });
});

describe('`labels summary` per label and the disagreements', () => {
  const db = join(mkdtempSync(join(tmpdir(), 'pl-agreement-per-label-')), 'labels.db');
  const store = LabelStore.open(db);
  for (const r of three) store.add(r);
  store.close();
  const run = async (json: boolean) => {
    let out = '';
    const io = { write: (t: string) => (out += t), out: (t: string) => (out += t + '\n'), err: () => {} };
    expect(await runLabelsCommand(['summary', db], { json }, io)).toBe(0);
    return out;
  };

  it('prints the existing lines unchanged, then the per-label table and the disagreements side by side', async () => {
    const text = await run(false);
    const names = labelNames(defaultLabelSet());
    expect(text.startsWith(formatSummary(summarize(three), names) + '\n')).toBe(true);
    const lines = text.split('\n');
    const at = lines.indexOf(
      'Agreement per label in spb on 4 step(s) done by at least two of 3 author(s) (alice, bob, carol):',
    );
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1].trim().split(/\s{2,}/)).toEqual([
      'label',
      'kappa',
      'kind',
      'n',
      'raters',
      'observed',
      'chance',
      'disagreeing',
    ]);
    expect(lines[at + 2].trim().split(/\s{2,}/)).toEqual([
      'D_decay pick',
      'n/a†',
      'Fleiss',
      '4',
      '3',
      '0.833',
      '0.580',
      '1',
    ]);
    expect(text).toContain('  † n/a: 4 step(s), fewer than 10;');
    expect(text).toContain("Disagreements in spb: 2 step(s) where the authors' labels differ");
    expect(text).toContain(
      '  weibo · we_0000000001 · step 2 · run gpt  —  alice: D_decay pick | bob: PI leak | carol: D_decay pick',
    );
    expect(text).toContain(
      '  weibo · we_0000000001 · step 3 · run gpt  —  alice: Format error, PI leak | bob: Format error',
    );
  });

  it('gives the same per label and disagreements in --json, beside the pairs as before', async () => {
    const json = JSON.parse(await run(true)) as {
      agreements: unknown[];
      labelAgreement: {
        benchmark: string;
        units: number;
        enough: boolean;
        perLabel: Record<
          string,
          { kind: string; kappa: number | null; po: number; pe: number; n: number; raters: number }
        >;
        disagreements: { stepId: number; labels: Record<string, string[]>; disputed: string[] }[];
      }[];
    };
    expect(json.agreements).toHaveLength(3);
    expect(json.labelAgreement).toHaveLength(1);
    const b = json.labelAgreement[0];
    expect(b).toMatchObject({ benchmark: 'spb', units: 4, enough: false });
    const cis = labelKappaIntervals(three);
    for (const p of labelAgreements(three).perLabel)
      expect(b.perLabel[p.label]).toEqual({
        kind: p.kind,
        kappa: p.kappa,
        ci: intervalJson(cis.get(p.label)!),
        po: p.po,
        pe: p.pe,
        n: 4,
        raters: 3,
        disagreements: p.disagreements,
      });
    expect(b.disagreements.map((d) => [d.stepId, d.labels, d.disputed])).toEqual([
      [2, { alice: ['decay-error'], bob: ['pi-leak'], carol: ['decay-error'] }, ['decay-error', 'pi-leak']],
      [3, { alice: ['format-error', 'pi-leak'], bob: ['format-error'] }, ['pi-leak']],
    ]);
  });
});
