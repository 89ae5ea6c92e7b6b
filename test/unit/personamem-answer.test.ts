// The authors' answer reading (extract_answer) and the all_options literal, on cases where a looser reading would
// give another verdict.
import { describe, expect, it } from 'vitest';
import { optionLetters, readAnswer } from '../../src/core/personamem/answer';
import { parsePyStringList } from '../../src/core/personamem/pyList';

describe('readAnswer, as extract_answer', () => {
  it.each([
    ['<final_answer>(b)', '(b)', true],
    ['<final_answer>(B)</final_answer>', '(b)', true],
    ['Thinking (a)... <final_answer>(c)', '(c)', true],
    // several letters in the tagged text, and the whole response names several too
    ['<final_answer>(a) or (c)', '(a)', false],
    // the article "a" is a bare letter: {a, b} is not {b}
    ['It is a good one: b', '(b)', false],
    ['It is a good one: b', '(a)', false],
    // the tagged text names nothing; the whole response names (d) alone and rescues it
    ['I pick (d). <final_answer>none of them', '(d)', true],
    // the last tag wins
    ['<final_answer>(a) no wait <final_answer>(b)', '(b)', true],
    ['', '(a)', false],
    // Python's \b: é is a word character, so "éa" has no bare a; "ñb" none either
    ['éa ñb c', '(c)', true],
    // digits and underscore are word characters
    ['a1 _b c', '(c)', true],
    // (e) is no option: the parenthesised search finds nothing, the bare one finds c
    ['(e) c', '(c)', true],
    // Python's strip() removes U+0085 and U+001C around the tag's text (JS trim() keeps U+001C)
    ['<final_answer>\x1c(a)\x85</final_answer>\x1c', '(a)', true],
    // the gold answer is stripped of "() " only
    ['<final_answer>(a)', ' (A) ', true],
  ])('%j against %s is %s', (response, gold, right) => {
    expect(readAnswer(response, gold).correct).toBe(right);
  });

  it('says which answers name no single letter (scored wrong), and keeps the text after the tag', () => {
    expect(readAnswer('<final_answer>(a) or (c)', '(a)').unreadable).toBe(true);
    expect(readAnswer('<final_answer>(c)', '(a)').unreadable).toBe(false);
    expect(readAnswer('see (d) <final_answer> maybe </final_answer>', '(a)').predicted).toBe('maybe');
    expect(readAnswer('see (d) <final_answer> maybe', '(a)').pick).toBe('d');
  });

  it('finds parenthesised letters before bare ones', () => {
    expect([...optionLetters('a b (c)')]).toEqual(['c']);
    expect([...optionLetters('A, b and d')].sort()).toEqual(['a', 'b', 'd']);
  });
});

describe('parsePyStringList, as ast.literal_eval of all_options', () => {
  it('reads mixed quotes, escapes, adjacent literals and a trailing comma', () => {
    const r = parsePyStringList(`['(a) it\\'s', "(b) say \\"hi\\"", '(c) tab\\tx' 'y', '(d) \\u00e9\\x41',]`);
    expect(r).toEqual({ ok: true, items: ["(a) it's", '(b) say "hi"', '(c) tab\txy', '(d) éA'] });
  });
  it.each([
    ['(a) x, (b) y', /should start with "\["/],
    ["['(a) x', 3]", /expected a string at character 11/],
    ["['(a) x'", /the list is not closed/],
    ["['(a) x]", /unterminated string/],
    ["['(a)'] extra", /text after the list/],
  ])('refuses %j, saying where', (text, message) => {
    const r = parsePyStringList(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(message);
  });
});
