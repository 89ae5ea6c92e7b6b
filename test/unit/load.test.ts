import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBenchmark, readPostsText } from '../../src/core/spb/format/load';
import { PY_NAN, parseJsonText, replacePythonTokens } from '../../src/core/io/jsonl';
import { scoreRun } from '../../src/core/spb/score/run';

const meta = (extra: Record<string, string[]> = {}) => ({
  T_keep: ['#k#'],
  T_new: [],
  D_decay: ['#d#'],
  D_cluster: ['#p#'],
  D_viral: ['#v#'],
  D_random: [],
  ...extra,
});
const step = (id: number, extra: Record<string, unknown> = {}) => ({
  step_id: id,
  total_steps: 2,
  date_input: '2024-01-0' + id,
  date_target: '2024-01-1' + id,
  posts_text: `[1] Content: 第${id}批\nTags: #k#`,
  candidate_pool: ['#k#', '#d#', '#p#', '#v#'],
  meta: meta(),
  ...extra,
});
const user = (id: string, steps: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    user_id: id,
    platform: 'weibo',
    username: 'U_00000000',
    bio: '',
    total_steps: steps.length,
    prediction_tasks: steps,
    ...extra,
  });

function corpus(): string {
  const root = mkdtempSync(join(tmpdir(), 'pl-corrupt-'));
  mkdirSync(join(root, 'data'));
  const lines: (string | Buffer)[] = [
    '\ufeff' + user('we_0000000001', [step(1), step(2)]), // 1: BOM, good
    '', // 2: blank
    '{"user_id": "we_0000000002", "prediction_tasks": [', // 3: invalid JSON
    Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), // 4: invalid UTF-8
    '[1, 2, 3]', // 5: not an object
    user('we_0000000003', [], { prediction_tasks: 'nope' }), // 6: prediction_tasks not an array
    user('we_0000000004', [step(1), { ...step(2), meta: undefined }]), // 7: a step without meta
    user('we_0000000005', [step(1, { meta: meta({ D_decay: ['#d#', '#k#'] }) })], { total_steps: 3 }), // 8: overlap + total_steps
    user('we_0000000001', [step(1)]), // 9: duplicate user id
    user('we_0000000006', [step(1, { candidate_pool: ['#k#', 5, '#d#'], meta: meta({ D_cluster: [], D_viral: [] }) })]), // 10: non-string tag, 25 % off
    '   ', // 11: whitespace only
    user('we_0000000007', [step(1)]) + '\r', // 12: CRLF
  ];
  writeFileSync(
    join(root, 'data', 'weibo_inference_tasks.jsonl'),
    Buffer.concat(
      lines.map((l) => (typeof l === 'string' ? Buffer.from(l + '\n') : Buffer.concat([l, Buffer.from('\n')]))),
    ),
  );
  mkdirSync(join(root, 'results', 'm1'), { recursive: true });
  const res = [
    '{"user_id": "we_0000000007", "platform": "weibo", "steps": [{"step_id": 1, "prediction": ["#k#", "#d#"], "metrics": {"Recall": 1.0, "Recall_Novelty": NaN, "Recall_Stability": 1.0, "Error_Decay": 1.0, "Error_Peer": 0.0, "Error_Viral": 0.0, "Error_Random": NaN}, "reasoning": "r", "persona_summary": "p7"}]}',
    '{"user_id": "we_0000000001", "platform": "weibo", "steps": [{"step_id": 1, "prediction": ["#d#"], "metrics": {"Recall": 1.0, "Recall_Novelty": NaN, "Recall_Stability": 1.0, "Error_Decay": 0.0, "Error_Peer": 0.0, "Error_Viral": 0.0, "Error_Random": NaN}}, {"step_id": 9, "prediction": []}]}',
    '{"user_id": "we_9999999999", "steps": []}',
  ];
  writeFileSync(join(root, 'results', 'm1', 'inference_results_weibo.jsonl'), res.join('\n'));
  return root;
}

describe('loadBenchmark on a corrupt corpus', () => {
  it('reports every broken line with its number and loads all the good ones', async () => {
    const root = corpus();
    const bench = await loadBenchmark(root);
    const errors = bench.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => [d.file, d.line, d.field])).toEqual([
      ['data/weibo_inference_tasks.jsonl', 3, ''],
      ['data/weibo_inference_tasks.jsonl', 4, ''],
      ['data/weibo_inference_tasks.jsonl', 5, ''],
      ['data/weibo_inference_tasks.jsonl', 6, 'prediction_tasks'],
      ['data/weibo_inference_tasks.jsonl', 7, 'prediction_tasks[1].meta'],
    ]);
    expect(errors[0].message).toMatch(/invalid JSON/);
    expect(errors[1].message).toBe('invalid UTF-8');
    const users = bench.users.get('weibo')!;
    expect([...users.keys()]).toEqual([
      'we_0000000001',
      'we_0000000004',
      'we_0000000005',
      'we_0000000006',
      'we_0000000007',
    ]);
    expect(users.get('we_0000000004')!.steps.map((s) => s.stepId)).toEqual([1]);
    const warn = (line: number, field: string) =>
      bench.diagnostics.find((d) => d.severity === 'warning' && d.line === line && d.field.startsWith(field));
    expect(warn(8, 'prediction_tasks[0].meta')?.message).toMatch(/"#k#" is in both T_keep and D_decay/);
    expect(warn(8, 'total_steps')?.message).toMatch(/says 3 but 1 steps/);
    expect(warn(9, 'user_id')?.message).toMatch(/duplicate user id we_0000000001 \(first on line 1\)/);
    expect(warn(10, 'prediction_tasks[0].candidate_pool[1]')?.message).toMatch(/non-string tag/);
    expect(warn(10, 'prediction_tasks[0].meta')?.message).toMatch(/not 25 %/);
  });

  it('reads results with NaN tokens, matches by id, and flags unknown rows and disagreeing metrics', async () => {
    const root = corpus();
    const bench = await loadBenchmark(root);
    const run = bench.runs.get('m1')!;
    const r7 = run.results.get('weibo')!.get('we_0000000007')!.steps.get(1)!;
    expect(r7.storedMetrics!.Recall_Novelty).toBeNaN();
    expect(r7.personaSummary).toBe('p7');
    const res = (line: number) =>
      bench.diagnostics.filter((d) => d.file === 'results/m1/inference_results_weibo.jsonl' && d.line === line);
    expect(res(1)).toEqual([]);
    expect(res(2).map((d) => d.field)).toEqual(['steps[0].metrics', 'steps[1].step_id']);
    expect(res(2)[0].message).toMatch(/Recall 1 vs 0/);
    expect(res(3)[0].message).toMatch(/unknown user we_9999999999/);
    const score = scoreRun(bench, run).platforms.get('weibo')!;
    expect(score.users).toBe(2);
    expect(score.metrics.Recall).toBe(0.5);
    expect(score.metrics.Error_Decay).toBe(1);
  });

  it('re-reads posts_text from disk on demand, past a BOM and CRLF', async () => {
    const bench = await loadBenchmark(corpus());
    const users = bench.users.get('weibo')!;
    const u1 = users.get('we_0000000001')!;
    expect(readPostsText(u1, u1.steps[1])).toBe('[1] Content: 第2批\nTags: #k#');
    const u7 = users.get('we_0000000007')!;
    expect(readPostsText(u7, u7.steps[0])).toBe('[1] Content: 第1批\nTags: #k#');
  });

  it('opens a single tasks file', async () => {
    const root = corpus();
    const bench = await loadBenchmark(join(root, 'data', 'weibo_inference_tasks.jsonl'));
    expect(bench.root).toBe(root);
    expect(bench.users.get('weibo')!.size).toBe(5);
    expect(bench.runs.has('m1')).toBe(true);
  });

  it('warns about a results file whose platform has no tasks file', async () => {
    const root = corpus();
    writeFileSync(join(root, 'results', 'm1', 'inference_results_zhihu.jsonl'), '{}\n');
    const bench = await loadBenchmark(root);
    expect(bench.diagnostics.find((d) => d.file === 'results/m1/inference_results_zhihu.jsonl')?.severity).toBe(
      'warning',
    );
    const single = await loadBenchmark(join(root, 'data', 'weibo_inference_tasks.jsonl'));
    expect(single.diagnostics.some((d) => d.file.includes('zhihu'))).toBe(false);
  });

  it('reports a folder without tasks files as an error, not an exception', async () => {
    const bench = await loadBenchmark(mkdtempSync(join(tmpdir(), 'pl-empty-')));
    expect(bench.diagnostics).toHaveLength(1);
    expect(bench.diagnostics[0].severity).toBe('error');
  });
});

describe('Python float tokens', () => {
  it('replaces bare tokens outside strings only', () => {
    const out = replacePythonTokens('{"a": NaN, "b": "NaN Infinity", "c": [-Infinity, Infinity], "d": "x\\"NaN"}')!;
    const v = JSON.parse(out);
    expect(v.b).toBe('NaN Infinity');
    expect(v.d).toBe('x"NaN');
    expect(v.a).toBe('\u0000NaN');
    expect(v.c).toEqual(['\u0000-Infinity', '\u0000Infinity']);
    expect(replacePythonTokens('{"a": "NaN"}')).toBeNull();
  });

  it('parses tokens as json.dumps writes them, and leaves look-alikes inside strings alone', () => {
    const lines = [
      '{"a": NaN, "b": [NaN, -Infinity, Infinity], "c": {"d": NaN}}',
      '{"s": "x NaN, y", "t": "[NaN]", "u": "a: -Infinity}", "v": NaN}',
      '{"s": "say \\" NaN, ok", "n": NaN}',
      '{"a":NaN,"b":[Infinity]}',
      '{"a": "NaN"}',
    ];
    for (const line of lines) {
      const parsed = parseJsonText(line);
      expect(parsed, line).toEqual({ ok: true, value: JSON.parse(replacePythonTokens(line) ?? line) });
    }
    const v = (parseJsonText(lines[1]) as { value: Record<string, unknown> }).value;
    expect(v).toEqual({ s: 'x NaN, y', t: '[NaN]', u: 'a: -Infinity}', v: PY_NAN });
    expect(parseJsonText('{"a": NaN, "b": }')).toEqual(
      parseJsonText('{"a": "x", "b": }'.replace('"x"', JSON.stringify(PY_NAN))),
    );
    expect(parseJsonText('{"a": NaN, "b": }').ok).toBe(false);
  });
});

describe('readLines across chunk boundaries', () => {
  it('keeps multi-byte text, offsets and invalid lines right in a file of several 512 KiB chunks', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pl-big-'));
    mkdirSync(join(root, 'data'));
    const parts: Buffer[] = [];
    const expected = new Map<string, string>();
    for (let i = 0; i < 700; i++) {
      const id = `we_${String(i).padStart(10, '0')}`;
      // ~4.5 KB of three-byte characters per line, so lines straddle the chunk boundaries at odd positions.
      const posts = `[1] Content: ${'微博内容'.repeat(300 + (i % 7))}${i}\nTags: #k#`;
      expected.set(id, posts);
      parts.push(Buffer.from(user(id, [step(1, { posts_text: posts })]) + (i % 3 === 0 ? '\r\n' : '\n')));
      if (i === 350) parts.push(Buffer.from([0x7b, 0xc3, 0x28, 0x7d, 0x0a])); // invalid UTF-8 mid-file
    }
    writeFileSync(join(root, 'data', 'weibo_inference_tasks.jsonl'), Buffer.concat(parts));
    const bench = await loadBenchmark(root);
    expect(bench.diagnostics.map((d) => [d.line, d.message])).toEqual([[352, 'invalid UTF-8']]);
    const users = bench.users.get('weibo')!;
    expect(users.size).toBe(700);
    for (const [id, posts] of expected) {
      const u = users.get(id)!;
      expect(readPostsText(u, u.steps[0])).toBe(posts);
    }
  });
});
