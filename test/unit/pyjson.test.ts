import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pyFloat, pyFloatRepr, pyJsonDumps, pyJsonLoads } from '../../src/core/io/pyjson';
import { resultLine, writeResultsFile, type ResultUserRecord } from '../../src/core/spb/format/resultsFile';

const hasPython = spawnSync('python3', ['-c', 'print(1)']).status === 0;

describe('pyFloatRepr', () => {
  it('writes Python float repr', () => {
    expect(pyFloatRepr(1)).toBe('1.0');
    expect(pyFloatRepr(0)).toBe('0.0');
    expect(pyFloatRepr(-0)).toBe('-0.0');
    expect(pyFloatRepr(0.5)).toBe('0.5');
    expect(pyFloatRepr(1 / 3)).toBe('0.3333333333333333');
    expect(pyFloatRepr(2 / 3)).toBe('0.6666666666666666');
    expect(pyFloatRepr(1e-5)).toBe('1e-05');
    expect(pyFloatRepr(0.0001)).toBe('0.0001');
    expect(pyFloatRepr(1.5e-7)).toBe('1.5e-07');
    expect(pyFloatRepr(1e16)).toBe('1e+16');
    expect(pyFloatRepr(1e15)).toBe('1000000000000000.0');
    expect(pyFloatRepr(9999999999999998)).toBe('9999999999999998.0');
    expect(pyFloatRepr(1.7976931348623157e308)).toBe('1.7976931348623157e+308');
    expect(pyFloatRepr(-12345.678)).toBe('-12345.678');
    expect(pyFloatRepr(NaN)).toBe('NaN');
    expect(pyFloatRepr(-Infinity)).toBe('-Infinity');
  });
});

describe('pyJsonDumps', () => {
  it('uses Python separators and keeps non-ASCII', () => {
    expect(pyJsonDumps(['#话题#', 'b'])).toBe('["#话题#", "b"]');
    expect(pyJsonDumps({ a: 1, b: [true, null], c: {}, d: [] })).toBe('{"a": 1, "b": [true, null], "c": {}, "d": []}');
  });
  it('escapes like Python', () => {
    expect(pyJsonDumps('a"b\\c\n\t\u0001\u007f\u2028é')).toBe('"a\\"b\\\\c\\n\\t\\u0001\u007f\u2028é"');
  });
  it('marks floats by wrapper or by key', () => {
    expect(pyJsonDumps([1, pyFloat(1), 0.5])).toBe('[1, 1.0, 0.5]');
    expect(pyJsonDumps({ Recall: 1, step_id: 1, xs: [0, 1] }, { floatKeys: new Set(['Recall', 'xs']) })).toBe(
      '{"Recall": 1.0, "step_id": 1, "xs": [0.0, 1.0]}',
    );
  });
  it('never throws on odd input', () => {
    const cyc: Record<string, unknown> = { a: 1 };
    cyc.self = cyc;
    expect(pyJsonDumps(cyc)).toBe('{"a": 1, "self": null}');
    expect(pyJsonDumps([undefined, () => 1])).toBe('[null, null]');
    expect(pyJsonDumps({ u: undefined, v: 2 })).toBe('{"v": 2}');
    expect(
      pyJsonDumps(
        new Map([
          ['2', 1],
          ['1', 2],
        ]),
      ),
    ).toBe('{"2": 1, "1": 2}');
    expect(pyJsonDumps(1e21)).toBe('1000000000000000000000');
  });
  it.skipIf(!hasPython)('matches python3 json.dumps(ensure_ascii=False)', () => {
    // [python expression, the same value in TS]
    const cases: [string, unknown][] = [
      [
        '[1.0, 0.0, 0.5, 1/3, 1e-05, 1e16, 1.5e-07, 0.1+0.2, 5e-324, 123456789012345680000.0]',
        [1, 0, 0.5, 1 / 3, 1e-5, 1e16, 1.5e-7, 0.1 + 0.2, 5e-324, 123456789012345680000].map(pyFloat),
      ],
      ['[float("nan"), float("inf"), -float("inf"), 3, -7, 2**53]', [NaN, Infinity, -Infinity, 3, -7, 2 ** 53]],
      [
        '{"a": "\\x00\\x1f\\x7f\\u2028\\"\\\\/\\n é 话题 😀", "b": [], "c": {}}',
        { a: '\u0000\u001f\u007f\u2028"\\/\n é 话题 😀', b: [], c: {} },
      ],
      ['{"x": [True, False, None, "看过影视:片名"]}', { x: [true, false, null, '看过影视:片名'] }],
    ];
    const script = 'import json\n' + cases.map(([py]) => `print(json.dumps(${py}, ensure_ascii=False))`).join('\n');
    const run = spawnSync('python3', ['-c', script], {
      encoding: 'utf8',
      env: { ...process.env, PYTHONIOENCODING: 'utf-8' },
    });
    const lines = run.stdout.split('\n');
    cases.forEach(([, ts], i) => expect(pyJsonDumps(ts)).toBe(lines[i]));
  });
});

describe('pyJsonLoads', () => {
  it('accepts NaN and Infinity tokens', () => {
    const r = pyJsonLoads('{"a": NaN, "b": [Infinity, -Infinity, 1.5e2]}');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const v = r.value as { a: number; b: number[] };
    expect(Number.isNaN(v.a)).toBe(true);
    expect(v.b).toEqual([Infinity, -Infinity, 150]);
  });
  it('decodes escapes and surrogate pairs', () => {
    expect(pyJsonLoads('"a\\u00e9\\ud83d\\ude00\\n\\/"')).toEqual({ ok: true, value: 'aé😀\n/' });
  });
  it('reports errors with Python wording and positions', () => {
    const cases: [string, string][] = [
      ['"a\\x"', 'Invalid \\escape: line 1 column 3 (char 2)'],
      ['"a\\u12"', 'Invalid \\uXXXX escape: line 1 column 4 (char 3)'],
      ['"ab', 'Unterminated string starting at: line 1 column 1 (char 0)'],
      ['[1 2]', "Expecting ',' delimiter: line 1 column 4 (char 3)"],
      ['{"a" 1}', "Expecting ':' delimiter: line 1 column 6 (char 5)"],
      ['\ufeff{}', 'Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)'],
      ['{} x', 'Extra data: line 1 column 4 (char 3)'],
      ['"a\nb"', 'Invalid control character at: line 1 column 3 (char 2)'],
      ['', 'Expecting value: line 1 column 1 (char 0)'],
      ['{"a":1,}', 'Expecting property name enclosed in double quotes: line 1 column 8 (char 7)'],
      ['[1,]', 'Expecting value: line 1 column 4 (char 3)'],
      ['[\n  1,\n  x]', 'Expecting value: line 3 column 3 (char 9)'],
    ];
    for (const [text, message] of cases) {
      const r = pyJsonLoads(text);
      expect(r.ok ? 'ok' : r.error, JSON.stringify(text)).toBe(message);
    }
  });
  it('keeps a __proto__ key as data', () => {
    const r = pyJsonLoads('{"__proto__": 1}');
    expect(r.ok && Object.keys(r.value as object)).toEqual(['__proto__']);
  });
});

describe('results file', () => {
  const user: ResultUserRecord = {
    user_id: 'we_0123456789',
    platform: 'weibo',
    username: 'U_abcdef01',
    steps: [
      {
        step_id: 1,
        prediction: ['#a#', '#b#'],
        ground_truth: ['#a#'],
        metrics: {
          Recall: 1,
          Recall_Novelty: NaN,
          Recall_Stability: 1,
          Error_Decay: 0,
          Error_Peer: 0.5,
          Error_Viral: 0,
          Error_Random: 0,
        },
        reasoning: 'r',
        persona_summary: '喜欢跑步',
      },
      { step_id: 2, prediction: [], ground_truth: [], metrics: null, reasoning: 'Error: x', persona_summary: '' },
    ],
  };
  const expected =
    '{"user_id": "we_0123456789", "platform": "weibo", "username": "U_abcdef01", "steps": [' +
    '{"step_id": 1, "prediction": ["#a#", "#b#"], "ground_truth": ["#a#"], "metrics": {"Recall": 1.0, ' +
    '"Recall_Novelty": NaN, "Recall_Stability": 1.0, "Error_Decay": 0.0, "Error_Peer": 0.5, "Error_Viral": 0.0, ' +
    '"Error_Random": 0.0}, "reasoning": "r", "persona_summary": "喜欢跑步"}, ' +
    '{"step_id": 2, "prediction": [], "ground_truth": [], "metrics": null, "reasoning": "Error: x", "persona_summary": ""}]}';

  it('writes one line per user in the official shape', () => {
    expect(resultLine(user)).toBe(expected);
  });

  it('writes atomically, leaving no temp file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyjson-'));
    const path = join(dir, 'results', 'run', 'inference_results_weibo.jsonl');
    await writeResultsFile(path, [user, { ...user, user_id: 'we_1111111111', steps: [] }], dir);
    expect(readFileSync(path, 'utf8')).toBe(
      expected + '\n' + '{"user_id": "we_1111111111", "platform": "weibo", "username": "U_abcdef01", "steps": []}\n',
    );
    expect(readdirSync(join(dir, 'results', 'run'))).toEqual(['inference_results_weibo.jsonl']);
  });
});
