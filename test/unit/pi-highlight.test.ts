// The step view's PI marks: placeholders and residual findings per text, the legend's counts, and how the webview
// cuts a text by them (segmentText, shared with webview/spb/step/pi.ts).
import { describe, expect, it } from 'vitest';
import { loadBenchmark, readPostsText } from '../../src/core/spb/format/load';
import { comparisonPiMarks, piMarks, stepPiMarks } from '../../src/core/spb/pi/highlight';
import type { RerunComparison } from '../../src/core/spb/rerun/attemptCompare';
import { fieldKey, segmentText, type PiMark } from '../../src/core/pi/spans';
import { buildStepModel, type StepModel } from '../../src/core/spb/view/stepModel';
import { SAMPLE } from '../support/committedSample';

const PHONE = '13800138000';
const brief = (marks: PiMark[], text: string) =>
  marks.map((m) => [m.kind, m.category, text.slice(m.start, m.end), m.confidence]);

describe('piMarks', () => {
  it('marks placeholders and findings in text order, never a placeholder as a finding', () => {
    const text = `联系我 ${PHONE}，或者 <PHONE>，邮箱 <EMAIL> / li.lei@example.com`;
    expect(brief(piMarks(text), text)).toEqual([
      ['finding', 'PHONE', PHONE, 'high'],
      ['placeholder', 'PHONE', '<PHONE>', null],
      ['placeholder', 'EMAIL', '<EMAIL>', null],
      ['finding', 'EMAIL', 'li.lei@example.com', 'high'],
    ]);
    expect(piMarks('版本 v2.3.1，价格 ¥199，订单 2024-05-01')).toEqual([]);
    expect(piMarks('')).toEqual([]);
  });

  it('leaves out findings below minConfidence, keeps placeholders', () => {
    const text = '大家好，我叫王小明，<PHONE> 找我';
    const all = piMarks(text);
    expect(all.some((m) => m.kind === 'finding' && m.category === 'SELF' && m.confidence === 'low')).toBe(true);
    expect(brief(piMarks(text, { minConfidence: 'medium' }), text)).toEqual([
      ['placeholder', 'PHONE', '<PHONE>', null],
    ]);
  });
});

describe('segmentText', () => {
  const text = 'a <ID> b 13800138000 c';
  const marks = piMarks(text);

  it('cuts the text into plain and marked segments that join back to the text', () => {
    const segs = segmentText(text, marks);
    expect(segs.map((s) => [s.text, s.mark?.kind ?? null, s.first])).toEqual([
      ['a ', null, false],
      ['<ID>', 'placeholder', true],
      [' b ', null, false],
      [PHONE, 'finding', true],
      [' c', null, false],
    ]);
    expect(segs.map((s) => s.text).join('')).toBe(text);
  });

  it('clips marks to a range (label spans cut the persona), first only where the mark starts', () => {
    const segs = segmentText(text, marks, 4, 13);
    expect(segs.map((s) => [s.text, s.mark?.kind ?? null, s.first])).toEqual([
      ['D>', 'placeholder', false],
      [' b ', null, false],
      ['1380', 'finding', true],
    ]);
    expect(segmentText(text, marks, 13, 30).map((s) => [s.text, s.first])).toEqual([
      ['0138000', false],
      [' c', false],
    ]);
  });

  it('ignores marks that are out of range, empty, not integers or overlapping', () => {
    const bad: PiMark[] = [
      { kind: 'placeholder', category: 'ID', start: -1, end: 3, confidence: null, reason: '' },
      { kind: 'placeholder', category: 'ID', start: 20, end: 99, confidence: null, reason: '' },
      { kind: 'placeholder', category: 'ID', start: 5, end: 5, confidence: null, reason: '' },
      { kind: 'placeholder', category: 'ID', start: 1.5, end: 4, confidence: null, reason: '' },
      { kind: 'placeholder', category: 'ID', start: 2, end: 6, confidence: null, reason: '' },
      { kind: 'finding', category: 'PHONE', start: 4, end: 12, confidence: 'high', reason: '' },
    ];
    const segs = segmentText(text, bad);
    expect(segs.filter((s) => s.mark).map((s) => s.text)).toEqual(['<ID>']);
    expect(segs.map((s) => s.text).join('')).toBe(text);
    expect(segmentText('', marks)).toEqual([]);
  });
});

describe('stepPiMarks', () => {
  const sample = SAMPLE;
  async function sampleModel(userId: string, stepId: number): Promise<StepModel> {
    const bench = await loadBenchmark(sample);
    const user = bench.users.get('weibo')!.get(userId)!;
    const step = user.steps.find((s) => s.stepId === stepId)!;
    return buildStepModel({
      bench,
      user,
      step,
      run: bench.runs.get([...bench.runs.keys()][0]),
      postsText: readPostsText(user, step),
    });
  }

  it('finds the planted phone of the sample in the post that holds it', async () => {
    const m = await sampleModel('we_b5ce11fb65', 2);
    const pi = stepPiMarks(m);
    const i = m.posts.findIndex((p) => p.content.includes(PHONE));
    expect(i).toBeGreaterThanOrEqual(0);
    const marks = pi.fields[fieldKey.postContent(i)];
    expect(brief(marks, m.posts[i].content)).toContainEqual(['finding', 'PHONE', PHONE, 'high']);
    expect(pi.legend.find((r) => r.category === 'PHONE')).toMatchObject({ findings: 1 });
    expect(pi.findings).toBeGreaterThanOrEqual(1);
  });

  it('counts placeholders per category across bio, posts, personas and reasoning, not the diff again', () => {
    const m = {
      header: { bio: '电话 <PHONE>' },
      postsOk: true,
      postsRaw: '',
      posts: [
        { index: 1, content: '<PHONE> 和 <ID>', fields: [{ label: 'Title', value: `<EMAIL> ${PHONE}` }], tags: [] },
      ],
      persona: {
        received: '住在 <GEO>',
        written: '住在 <GEO> 附近',
        diff: [
          { kind: 'same', text: '住在 <GEO>' },
          { kind: 'added', text: ' 附近' },
        ],
      },
      reasoning: '见 <ID>',
      pool: { groups: [{ tags: [{ tag: '数码' }] }], outOfPool: [] },
    } as unknown as StepModel;
    const pi = stepPiMarks(m);
    expect(pi.legend).toEqual([
      { category: 'PHONE', placeholders: 2, findings: 1 },
      { category: 'ID', placeholders: 2, findings: 0 },
      { category: 'EMAIL', placeholders: 1, findings: 0 },
      { category: 'GEO', placeholders: 2, findings: 0 },
    ]);
    expect(pi.placeholders).toBe(7);
    expect(pi.findings).toBe(1);
    expect(Object.keys(pi.fields).sort()).toEqual([
      'bio',
      'persona/diff/0',
      'persona/received',
      'persona/written',
      'post/0/content',
      'post/0/field/0',
      'reasoning',
    ]);
    expect(brief(pi.fields['post/0/field/0'], `<EMAIL> ${PHONE}`)).toEqual([
      ['placeholder', 'EMAIL', '<EMAIL>', null],
      ['finding', 'PHONE', PHONE, 'medium'],
    ]);
  });

  it('marks the raw posts when they did not parse', () => {
    const m = {
      header: { bio: '' },
      postsOk: false,
      postsRaw: `raw <IP> ${PHONE}`,
      posts: [],
      persona: { received: '', written: '', diff: null },
      reasoning: '',
      pool: { groups: [], outOfPool: [] },
    } as unknown as StepModel;
    const pi = stepPiMarks(m);
    expect(Object.keys(pi.fields)).toEqual(['postsRaw']);
    expect(pi.legend).toEqual([
      { category: 'PHONE', placeholders: 0, findings: 1 },
      { category: 'IP', placeholders: 1, findings: 0 },
    ]);
  });
});

describe('stepPiMarks on tags', () => {
  it('marks pool tags and picks outside the pool by their text, each tag once, and counts them', () => {
    const m = {
      header: { bio: '' },
      postsOk: true,
      postsRaw: '',
      posts: [],
      persona: { received: '', written: '', diff: null },
      reasoning: '',
      pool: {
        groups: [
          { tags: [{ tag: `联系我 ${PHONE}` }, { tag: '数码' }] },
          { tags: [{ tag: `联系我 ${PHONE}` }, { tag: '住在 <GEO>' }] },
        ],
        outOfPool: ['邮箱 li.lei@example.com'],
      },
    } as unknown as StepModel;
    const pi = stepPiMarks(m);
    expect(Object.keys(pi.fields).sort()).toEqual(
      [fieldKey.tag(`联系我 ${PHONE}`), fieldKey.tag('住在 <GEO>'), fieldKey.tag('邮箱 li.lei@example.com')].sort(),
    );
    expect(brief(pi.fields[fieldKey.tag(`联系我 ${PHONE}`)], `联系我 ${PHONE}`)).toEqual([
      ['finding', 'PHONE', PHONE, 'high'],
    ]);
    expect(pi.legend).toEqual([
      { category: 'PHONE', placeholders: 0, findings: 1 },
      { category: 'EMAIL', placeholders: 0, findings: 1 },
      { category: 'GEO', placeholders: 1, findings: 0 },
    ]);
  });
});

describe('comparisonPiMarks', () => {
  it("marks both sides' personas and reasoning and the persona diff, by side", () => {
    const c = {
      original: { personaIn: null, personaWritten: '住在 <GEO>', reasoning: '' },
      rerun: {
        personaIn: `电话 ${PHONE}`,
        personaWritten: '住在 <GEO> 附近',
        reasoning: `received persona: 电话 ${PHONE}`,
      },
      personaDiff: [
        { kind: 'same', text: '住在 <GEO>' },
        { kind: 'added', text: ' 附近' },
      ],
    } as unknown as RerunComparison;
    const marks = comparisonPiMarks(c);
    expect(Object.keys(marks).sort()).toEqual([
      'cmp/diff/0',
      'cmp/original/personaWritten',
      'cmp/rerun/personaIn',
      'cmp/rerun/personaWritten',
      'cmp/rerun/reasoning',
    ]);
    expect(brief(marks[fieldKey.cmp('rerun', 'personaIn')], `电话 ${PHONE}`)).toEqual([
      ['finding', 'PHONE', PHONE, 'high'],
    ]);
    expect(marks[fieldKey.cmp('rerun', 'reasoning')].map((m) => m.category)).toEqual(['PHONE']);
    expect(comparisonPiMarks(null)).toEqual({});
  });
});
