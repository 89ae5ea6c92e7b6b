// One line of a data file on its own: streamed to the line asked for, and pretty-printed when it is one JSON value.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prettyJsonLine, readLineAt } from '../../src/core/io/lineText';

describe('a source line shown on its own', () => {
  it('reads line n (1-based) of LF and CRLF files; past the end is undefined', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-line-'));
    const file = join(dir, 'a.jsonl');
    writeFileSync(file, '{"a":1}\r\n{"b":[2,3]}\r\nlast');
    expect(await readLineAt(file, 1)).toBe('{"a":1}');
    expect(await readLineAt(file, 2)).toBe('{"b":[2,3]}');
    expect(await readLineAt(file, 3)).toBe('last');
    expect(await readLineAt(file, 4)).toBeUndefined();
  });

  it('pretty-prints a JSONL line and a record of a JSON array written one per line (its comma dropped)', () => {
    expect(prettyJsonLine('{"user_id":"u1","steps":[{"step_id":1}]}')).toBe(
      '{\n  "user_id": "u1",\n  "steps": [\n    {\n      "step_id": 1\n    }\n  ]\n}',
    );
    expect(prettyJsonLine('  {"type":"search","keyword":"猫"},')).toBe('{\n  "type": "search",\n  "keyword": "猫"\n}');
    // The reference's bare NaN stays NaN.
    expect(prettyJsonLine('{"metrics": {"Recall": NaN, "F": -Infinity}}')).toBe(
      '{\n  "metrics": {\n    "Recall": NaN,\n    "F": -Infinity\n  }\n}',
    );
  });

  it('leaves alone what is not one JSON value: a fragment, broken JSON, plain text', () => {
    expect(prettyJsonLine('{"u_1001": {"user_profile": "x", "action_history": [')).toBeUndefined();
    expect(prettyJsonLine('{"a": 1')).toBeUndefined();
    expect(prettyJsonLine('hello')).toBeUndefined();
    expect(prettyJsonLine('42')).toBeUndefined();
  });
});
