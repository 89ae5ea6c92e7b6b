import { describe, expect, it } from 'vitest';
import {
  cleanReply,
  errorRecord,
  parseReply,
  pyStrip,
  threadPersona,
  type ReplyFlag,
} from '../../src/core/spb/prompt/response';

const pool = ['#a', '#b', '#c', '#d', '#e', '#f', '#g', '#h'];
const k = 2;
const good = { persona_summary: 'Likes hiking.', predicted_tags: ['#a', '#b'], reasoning: 'because' };
const codes = (flags: ReplyFlag[]) => flags.map((f) => f.code);

describe('parseReply', () => {
  it('accepts a clean reply without flags', () => {
    const r = parseReply(JSON.stringify(good), pool, k);
    expect(r.ok).toBe(true);
    expect(r.value).toEqual(good);
    expect(r.flags).toEqual([]);
  });

  it('strips code fences (all of them) and flags them', () => {
    const r = parseReply('```json\n' + JSON.stringify(good) + '\n```\n', pool, k);
    expect(r.ok).toBe(true);
    expect(r.value).toEqual(good);
    expect(codes(r.flags)).toEqual(['fenced']);
    // "```" inside a string value is deleted too, as the reference's str.replace does.
    const r2 = parseReply(JSON.stringify({ ...good, reasoning: 'a```b' }), pool, k);
    expect(r2.value?.reasoning).toBe('ab');
  });

  it('flags invalid JSON with the Python message', () => {
    const r = parseReply('{"persona_summary": "x", ', pool, k);
    expect(r.ok).toBe(false);
    expect(r.value).toBeNull();
    expect(r.flags).toHaveLength(1);
    const f = r.flags[0];
    expect(f.code).toBe('not_json');
    // The trailing space is stripped before parsing, so the error sits at char 24 (the end).
    if (f.code === 'not_json') {
      expect(f.error).toBe('Expecting property name enclosed in double quotes: line 1 column 25 (char 24)');
    }
  });

  it('flags an array instead of an object', () => {
    const r = parseReply('["#a", "#b"]', pool, k);
    expect(r.ok).toBe(false);
    expect(r.flags.map((f) => (f.code === 'not_object' ? f.got : f.code))).toEqual(['array']);
  });

  it('flags each missing key', () => {
    const r = parseReply('{"predicted_tags": ["#a", "#b"]}', pool, k);
    expect(r.ok).toBe(true);
    expect(r.flags.map((f) => (f.code === 'missing_key' ? f.key : f.code))).toEqual(['persona_summary', 'reasoning']);
    expect(r.value).toEqual({ persona_summary: '', predicted_tags: ['#a', '#b'], reasoning: '' });
  });

  it('flags wrong types', () => {
    const r = parseReply('{"persona_summary": 3, "predicted_tags": "#a, #b", "reasoning": ["x"]}', pool, k);
    expect(r.flags.map((f) => (f.code === 'wrong_type' ? `${f.key}:${f.got}` : f.code))).toEqual([
      'persona_summary:integer',
      'predicted_tags:string',
      'reasoning:array',
    ]);
    expect(r.value?.predicted_tags).toEqual([]);
    const r2 = parseReply('{"persona_summary": "p", "predicted_tags": ["#a", 7], "reasoning": ""}', pool, k);
    expect(codes(r2.flags)).toEqual(['wrong_type']);
    expect(r2.value?.predicted_tags).toEqual(['#a', 7]);
  });

  it('flags too many and too few tags', () => {
    const many = parseReply(JSON.stringify({ ...good, predicted_tags: ['#a', '#b', '#c'] }), pool, k);
    expect(many.flags).toEqual([expect.objectContaining({ code: 'count', got: 3, expected: 2 })]);
    const few = parseReply(JSON.stringify({ ...good, predicted_tags: [] }), pool, k);
    expect(few.flags).toEqual([expect.objectContaining({ code: 'count', got: 0, expected: 2 })]);
  });

  it('flags duplicates (and not the count when it is k)', () => {
    const r = parseReply(JSON.stringify({ ...good, predicted_tags: ['#a', '#a'] }), pool, k);
    expect(r.flags).toEqual([expect.objectContaining({ code: 'duplicates', tags: ['#a'] })]);
  });

  it('lists out-of-pool tags', () => {
    const r = parseReply(JSON.stringify({ ...good, predicted_tags: ['#a', '#zz', '#yy', '#zz'] }), pool, 4);
    const f = r.flags.find((x) => x.code === 'out_of_pool');
    expect(f && f.code === 'out_of_pool' ? f.tags : null).toEqual(['#zz', '#yy']);
    expect(codes(r.flags)).toEqual(['duplicates', 'out_of_pool']);
  });

  it('flags an empty or blank persona', () => {
    expect(codes(parseReply(JSON.stringify({ ...good, persona_summary: '' }), pool, k).flags)).toEqual([
      'empty_persona',
    ]);
    expect(codes(parseReply(JSON.stringify({ ...good, persona_summary: ' \n' }), pool, k).flags)).toEqual([
      'empty_persona',
    ]);
  });

  it('flags extra keys as info and accepts NaN like Python', () => {
    const r = parseReply(
      '{"persona_summary": "p", "predicted_tags": ["#a", "#b"], "reasoning": "r", "confidence": NaN}',
      pool,
      k,
    );
    expect(r.ok).toBe(true);
    expect(r.flags).toEqual([expect.objectContaining({ code: 'extra_keys', keys: ['confidence'], severity: 'info' })]);
  });

  it('never throws on junk', () => {
    for (const junk of ['', '```', 'null', '42', '"s"', '{', undefined as unknown as string]) {
      const r = parseReply(junk, pool, k);
      expect(r.ok).toBe(false);
      expect(r.flags.length).toBeGreaterThan(0);
    }
  });
});

describe('clean-up', () => {
  it('strips Python whitespace, not a BOM', () => {
    expect(pyStrip('\x1c\u3000 x \x85')).toBe('x');
    expect(pyStrip('\ufeffx')).toBe('\ufeffx');
    expect(cleanReply('  ```json{}```  ')).toBe('{}');
  });
});

describe('errorRecord and threadPersona', () => {
  it('builds the reference error record', () => {
    expect(errorRecord('timeout')).toEqual({ predicted_tags: [], reasoning: 'Error: timeout' });
    expect('persona_summary' in errorRecord('x')).toBe(false);
  });
  it('threads the persona', () => {
    expect(threadPersona(null, { persona_summary: 'new' })).toBe('new');
    expect(threadPersona('old', { persona_summary: '' })).toBe('old');
    expect(threadPersona('old', { persona_summary: 5 })).toBe('old');
    expect(threadPersona('old', errorRecord('x'))).toBe('old');
    expect(threadPersona(null, null)).toBeNull();
    expect(threadPersona('old', { persona_summary: ' ' })).toBe(' ');
  });
});
