// Raw-line columns of a finding's span: JSON escapes, nested paths, duplicate keys, Python tokens, and the
// whole sample/ manifest checked against its files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { auditBenchmark } from '../../src/core/spb/pi/audit';
import { locateSpan, parseFieldPath, valueAt } from '../../src/extension/audit/locate';
import { SAMPLE } from '../support/committedSample';

/** The raw slice at the located columns, and what the span decodes to. */
function spanOf(line: string, field: string, start: number, end: number): { raw: string; text: string } | undefined {
  const s = locateSpan(line, field, start, end);
  return s && { raw: line.slice(s.start, s.end), text: s.text };
}

describe('parseFieldPath', () => {
  it('splits names and indexes', () => {
    expect(parseFieldPath('bio')).toEqual(['bio']);
    expect(parseFieldPath('prediction_tasks[1].posts_text')).toEqual(['prediction_tasks', 1, 'posts_text']);
    expect(parseFieldPath('prediction_tasks[0].meta.T_keep[3]')).toEqual(['prediction_tasks', 0, 'meta', 'T_keep', 3]);
    expect(parseFieldPath('steps[2].prediction[10]')).toEqual(['steps', 2, 'prediction', 10]);
  });

  it('rejects malformed paths', () => {
    for (const bad of ['', '.bio', 'bio.', '[1]', 'a..b', 'a[x]', 'a[1', 'a.[1]'])
      expect(parseFieldPath(bad), bad).toBeUndefined();
  });
});

describe('locateSpan', () => {
  it('maps decoded offsets past escapes to raw columns', () => {
    const value = 'line one\n"quoted" \\ tab\there: 13800138000 end';
    const line = JSON.stringify({ user_id: 'u', bio: value });
    const start = value.indexOf('13800138000');
    expect(spanOf(line, 'bio', start, start + 11)).toEqual({ raw: '13800138000', text: '13800138000' });
  });

  it('handles \\u escapes, surrogate pairs and non-ASCII text (UTF-16 columns on both sides)', () => {
    const value = '😀 联系我 \u00e9 13800138000';
    const escaped = JSON.stringify({ bio: value }).replace(
      /[^\x20-\x7e]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    const start = value.indexOf('138');
    expect(spanOf(escaped, 'bio', start, start + 11)?.raw).toBe('13800138000');
    const plain = JSON.stringify({ bio: value });
    const s = locateSpan(plain, 'bio', 0, 2);
    expect(s && plain.slice(s.start, s.end)).toBe('😀');
    const cjk = value.indexOf('联系我');
    expect(spanOf(escaped, 'bio', cjk, cjk + 3)).toEqual({ raw: '\\u8054\\u7cfb\\u6211', text: '联系我' });
  });

  it('follows arrays and nested objects, skipping other values of every kind', () => {
    const rec = {
      user_id: 'u',
      other: { a: [1, 2.5e3, true, null, { b: 'x]}' }], s: 'tricky "}]' },
      prediction_tasks: [
        { step_id: 1, posts_text: 'nothing here', candidate_pool: ['#a#'] },
        { step_id: 2, posts_text: 'call 13800138000', meta: { T_keep: ['#k#', 'tag 203.0.113.57'] } },
      ],
    };
    const line = JSON.stringify(rec, null, 1).replace(/\n/g, ' ');
    expect(spanOf(line, 'prediction_tasks[1].posts_text', 5, 16)?.raw).toBe('13800138000');
    expect(spanOf(line, 'prediction_tasks[1].meta.T_keep[1]', 4, 16)?.raw).toBe('203.0.113.57');
    expect(spanOf(line, 'prediction_tasks[0].candidate_pool[0]', 0, 3)?.raw).toBe('#a#');
  });

  it('takes the last of duplicate keys, as JSON.parse does', () => {
    const line = '{"bio": "first 111", "bio": "second 222"}';
    expect(JSON.parse(line).bio).toBe('second 222');
    expect(spanOf(line, 'bio', 7, 10)).toEqual({ raw: '222', text: '222' });
  });

  it("skips Python's bare NaN / Infinity tokens", () => {
    const line = '{"steps": [{"metrics": {"Recall": NaN, "x": -Infinity}, "reasoning": "IP 10.0.0.1"}]}';
    expect(spanOf(line, 'steps[0].reasoning', 3, 11)?.raw).toBe('10.0.0.1');
  });

  it('is undefined when the path or the span does not exist, or the value is not a string', () => {
    const line = JSON.stringify({ bio: 'short', prediction_tasks: [{ step_id: 1 }] });
    expect(locateSpan(line, 'nope', 0, 1)).toBeUndefined();
    expect(locateSpan(line, 'bio', 2, 99)).toBeUndefined();
    expect(locateSpan(line, 'prediction_tasks[3].posts_text', 0, 1)).toBeUndefined();
    expect(locateSpan(line, 'prediction_tasks[0].step_id', 0, 1)).toBeUndefined();
    expect(locateSpan('{"bio": "unterminated', 'bio', 0, 1)).toBeUndefined();
    expect(locateSpan('not json', 'bio', 0, 1)).toBeUndefined();
    expect(locateSpan(line, 'bio', 3, 1)).toBeUndefined();
  });

  it('an empty span at the end of the string is located', () => {
    const line = '{"bio": "abc"}';
    expect(locateSpan(line, 'bio', 3, 3)).toEqual({ start: 12, end: 12, text: '' });
  });
});

describe('valueAt', () => {
  it('reads the value at a field path, never through the prototype', () => {
    const rec = { bio: 'b', prediction_tasks: [{ posts_text: 'p' }] };
    expect(valueAt(rec, 'prediction_tasks[0].posts_text')).toBe('p');
    expect(valueAt(rec, 'prediction_tasks[1].posts_text')).toBeUndefined();
    expect(valueAt(rec, 'constructor')).toBeUndefined();
    expect(valueAt(rec, 'bio[0]')).toBeUndefined();
  });
});

describe('every finding of sample/ is located in its file', async () => {
  const root = SAMPLE;
  const audit = await auditBenchmark(await loadBenchmark(root));
  const lines = new Map<string, string[]>();
  const lineOf = (file: string, n: number) => {
    if (!lines.has(file)) lines.set(file, readFileSync(join(root, file), 'utf8').split('\n'));
    return lines.get(file)![n - 1]!;
  };

  it('at columns that hold exactly the finding', () => {
    expect(audit.findings.length).toBeGreaterThanOrEqual(7);
    for (const f of audit.findings) {
      const line = lineOf(f.file, f.line);
      const s = locateSpan(line, f.field, f.start, f.end);
      expect(s?.text, `${f.file}:${f.line} ${f.field}`).toBe(f.text);
      // The sample is written without \u escapes: the raw columns hold the same characters.
      expect(line.slice(s!.start, s!.end)).toBe(f.text);
    }
  });
});
