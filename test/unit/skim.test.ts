// The skimming reader (io/skim.ts) against the full parser: the same values, texts and messages on the sample, on
// generated bad input and on a paper-scale folder, and the skim's own refusals of what it cannot vouch for.
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { skimming } from '../../src/core/io/rows';
import { skimLine, skimSpec, spanString } from '../../src/core/io/skim';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { FileStepResult } from '../../src/core/spb/format/stepText';
import { scoreRun } from '../../src/core/spb/score/run';
import type { Benchmark } from '../../src/core/spb/types';
import { SAMPLE } from '../support/committedSample';

const SPEC = skimSpec(['reasoning', 'persona_summary'], ['ground_truth']);
const skim = (line: string) => skimLine(Buffer.from(line), SPEC);

describe('skimLine', () => {
  it('replaces each text by the marker of its span, and the span reads back as the text', () => {
    const step = {
      step_id: 1,
      ground_truth: ['#a#', '#b "q"#'],
      reasoning: 'line one\nsays "reasoning": "x" \\ done \u00e9\u4e2d',
      persona_summary: '',
    };
    const line = JSON.stringify({ user_id: 'u', steps: [step, { ...step, step_id: 2, reasoning: 'r2' }] });
    const out = skim(line);
    expect(out).not.toBeNull();
    const steps = (out!.value as { steps: Record<string, unknown>[] }).steps;
    expect(steps.map((s) => [s.reasoning, s.persona_summary, s.ground_truth])).toEqual([
      ['0', '1', []],
      ['2', '3', []],
    ]);
    const bytes = Buffer.from(line);
    const text = (n: number) => spanString(bytes.subarray(out!.spans[2 * n], out!.spans[2 * n + 1]));
    expect([text(0), text(1), text(2), text(3)]).toEqual([step.reasoning, '', 'r2', '']);
  });

  it('leaves a line to the full parser when a skipped token is not valid JSON', () => {
    expect(skim('{"reasoning": "bad \\x escape"}')).toBeNull();
    expect(skim('{"reasoning": "raw\ttab"}')).toBeNull();
    expect(skim('{"reasoning": "\\u12G4"}')).toBeNull();
    expect(skim('{"reasoning": "never closed}')).toBeNull();
    expect(skim('{"reasoning": "ok", "x": }')).toBeNull(); // the rest does not parse
  });

  it('cuts only values of the keys: not a key written inside a string, nor a value of another type', () => {
    expect(skim('{"note": "\\"reasoning\\": \\"x\\"", "a": 1}')).toBeNull();
    expect(skim('{"reasoning": 5, "persona_summary": null, "ground_truth": ["a", 1]}')).toBeNull();
    const out = skim('{"reasoning" : "a", "ground_truth": [ ], "tags": ["reasoning"]}');
    expect(out?.value).toEqual({ reasoning: '0', ground_truth: [], tags: ['reasoning'] });
  });
});

/** Everything a user sees of a load, with every step's texts read (through the spans when skimmed). */
function seen(bench: Benchmark) {
  const runs = [...bench.runs.values()].map((run) => ({
    name: run.name,
    score: scoreRun(bench, run),
    rows: [...run.results].map(([platform, rows]) => [
      platform,
      [...rows.values()].map((r) => ({
        ...r,
        steps: [...r.steps.values()].map((s) => ({
          stepId: s.stepId,
          prediction: s.prediction,
          storedMetrics: s.storedMetrics,
          reasoning: s.reasoning,
          personaSummary: s.personaSummary,
          line: s.line,
        })),
      })),
    ]),
  }));
  return { users: bench.users, runs, diagnostics: bench.diagnostics };
}

async function bothWays(root: string): Promise<{ skimmed: Benchmark; whole: Benchmark }> {
  skimming.enabled = true;
  const skimmed = await loadBenchmark(root);
  skimming.enabled = false;
  const whole = await loadBenchmark(root);
  skimming.enabled = true;
  return { skimmed, whole };
}

const skimmedSteps = (bench: Benchmark) =>
  [...bench.runs.values()].flatMap((run) =>
    [...run.results.values()].flatMap((rows) =>
      [...rows.values()].flatMap((r) => [...r.steps.values()].filter((s) => s instanceof FileStepResult)),
    ),
  ).length;

describe('a skimmed load equals a whole parse', () => {
  afterEach(() => {
    skimming.enabled = true;
  });

  it('on the sample', async () => {
    const { skimmed, whole } = await bothWays(SAMPLE);
    expect(skimmedSteps(skimmed)).toBeGreaterThan(100);
    expect(skimmedSteps(whole)).toBe(0);
    expect(seen(skimmed)).toEqual(seen(whole));
  });

  it('on bad input of every kind the skim meets', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pl-skim-'));
    cpSync(join(SAMPLE, 'data'), join(root, 'data'), { recursive: true });
    cpSync(join(SAMPLE, 'results/demo-llm'), join(root, 'results', 'demo-llm'), { recursive: true });
    const file = join(root, 'results', 'demo-llm', 'inference_results_weibo.jsonl');
    const [first, second, ...rest] = readFileSync(file, 'utf8').split('\n');
    const bad = [
      first.replace('"reasoning": "', '"reasoning": "bad \\q escape '), // invalid JSON only inside the text
      second.replace('"persona_summary": "', '"persona_summary": "raw\ttab '),
      first.replace('"reasoning": "', '"reasoning": 42, "x": "'), // not a string
      first.replace(/"persona_summary": "[^"]*"/, '"persona_summary": "a \\"reasoning\\": \\"b\\""'),
      first.replace('"ground_truth": [', '"ground_truth": [7, '),
      first.slice(0, first.indexOf('"reasoning"') + 30), // cut inside the text
      first.replace('"step_id": 1,', '"step_id": "one",'),
    ];
    writeFileSync(file, [...bad, ...rest].join('\n'));
    // Invalid UTF-8 inside a text, a BOM and CRLF line ends.
    const other = join(root, 'results', 'demo-llm', 'inference_results_douban.jsonl');
    const lines = readFileSync(other, 'utf8').trimEnd().split('\n');
    const broken = Buffer.from(lines[0]);
    broken[broken.indexOf('"reasoning": "') + 15] = 0xff;
    writeFileSync(
      other,
      Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        broken,
        Buffer.from('\r\n' + lines.slice(1).join('\r\n') + '\r\n'),
      ]),
    );
    appendFileSync(join(root, 'data', 'zhihu_inference_tasks.jsonl'), '{"user_id": "z", "posts_text": "\\u00"}\n');
    const { skimmed, whole } = await bothWays(root);
    expect(whole.diagnostics.length).toBeGreaterThanOrEqual(6);
    expect(seen(skimmed)).toEqual(seen(whole));
  });

  it('reads a text back only from the file it was found in: a results file rewritten since gives no text', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pl-skim-stale-'));
    cpSync(join(SAMPLE, 'data'), join(root, 'data'), { recursive: true });
    cpSync(join(SAMPLE, 'results/demo-llm'), join(root, 'results', 'demo-llm'), { recursive: true });
    const bench = await loadBenchmark(root);
    const rows = bench.runs.get('demo-llm')!.results.get('weibo')!;
    const step = [...rows.values()][0].steps.values().next().value!;
    expect(step).toBeInstanceOf(FileStepResult);
    const text = step.reasoning;
    expect(text.length).toBeGreaterThan(10);
    const file = join(root, 'results', 'demo-llm', 'inference_results_weibo.jsonl');
    writeFileSync(file, 'x' + readFileSync(file, 'utf8')); // every span now one byte off
    await new Promise((r) => setImmediate(r)); // past the read window
    expect(step.reasoning).toBe('');
    expect(JSON.parse(JSON.stringify(step))).toMatchObject({ stepId: step.stepId, reasoning: '' });
  });

  it('on a paper-scale folder', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pl-skim-paper-'));
    execFileSync(process.execPath, ['scripts/gen-sample.mjs', '--scale', 'paper', '--out', root], { stdio: 'ignore' });
    const { skimmed, whole } = await bothWays(root);
    expect(skimmedSteps(skimmed)).toBeGreaterThan(10_000);
    expect(seen(skimmed)).toEqual(seen(whole));
  }, 120_000);
});
