// The agreement table's model (src/extension/labels/agreement/model.ts) and the core it reads: the disagreeing units
// per label with who said what, the split per benchmark, κ's n/a rules, and the same cells as `labels summary --json`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLabelsCommand } from '../../src/cli/labels';
import { agreement, agreementsByBenchmark, cohensKappa, summarize } from '../../src/core/labels/agreement';
import { labelAgreements } from '../../src/core/labels/agreementPerLabel';
import { type LabelRow } from '../../src/core/labels/model';
import { TRACE_PLATFORM } from '../../src/core/omni/labels/labelSet';
import { LabelStore } from '../../src/core/labels/store';
import { platformUnitNoun, unitNamer } from '../../src/core/labels/unitNoun';
import { omniBehavior } from '../../src/core/omni/format';
import { streamProfileBench } from '../../src/core/spb/format/format';
import { agreementModel, kappaCells } from '../../src/extension/labels/agreement/model';
import { summaryMarkdown } from '../../src/extension/labels/summaryMarkdown';
import { isExtensionToWebview, isWebviewToExtension } from '../../src/shared/agreementProtocol';
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
const names = new Map([
  ['decay-error', 'D_decay pick'],
  ['pi-leak', 'PI leak'],
  ['format-error', 'Format error'],
]);

describe('disagreeing units per label', () => {
  // Steps 1-3 both labelled: 1 both decay; 2 alice decay, bob pi-leak; 3 alice pi-leak + format, bob format.
  const rows = [
    step('alice', 1, 'decay-error'),
    step('bob', 1, 'decay-error'),
    step('alice', 2, 'decay-error'),
    step('bob', 2, 'pi-leak'),
    step('alice', 3, 'pi-leak'),
    step('alice', 3, 'format-error'),
    step('bob', 3, 'format-error'),
    step('bob', 4, 'pi-leak'), // only bob: not shared, never a disagreement
  ];

  it('lists each unit counted in only A / only B, with who gave the label and every label each gave', () => {
    const ag = agreement(rows, 'alice', 'bob');
    const by = Object.fromEntries(ag.perLabel.map((p) => [p.label, p]));
    expect(by['decay-error'].disagreements).toEqual([
      {
        unit: { benchmark: 'spb', platform: 'weibo', userId: 'we_0000000001', stepId: 2, run: 'gpt' },
        givenBy: 'A',
        labelsA: ['decay-error'],
        labelsB: ['pi-leak'],
      },
    ]);
    expect(by['pi-leak'].disagreements.map((d) => [d.unit.stepId, d.givenBy])).toEqual([
      [2, 'B'],
      [3, 'A'],
    ]);
    expect(by['pi-leak'].disagreements[1].labelsA).toEqual(['format-error', 'pi-leak']);
    expect(by['format-error'].disagreements).toEqual([]);
    for (const p of ag.perLabel) expect(p.disagreements.length).toBe(p.kappa.onlyA + p.kappa.onlyB);
  });

  it('splits agreement per benchmark, naming what its units are', () => {
    const all = [...rows, action('alice', 5, 'wrong-scene'), action('bob', 5, 'pi-leak'), action('carol', 9, 'x')];
    const groups = agreementsByBenchmark(all);
    expect(groups.map((g) => [g.benchmark, g.unit.key, g.agreements.map((a) => `${a.authorA}/${a.authorB}`)])).toEqual([
      ['omnibehavior', 'test action', ['alice/bob']],
      ['spb', 'step', ['alice/bob']],
    ]);
    // Pooled, the test action would add a "neither" to every step label; per benchmark it does not.
    const pooled = summarize(all).agreements[0].perLabel.find((p) => p.label === 'decay-error')!.kappa;
    const own = groups[1].agreements[0].perLabel.find((p) => p.label === 'decay-error')!.kappa;
    expect([pooled.neither, own.neither]).toEqual([2, 1]);
  });

  it('builds the table: n/a† below ten shared units with its reason, names, who said what', () => {
    const m = agreementModel(
      [...rows, action('alice', 5, 'wrong-scene'), action('bob', 5, 'wrong-scene')],
      names,
      '/db',
      null,
      // The benchmarks named by their formats, as the open benchmarks name them in the extension.
      unitNamer((b) => ({ spb: streamProfileBench, omnibehavior: omniBehavior })[b]),
    );
    expect(m.summary).toBe('10 label(s) by 2 author(s)');
    expect(m.benchmarks.map((b) => b.title)).toEqual([
      'omnibehavior: OmniBehavior test actions',
      'spb: StreamProfileBench steps',
    ]);
    const pair = m.benchmarks[1].pairs[0];
    expect(pair.unitsText).toBe('3 shared steps');
    expect(pair.note).toMatch(/^† n\/a: 3 shared steps, fewer than 10;/);
    expect(pair.rows.map((r) => [r.name, r.kappaText, r.n, r.poText, r.disagreements])).toEqual([
      ['D_decay pick', 'n/a†', 3, '0.667', 1],
      ['Format error', 'n/a†', 3, '1.000', 0],
      ['PI leak', 'n/a†', 3, '0.333', 2],
    ]);
    const pi = pair.rows[2];
    expect(pi.kappaNote).toContain('fewer than 10');
    expect(pi.items.map((i) => [i.where, i.givenBy])).toEqual([
      ['weibo · we_0000000001 · step 2 · run gpt', 'only bob gave PI leak'],
      ['weibo · we_0000000001 · step 3 · run gpt', 'only alice gave PI leak'],
    ]);
    expect(pi.items[1].said).toEqual([
      { author: 'alice', labels: 'Format error, PI leak' },
      { author: 'bob', labels: 'Format error' },
    ]);
    const trace = m.benchmarks[0].pairs[0];
    expect(trace.unitsText).toBe('1 shared test action');
    expect(trace.rows[0].items).toEqual([]);
    expect(m.counts.platforms).toEqual(['omnibehavior', 'weibo']);
    expect(m.counts.rows.find((r) => r.label === 'pi-leak')).toMatchObject({ counts: [0, 3], total: 3 });
    expect(m.counts.totals).toEqual([2, 8]);
    expect(isExtensionToWebview({ type: 'show', model: m })).toBe(true);
  });

  it('gives κ from ten shared units, and says why when it is undefined', () => {
    expect(
      kappaCells(cohensKappa({ both: 20, onlyA: 5, onlyB: 10, neither: 15 }), 50, platformUnitNoun('', [])),
    ).toMatchObject({
      kappa: expect.closeTo(0.4, 12) as number,
      kappaText: '0.400',
      kappaNote: null,
      poText: '0.700',
      peText: '0.500',
      disagreements: 15,
    });
    const all = kappaCells(
      cohensKappa({ both: 12, onlyA: 0, onlyB: 0, neither: 0 }),
      12,
      platformUnitNoun('', [{ platform: TRACE_PLATFORM }]),
    );
    expect([all.kappa, all.kappaText, all.peText]).toEqual([null, 'n/a', '1.000']);
    expect(all.kappaNote).toMatch(/^undefined: chance agreement pe is 1/);
  });

  it('accepts only the messages of the protocol from the page', () => {
    const ref = { benchmark: 'spb', platform: 'weibo', userId: 'u', stepId: 2, run: '' };
    expect(isWebviewToExtension({ type: 'open', ref })).toBe(true);
    expect(isWebviewToExtension({ type: 'open', ref: { ...ref, stepId: '2' } })).toBe(false);
    expect(isWebviewToExtension({ type: 'open' })).toBe(false);
    expect(isWebviewToExtension({ type: 'copyMarkdown' })).toBe(true);
    expect(isWebviewToExtension({ type: 'eval', code: '1' })).toBe(false);
  });

  it('heads the Markdown agreement per benchmark when given it', () => {
    const all = [...rows, action('alice', 5, 'wrong-scene'), action('bob', 5, 'wrong-scene')];
    const md = summaryMarkdown(summarize(all), names, 'x', new Map(), agreementsByBenchmark(all));
    expect(md).toContain('### omnibehavior: test actions');
    expect(md).toContain('#### alice vs bob: 1 test action(s) both labelled');
    expect(md).toContain('### spb: steps');
    expect(md).toContain('#### alice vs bob: 3 step(s) both labelled');
  });
});

describe('the table and `labels summary --json` agree cell by cell', () => {
  it('on twelve shared steps with disagreements', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'pl-agreement-')), 'labels.db');
    const rows = Array.from({ length: 12 }, (_, i) => [
      step('alice', i + 1, i % 3 === 0 ? 'pi-leak' : 'decay-error'),
      step('bob', i + 1, i % 4 === 0 ? 'pi-leak' : 'decay-error'),
    ]).flat();
    const store = LabelStore.open(db);
    try {
      for (const r of rows) store.add(r);
    } finally {
      store.close();
    }
    let out = '';
    const code = await runLabelsCommand(
      ['summary', db],
      { json: true },
      {
        write: (t) => (out += t),
        out: (t) => (out += t + '\n'),
        err: () => {},
      },
    );
    expect(code).toBe(0);
    const cli = JSON.parse(out) as {
      agreements: {
        units: number;
        perLabel: Record<
          string,
          { kappa: number | null; po: number; pe: number; n: number; onlyA: number; onlyB: number }
        >;
      }[];
    };
    const pair = agreementModel(rows, names, db).benchmarks[0].pairs[0];
    expect(pair.rows.map((r) => r.label).sort()).toEqual(Object.keys(cli.agreements[0].perLabel).sort());
    for (const r of pair.rows) {
      const c = cli.agreements[0].perLabel[r.label];
      expect([r.kappaText, r.n, r.poText, r.peText, r.disagreements]).toEqual([
        c.kappa!.toFixed(3),
        c.n,
        c.po.toFixed(3),
        c.pe.toFixed(3),
        c.onlyA + c.onlyB,
      ]);
    }
    expect(pair.rows.find((r) => r.label === 'pi-leak')!.disagreements).toBe(5);
  });
});

describe('the table per label among all authors and its Disagreements list', () => {
  // Twelve steps: alice, bob and carol on 1-10, alice and bob on 11, carol alone on 12 (not compared).
  const rows = [
    ...Array.from({ length: 10 }, (_, i) => [
      step('alice', i + 1, i % 3 === 0 ? 'pi-leak' : 'decay-error'),
      step('bob', i + 1, i % 4 === 0 ? 'pi-leak' : 'decay-error'),
      step('carol', i + 1, i % 5 === 0 ? 'pi-leak' : 'decay-error'),
    ]).flat(),
    step('alice', 11, 'format-error'),
    step('bob', 11, 'format-error'),
    step('bob', 11, 'pi-leak'),
    step('carol', 12, 'pi-leak'),
  ];

  it("gives Fleiss' κ, n, raters, po and pe per label as the core does, and everyone's labels per unit", () => {
    const t = agreementModel(rows, names, '/db').benchmarks[0].allAuthors;
    const core = labelAgreements(rows);
    expect(t.authors).toEqual(['alice', 'bob', 'carol']);
    expect(t.unitsText).toBe('11 steps done by at least two of 3 authors');
    expect(t.note).toBeNull();
    expect(t.rows.map((r) => r.name)).toEqual(['D_decay pick', 'Format error', 'PI leak']);
    for (const r of t.rows) {
      const p = core.perLabel.find((x) => x.label === r.label)!;
      expect([r.kind, r.kappaText, r.n, r.raters, r.poText, r.peText, r.disagreements]).toEqual([
        'Fleiss',
        p.kappa.toFixed(3),
        11,
        3,
        p.po.toFixed(3),
        p.pe.toFixed(3),
        p.disagreements,
      ]);
    }
    // Steps 1 (alice pi, bob pi, carol pi) and 2 agree; 4 (alice pi, the others decay) does not.
    expect(t.disagreements.map((d) => d.ref.stepId)).toEqual(core.disagreements.map((d) => d.unit.stepId));
    expect(t.disagreements.map((d) => d.ref.stepId)).not.toContain(1);
    const four = t.disagreements.find((d) => d.ref.stepId === 4)!;
    expect(four.where).toBe('weibo · we_0000000001 · step 4 · run gpt');
    expect(four.said).toEqual([
      [{ name: 'PI leak', disputed: true }],
      [{ name: 'D_decay pick', disputed: true }],
      [{ name: 'D_decay pick', disputed: true }],
    ]);
    const eleven = t.disagreements.find((d) => d.ref.stepId === 11)!;
    expect(eleven.said).toEqual([
      [{ name: 'Format error', disputed: false }],
      [
        { name: 'Format error', disputed: false },
        { name: 'PI leak', disputed: true },
      ],
      null,
    ]);
    expect(isExtensionToWebview({ type: 'show', model: agreementModel(rows, names, '/db') })).toBe(true);
  });

  it("says Cohen for two authors, with the pair row's cells, and n/a† with its reason below ten units", () => {
    const two = rows.filter((r) => r.author !== 'carol' && r.stepId <= 3);
    const b = agreementModel(two, names, '/db').benchmarks[0];
    expect(b.allAuthors.note).toMatch(/^† n\/a: 3 steps compared, fewer than 10;/);
    for (const r of b.allAuthors.rows) {
      const pair = b.pairs[0].rows.find((x) => x.label === r.label)!;
      expect([r.kind, r.raters, r.kappaText, r.n, r.poText, r.peText, r.disagreements]).toEqual([
        'Cohen',
        2,
        'n/a†',
        pair.n,
        pair.poText,
        pair.peText,
        pair.disagreements,
      ]);
      expect(r.kappaNote).toContain('fewer than 10');
    }
  });
});
