// Python's bare NaN / Infinity tokens are read through internal marker strings ("\u0000NaN");
// no message may show such a marker, raw or JSON-quoted.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { omniBehavior } from '../../src/core/formats';
import { DiagnosticSink, type Diagnostic } from '../../src/core/io/diagnostics';
import { kindOf } from '../../src/core/omni/records';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { describe as describeValue } from '../../src/core/spb/format/tasks';
import { PY_INF, PY_NAN, PY_NEG_INF } from '../../src/core/io/jsonl';
import { SAMPLE } from '../support/committedSample';

const leaks = (ds: readonly Diagnostic[]) =>
  ds.filter((d) => /\u0000|\\u0000/.test(`${d.field} ${d.message}`)).map((d) => `${d.field}: ${d.message}`);

describe('no internal NaN marker in messages', () => {
  it('describes a NaN / Infinity value as the number it stands for', () => {
    expect(describeValue(PY_NAN)).toBe('number NaN');
    expect(describeValue(PY_NEG_INF)).toBe('number -Infinity');
    expect(kindOf(PY_INF)).toBe('number Infinity');
    expect(kindOf(NaN)).toBe('number NaN');
  });

  it('words every diagnostic without the marker, whatever the message builder put in', () => {
    const sink = new DiagnosticSink('f.jsonl');
    sink.warn(3, 'x', `got ${JSON.stringify(PY_NAN)} and ${PY_INF}`);
    expect(sink.items[0].message).toBe('got NaN and Infinity');
  });

  it('a StreamProfileBench results file with NaN where a user id, a step id or a metric goes', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pl-nan-'));
    mkdirSync(join(root, 'data'));
    mkdirSync(join(root, 'results', 'r'), { recursive: true });
    const tasks = readFileSync(join(SAMPLE, 'data', 'weibo_inference_tasks.jsonl'), 'utf8');
    writeFileSync(join(root, 'data', 'weibo_inference_tasks.jsonl'), `${tasks.trimEnd()}\n{"user_id": NaN}\n`);
    const first = readFileSync(join(SAMPLE, 'data', 'weibo_inference_tasks.jsonl'), 'utf8').split('\n')[0];
    const user = (JSON.parse(first) as { user_id: string }).user_id;
    const lines = [
      '{"user_id": NaN, "steps": []}',
      `{"user_id": "${user}", "steps": [{"step_id": NaN, "prediction": []}, {"step_id": 1, "prediction": [NaN], "metrics": {"Recall": NaN, "Recall_Novelty": "x"}}], "username": Infinity}`,
    ];
    writeFileSync(join(root, 'results', 'r', 'inference_results_weibo.jsonl'), lines.join('\n') + '\n');
    const bench = await loadBenchmark(root);
    expect(bench.diagnostics.length).toBeGreaterThan(1);
    expect(leaks(bench.diagnostics)).toEqual([]);
    // a NaN user id is a number, not the id "NaN" nor a user
    const byId = bench.diagnostics.filter((d) => d.field === 'user_id' && /not a string/.test(d.message));
    expect(byId.map((d) => d.file.split('/')[0])).toEqual(['data', 'results']);
  });

  it('an OmniBehavior predictions file with NaN as a true value', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pl-nan-omni-'));
    const src = join(SAMPLE, 'omnibehavior');
    mkdirSync(join(root, 'raw'));
    mkdirSync(join(root, 'results', 'r'), { recursive: true });
    const tests = readFileSync(join(src, 'test_actions.jsonl'), 'utf8').split('\n').filter(Boolean);
    const test = JSON.parse(tests[0]) as { user_id: string; index: number; fields: string[] };
    writeFileSync(join(root, 'test_actions.jsonl'), tests[0] + '\n');
    copyFileSync(join(src, 'raw', `${test.user_id}.json`), join(root, 'raw', `${test.user_id}.json`));
    const qs = test.fields.map(
      (f) => `{"type": "binary", "field": "${f}", "true_value": NaN, "predicted_value": NaN, "predicted_label": NaN}`,
    );
    writeFileSync(
      join(root, 'results', 'r', 'predictions.jsonl'),
      `{"user_id": "${test.user_id}", "index": ${test.index}, "questions": [${qs.join(', ')}]}\n`,
    );
    const { bench } = await omniBehavior.load(root);
    expect(bench.diagnostics.length).toBeGreaterThan(0);
    expect(leaks(bench.diagnostics)).toEqual([]);
  });
});
