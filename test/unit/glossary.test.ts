// One glossary (src/core/glossary.ts): every metric-like name the views and the CLI print on the bundled sample is
// one of its short names, the checker catches a name that is not, the hovers come from it, and the README's Glossary
// section agrees with it.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { omniBehavior, streamProfileBench } from '../../src/core/formats';
import {
  GLOSSARY,
  glossaryTerm,
  glossaryText,
  hoverText,
  metricTokens,
  MISSING,
  NO_PERSONA,
  unknownMetricNames,
} from '../../src/core/glossary';
import { experimentFigures } from '../../src/core/spb/experiments/experiment';
import { longContextLines, longContextTableOf } from '../../src/core/spb/experiments/longContext';
import { deltaText, experimentsTable, figureLines } from '../../src/core/spb/experiments/text';
import { METRIC_NAMES } from '../../src/core/spb/names';
import { readPostsText } from '../../src/core/spb/format/load';
import { scoreRun } from '../../src/core/spb/score/run';
import type { Benchmark, Run } from '../../src/core/spb/types';
import { buildStepModel } from '../../src/core/spb/view/stepModel';
import { formatMetric, METRIC_INFO } from '../../src/core/spb/view/stepText';
import { countsText, rowCountsText } from '../../src/core/omni/countsText';
import type { OmniBenchmark } from '../../src/core/omni/types';
import { questionRow } from '../../src/extension/benchmarks/omni/model';
import {
  benchmarkDescription,
  figuresTable,
  platformRows,
  stepRows,
  userFigures,
  userRows,
} from '../../src/extension/benchmarks/spb/treeModel';
import { OMNI_SAMPLE, SAMPLE } from '../support/committedSample';

/** The names a text prints that the glossary does not know, with the text's start to say where. */
function unknownIn(texts: readonly string[]): string[] {
  return texts.flatMap((t) => unknownMetricNames(t).map((name) => `${name} in "${t.slice(0, 80)}"`));
}

describe('the glossary', () => {
  it('has one entry per short name, each with a long name and one sentence, its hover built from them', () => {
    const shorts = GLOSSARY.map((t) => t.short);
    expect(new Set(shorts).size).toBe(shorts.length);
    for (const t of GLOSSARY) {
      expect(t.long, t.short).not.toBe('');
      expect(t.definition, t.short).toMatch(/^(?![A-Z][a-z]).*[.”]$/u);
      expect(hoverText(t.short)).toBe(`${t.short} (${t.long}): ${t.definition}${t.unit ? ` In ${t.unit}.` : ''}`);
    }
    for (const n of Object.values(METRIC_NAMES)) expect(glossaryTerm(n.short)?.unit, n.short).toBe('%');
    expect(glossaryTerm('NMAE term')?.unit).toBe('% of the video’s duration');
    expect(glossaryTerm('D_cluster')?.short).toBe('D_peer');
    expect(() => hoverText('R_fake')).toThrow('"R_fake" is not in the glossary');
  });

  it('the checker finds a metric-like name that is not in it', () => {
    expect(unknownMetricNames('R 40.8% · R_fake 12.0% · Err_decay 3.0%')).toEqual(['R_fake']);
    expect(unknownMetricNames('ΔRecall +1.2 · Recall_Novelty 3 · F1NS 2 · Error_Decay 1 · ΔR_nov +1.0')).toEqual([
      'ΔRecall',
      'Recall_Novelty',
      'F1NS',
      'Error_Decay',
    ]);
    expect(unknownMetricNames('Recall (R) 40.8% · ΔF1^NS +2.0 · D_cluster · T_keep ∪ T_new')).toEqual([]);
    expect(metricTokens('Avg. R_stab and ΔR; not a Rate, nor BR_x')).toEqual(['R_stab', 'ΔR']);
    expect(unknownIn(['a row: R_fake 1.0%'])).toEqual(['R_fake in "a row: R_fake 1.0%"']);
  });

  it('explains itself in its own names, and `persona-lab glossary` lists every term', () => {
    expect(unknownIn(GLOSSARY.map((t) => `${t.long}: ${t.definition}`))).toEqual([]);
    const text = glossaryText();
    for (const t of GLOSSARY) expect(text).toContain(`  ${t.short} `);
    expect(unknownIn(text.split('\n'))).toEqual([]);
  });
});

describe('every view prints only glossary names (the bundled sample)', () => {
  let bench: Benchmark;
  let run: Run;
  let omni: OmniBenchmark;
  beforeAll(async () => {
    bench = (await streamProfileBench.load(SAMPLE)).bench;
    run = bench.runs.get('demo-llm')!;
    omni = (await omniBehavior.load(OMNI_SAMPLE)).bench;
  });

  it('`score` as text, with --memory, for both benchmarks', async () => {
    const spb = await streamProfileBench.load(SAMPLE);
    const text = (await spb.opened.score({ output: { kind: 'text' }, memory: true })).text;
    expect(text).toContain('F1^NS');
    expect(unknownIn(text.split('\n'))).toEqual([]);
    const om = await omniBehavior.load(OMNI_SAMPLE);
    const omniText = (await om.opened.score({ output: { kind: 'text' } })).text;
    expect(omniText).toContain('NMAE');
    expect(unknownIn(omniText.split('\n'))).toEqual([]);
  });

  it('the Benchmarks tree: descriptions and tooltip tables, with each figure’s definition', () => {
    const score = scoreRun(bench, run);
    const texts = [benchmarkDescription(run, score), figuresTable(score.avg)];
    for (const row of platformRows(bench, score)) {
      texts.push(row.description);
      const users = bench.users.get(row.platform)!;
      for (const u of userRows(users, row.score, true)) {
        texts.push(u.description);
        if (u.score) texts.push(figuresTable(userFigures(u.score)));
      }
      for (const user of [...users.values()].slice(0, 3)) texts.push(...stepRows(run, user).map((s) => s.description));
    }
    expect(texts.join('\n')).toContain('R_stab');
    expect(unknownIn(texts)).toEqual([]);
    expect(figuresTable(score.avg)).toContain(`| Stability recall (R_stab) |`);
    expect(figuresTable(score.avg)).toContain(`| ${METRIC_NAMES.Recall_Stability.definition} |`);
  });

  it('the step view: tiles, their hovers from the glossary, pool classes and notes', () => {
    const texts: string[] = [];
    for (const users of bench.users.values()) {
      for (const user of [...users.values()].slice(0, 2)) {
        for (const step of user.steps) {
          const m = buildStepModel({ bench, user, step, run, postsText: readPostsText(user, step) });
          for (const c of m.metrics) texts.push(`${c.label} ${c.text}`, c.tooltip);
          for (const g of m.pool.groups) texts.push(g.label, g.tooltip);
          texts.push(...m.storedMismatch);
        }
      }
    }
    expect(unknownIn(texts)).toEqual([]);
    for (const key of Object.keys(METRIC_NAMES).filter((k) => k !== 'F1NS') as (keyof typeof METRIC_INFO)[])
      expect(METRIC_INFO[key].tooltip.startsWith(hoverText(METRIC_INFO[key].label)), key).toBe(true);
    expect(METRIC_INFO.alpha.tooltip.startsWith(hoverText('α'))).toBe(true);
    expect(formatMetric('Recall_Stability', NaN)).toBe(MISSING);
  });

  it('experiments: the paired table, the log and the deltas the Experiments view shows', () => {
    const base = bench.runs.get('random')!;
    const users = { weibo: [...bench.users.get('weibo')!.keys()], zhihu: [...bench.users.get('zhihu')!.keys()] };
    const f = experimentFigures(bench, base, run, users);
    const lines = figureLines(f);
    expect(lines.join('\n')).toContain('R_stab');
    expect(unknownIn(lines)).toEqual([]);
    const recall = f.summary.find((r) => r.metric === 'Recall');
    expect(unknownIn([`ΔR ${deltaText(recall, f)} · ΔF1^NS ${deltaText(undefined, f)}`])).toEqual([]);
    // No difference at all is a missing value, not "n/a".
    expect(deltaText(undefined, f)).toBe(MISSING);
    expect(unknownIn(experimentsTable([]).split('\n'))).toEqual([]);
    const table7 = longContextLines(longContextTableOf(f, [{ scope: 'all', rows: f.summary }])!);
    expect(table7.join('\n')).toContain('Err_random');
    expect(unknownIn(table7)).toEqual([]);
  });

  it('OmniBehavior: the tree’s counts and the trace view’s notes', () => {
    const demo = omni.runs.get('demo-sim')!;
    const texts: string[] = [];
    for (const user of [...omni.users.values()].slice(0, 3)) {
      for (const action of user.testActions) {
        const p = demo.predictions.get(`${user.userId}#${action.index}`);
        for (const q of p?.questions ?? []) texts.push(questionRow(q, action).note);
      }
    }
    texts.push(countsText({ correct: 3, incorrect: 1, graded: 2, leftOut: 1 }));
    texts.push(rowCountsText({ correct: 3, incorrect: 1, graded: 2, leftOut: 1 }, true));
    expect(texts.join('\n')).toContain('NMAE');
    expect(unknownIn(texts)).toEqual([]);
  });
});

describe('the README’s Glossary section', () => {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(
    readme.indexOf('## Glossary'),
    readme.indexOf('\n## ', readme.indexOf('## Glossary') + 3),
  );

  it('names every metric by its glossary short name and no other', () => {
    expect(section.length).toBeGreaterThan(100);
    expect(unknownIn(section.split('\n'))).toEqual([]);
    for (const n of Object.values(METRIC_NAMES)) expect(section, n.short).toContain(n.short);
    for (const short of ['κ, po, pe', 'NMAE', 'Tasks line', 'Result line', 'n/a', NO_PERSONA.toLowerCase()])
      expect(section, short).toContain(short);
  });
});
