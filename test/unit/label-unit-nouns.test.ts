// Each format names its label units, and the label summaries and the gold report say that noun: the agreement table
// (its heading, its counts, where a disagreement is), the CLI's per-label text and the gold counts, for the three
// built-in formats and the tinybench fixture; `labels summary` and `labels gold` on a folder use its format's noun.
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLabelsCommand, type CliIo } from '../../src/cli/labels';
import { registerFormat, type Format } from '../../src/core/formats';
import { agreementsByBenchmark, summarize } from '../../src/core/labels/agreement';
import { formatLabelAgreements, labelAgreementsByBenchmark } from '../../src/core/labels/agreementPerLabel';
import { formatGoldReport, goldReport } from '../../src/core/labels/goldReport';
import { TRACE_PLATFORM } from '../../src/core/omni/labels/labelSet';
import { LabelStore } from '../../src/core/labels/store';
import { benchmarkId } from '../../src/core/labels/model';
import { platformUnitNoun, unitNamer } from '../../src/core/labels/unitNoun';
import { omniBehavior } from '../../src/core/omni/format';
import { personaMem } from '../../src/core/personamem/format';
import { streamProfileBench } from '../../src/core/spb/format/format';
import { agreementModel } from '../../src/extension/labels/agreement/model';
import { summaryMarkdown } from '../../src/extension/labels/summaryMarkdown';
import { TINY_PLATFORM, TINY_SAMPLE, tinyBench } from '../fixtures/tinybench/format';
import { PMEM_SAMPLE } from '../support/committedSample';
import { labelRow } from './labelStore-fixture';

registerFormat(tinyBench);

interface Case {
  format: Format;
  platform: string;
  title: string;
  singular: string;
  where: string;
}

const CASES: Case[] = [
  {
    format: streamProfileBench,
    platform: 'weibo',
    title: 'StreamProfileBench steps',
    singular: 'step',
    where: 'weibo · u1 · step 3 · run r',
  },
  {
    format: omniBehavior,
    platform: TRACE_PLATFORM,
    title: 'OmniBehavior test actions',
    singular: 'test action',
    where: 'u1 · test action #3 · run r',
  },
  {
    format: personaMem,
    platform: '32k',
    title: 'PersonaMem questions',
    singular: 'question',
    where: '32k · u1 · question 3 · run r',
  },
  {
    format: tinyBench,
    platform: TINY_PLATFORM,
    title: 'TinyBench (test fixture) items',
    singular: 'item',
    where: 'tinybench · u1 · item 3 · run r',
  },
];

/** Two authors on one unit of benchmark `b`, with different labels: one shared unit, open in the gold set. */
const rowsOn = (platform: string) =>
  ['alice', 'bob'].map((author, i) =>
    labelRow({ benchmark: 'b', platform, userId: 'u1', stepId: 3, run: 'r', author, label: i ? 'x' : 'y' }),
  );

describe.each(CASES)('the label units of $format.label', (c) => {
  const rows = rowsOn(c.platform);
  const unitOf = unitNamer((benchmark) => (benchmark === 'b' ? c.format : undefined));

  it('are named by the format in the agreement table: heading, counts and the disagreement', () => {
    const m = agreementModel(rows, new Map(), '/db', null, unitOf);
    const [table] = m.benchmarks;
    expect(table.title).toBe(`b: ${c.title}`);
    expect(table.pairs[0].unitsText).toBe(`1 shared ${c.singular}`);
    expect(table.allAuthors.unitsText).toBe(`1 ${c.singular} done by at least two of 2 authors`);
    expect(table.allAuthors.disagreements.map((d) => d.where)).toEqual([c.where]);
    expect(m.benchmarks.map((b) => b.title).join()).not.toMatch(c.singular === 'step' ? /test action/ : /\bsteps?\b/);
  });

  it('are named by the format in the Markdown summary', () => {
    const md = summaryMarkdown(summarize(rows), new Map(), '/db', new Map(), agreementsByBenchmark(rows, unitOf));
    expect(md).toContain(`### b: ${c.format.unit.plural}`);
    expect(md).toContain(`#### alice vs bob: 1 ${c.singular}(s) both labelled`);
    expect(md).toContain(`counts of ${c.format.unit.plural} where the label is`);
    expect(md).toContain(`† n/a: 1 shared ${c.singular}(s), fewer than 10`);
  });

  it('are named by the format in the CLI text and the gold counts', () => {
    const text = formatLabelAgreements(labelAgreementsByBenchmark(rows, unitOf), new Map());
    expect(text).toContain(`Agreement per label in b on 1 ${c.singular}(s) done by at least two`);
    expect(text).toContain(`  ${c.where}  —  alice: y | bob: x`);
    const gold = formatGoldReport(goldReport(rows, [], { unitOf, resamples: 20 }));
    expect(gold).toContain(`b: 1 ${c.singular}(s): 0 adjudicated, 0 unanimous, 1 open, 0 by one annotator only`);
    expect(goldReport(rows, [], { unitOf, resamples: 20 }).benchmarks[0].unit.key).toBe(c.singular);
  });
});

describe('a benchmark whose format is not known', () => {
  it('is named by its rows: steps, test actions, or units when both, with no format in the heading', () => {
    expect(platformUnitNoun('b', [{ platform: 'weibo' }]).title).toBe('steps');
    expect(platformUnitNoun('b', [{ platform: TRACE_PLATFORM }]).title).toBe('test actions');
    const mixed = platformUnitNoun('b', [{ platform: 'weibo' }, { platform: TRACE_PLATFORM }]);
    expect([mixed.key, mixed.singular]).toEqual(['mixed', 'unit']);
  });
});

describe('labels summary and labels gold on a folder say its format’s noun', () => {
  function folderWithLabels(sample: string, platform: string, userId: string, stepId: number): string {
    const dir = join(mkdtempSync(join(tmpdir(), 'pl-nouns-')), 'bench');
    cpSync(sample, dir, { recursive: true });
    mkdirSync(join(dir, '.personalab'), { recursive: true });
    const store = LabelStore.open(join(dir, '.personalab', 'labels.db'));
    try {
      for (const [author, label] of [
        ['alice', 'x'],
        ['bob', 'y'],
      ])
        store.add({
          benchmark: benchmarkId(dir),
          platform,
          userId,
          stepId,
          run: '',
          author,
          label,
          target: { kind: 'step' },
        });
    } finally {
      store.close();
    }
    return dir;
  }

  async function run(args: string[], json = false): Promise<string> {
    const out: string[] = [];
    const io: CliIo = { write: (t) => out.push(t), out: (t) => out.push(t), err: (t) => out.push(t) };
    expect(await runLabelsCommand(args, { json }, io)).toBe(0);
    return out.join('\n');
  }

  it.each([
    { name: 'PersonaMem', sample: PMEM_SAMPLE, platform: '32k', user: '0', noun: 'question' },
    { name: 'TinyBench', sample: TINY_SAMPLE, platform: TINY_PLATFORM, user: 'ann', noun: 'item' },
  ])('$name: the pairs, the per-label table and the gold counts', async ({ sample, platform, user, noun }) => {
    const dir = folderWithLabels(sample, platform, user, 1);
    const summary = await run(['summary', dir]);
    expect(summary).toContain(`Agreement alice vs bob on 1 ${noun}(s) both labelled:`);
    expect(summary).toContain(`n/a (n = 1 < 10 ${noun}s)`);
    expect(summary).toContain(`bench on 1 ${noun}(s) done by at least two`);
    expect(summary).not.toMatch(/\bsteps?\b/);
    const gold = await run(['gold', dir]);
    expect(gold).toContain(`bench: 1 ${noun}(s): 0 adjudicated, 0 unanimous, 1 open`);
    expect(gold).toContain(`${platform} · ${user} · ${noun} 1 · no run (the data)`);
    const json = JSON.parse(await run(['gold', dir], true)) as { benchmarks: { unit: string }[] };
    expect(json.benchmarks.map((b) => b.unit)).toEqual([noun]);
  });
});
