import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiagnosticSink } from '../../src/core/io/diagnostics';
import {
  BEHAVIOURS,
  indexUserFile,
  readHistory,
  readRecordsAt,
  SCENES,
  UNKNOWN_SCENE,
  type HistoryIndex,
} from '../../src/core/omni/history';
import { parseTimestamp } from '../../src/core/omni/records';

const dir = mkdtempSync(join(tmpdir(), 'pl-omni-history-'));
const bit = (b: string) => 1 << (BEHAVIOURS as readonly string[]).indexOf(b);

// Record i of the large file: the scene cycles through all six (Chinese names on odd cycles), ads are date-only,
// search has no context, and captions hold brackets, braces, quotes and backslashes.
const NAMES = [
  ['Video Browsing', '视频浏览'],
  ['Live Streaming', '直播间'],
  ['Advertisement', '广告推荐'],
  ['E-commerce', '商城购物'],
  ['Search Behavior', '搜索行为'],
  ['Customer Service', '电商客服对话'],
];
function bigRecord(i: number): Record<string, unknown> {
  const s = i % 6;
  const type = NAMES[s][Math.floor(i / 6) % 2];
  const day = 1 + (Math.floor(i / 2000) % 28);
  const stamp = `2025-03-${String(day).padStart(2, '0')}`;
  const timestamp = s === 2 ? stamp : `${stamp} 10:${String(i % 60).padStart(2, '0')}:00`;
  const actions = [
    [{ type: 'watch', play_duration: i % 97 }, { type: 'like' }],
    [{ type: 'send_gift', gift_amount: 1 }],
    [{ type: 'conversion' }],
    [{ type: 'cart', is_add_to_cart: Math.floor(i / 6) % 2 }],
    [{ type: 'search', keyword: `k${i}]` }],
    [{ type: 'dialogue', content: [{ role: 'user', text: '你好 "}]' }] }],
  ][s];
  const record: Record<string, unknown> = { type, timestamp, action: actions };
  if (s !== 4) record.context = { caption: `c${i} ] } " \\ [ {`, duration: s === 0 ? i % 50 : null };
  return record;
}

describe('indexUserFile / readHistory on a file with over 100,000 records', () => {
  const N = 120_000;
  const file = join(dir, 'big.json');
  const lines = ['{"big": {"user_profile": "Female, 25-30 \\"quoted\\" [x] {y}", "action_history": ['];
  for (let i = 0; i < N; i++) lines.push(JSON.stringify(bigRecord(i)) + (i < N - 1 ? ',' : ''));
  lines.push(']}}');
  writeFileSync(file, lines.join('\n') + '\n');
  let index: HistoryIndex;

  it('indexes every record into typed arrays', async () => {
    const sink = new DiagnosticSink('big.json');
    index = await indexUserFile(file, { sink });
    expect(sink.items).toEqual([]);
    expect(index.userId).toBe('big');
    expect(index.profile).toBe('Female, 25-30 "quoted" [x] {y}');
    expect(index.count).toBe(N);
    // Bounded memory: the index is typed columns of exactly `count` entries, never parsed records.
    for (const [key, value] of Object.entries(index)) {
      if (['userId', 'profile', 'count'].includes(key)) continue;
      expect(ArrayBuffer.isView(value), key).toBe(true);
      expect((value as Uint8Array).length, key).toBe(N);
    }
    const bytesPerRecord = [
      index.offsets,
      index.lengths,
      index.lines,
      index.scenes,
      index.times,
      index.behaviours,
    ].reduce((s, a) => s + a.BYTES_PER_ELEMENT, 0);
    expect(bytesPerRecord).toBe(8 + 4 + 4 + 1 + 8 + 4);
    for (const i of [0, 1, 2, 3, 4, 5, 6, 7, 77_777, N - 1]) {
      expect(index.lines[i], `line ${i}`).toBe(i + 2);
      expect(SCENES[index.scenes[i]], `scene ${i}`).toBe(NAMES[i % 6][0]);
      expect(index.times[i], `time ${i}`).toBe(parseTimestamp(bigRecord(i).timestamp));
    }
    expect(index.behaviours[0]).toBe(bit('watch') | bit('like'));
    expect(index.behaviours[3]).toBe(0); // cart with is_add_to_cart 0 did not happen
    expect(index.behaviours[9]).toBe(bit('cart'));
    expect(index.behaviours[5]).toBe(bit('dialogue'));
    expect(index.times[2]).toBe(Date.UTC(2025, 2, 1)); // date-only ad
  });

  it('reads back a range by its byte offsets', async () => {
    const records = await readHistory(file, index, 50_000, 50_006);
    expect(records.map((r) => r.index)).toEqual([50_000, 50_001, 50_002, 50_003, 50_004, 50_005]);
    records.forEach((r) => {
      const want = bigRecord(r.index);
      expect(r.sceneRaw).toBe(want.type);
      expect(r.timestamp).toBe(want.timestamp);
      expect(r.context).toEqual(want.context ?? null);
      expect(r.actions).toEqual(want.action);
      expect(r.line).toBe(r.index + 2);
    });
    expect(records[2].scene).toBe('Search Behavior'); // 50_002 % 6 === 4
    expect(records[2].context).toBeNull();
    expect(await readHistory(file, index, N - 1, N + 10)).toHaveLength(1);
    expect(await readHistory(file, index, 10, 10)).toEqual([]);
    const picked = await readRecordsAt(file, index, [77_777, 3, -1, N]);
    expect([...picked.keys()]).toEqual([77_777, 3]);
    expect(picked.get(77_777)?.timestamp).toBe(bigRecord(77_777).timestamp);
  });
});

describe('indexUserFile on pretty-printed and broken files', () => {
  it('gives the same index whatever the chunk size, with multi-line records', async () => {
    const file = join(dir, 'pretty.json');
    const history = [bigRecord(0), bigRecord(5), bigRecord(8), bigRecord(10)];
    const text = JSON.stringify({ u9: { user_profile: '男，31-40岁', action_history: history } }, null, 2);
    writeFileSync(file, text);
    const starts = text.split('\n').flatMap((l, i) => (l === '      {' ? [i + 1] : []));
    const a = await indexUserFile(file);
    const b = await indexUserFile(file, { chunkSize: 5 });
    expect(b).toEqual(a);
    expect(a.profile).toBe('男，31-40岁');
    expect(a.count).toBe(4);
    expect(starts).toHaveLength(4);
    expect(Array.from(a.lines)).toEqual(starts);
    const back = await readHistory(file, b, 0, 4);
    expect(back.map((r) => r.actions)).toEqual(history.map((r) => r.action));
    expect(back[1].scene).toBe('Customer Service');
  });

  it('reports bad records at their line and keeps their positions', async () => {
    const file = join(dir, 'bad.json');
    const body = [
      '{"bad": {"user_profile": null, "action_history": [',
      '{"type": "Video Browsing", "timestamp": "2025-03-01 10:00:00", "action": [{"type": "watch"}]},',
      '{"type": "Video Browsing", oops},',
      '{"type": "Mini Game", "timestamp": "2025-03-01 10:00:00", "action": []},',
      '{"type": "直播间", "timestamp": "2025-02-30 10:00:00", "action": [{"type": "wave"}, {"type": "wave"}]},',
      '42,',
      '{"type": "搜索行为", "timestamp": "2025-03-02", "action": [{"type": "search", "keyword": "x"}]}',
      ']}}',
    ].join('\n');
    writeFileSync(file, body);
    const sink = new DiagnosticSink('raw/bad.json');
    const index = await indexUserFile(file, { sink, chunkSize: 16 });
    expect(index.count).toBe(6);
    expect(Array.from(index.scenes)).toEqual([0, UNKNOWN_SCENE, UNKNOWN_SCENE, 1, UNKNOWN_SCENE, 4]);
    expect(Number.isNaN(index.times[3])).toBe(true);
    expect(sink.items.map((d) => `${d.line} ${d.severity} ${d.field}`)).toEqual([
      '1 warning user_profile',
      '3 error action_history[1]',
      '4 error action_history[2].type',
      '5 error action_history[3].timestamp',
      '5 warning action_history[3].action',
      '6 error action_history[4]',
    ]);
    const records = await readHistory(file, index, 0, 6);
    expect(records.map((r) => r.index)).toEqual([0, 3, 5]);

    writeFileSync(file, body.slice(0, body.indexOf('42,')));
    const cut = new DiagnosticSink('raw/bad.json');
    expect((await indexUserFile(file, { sink: cut })).count).toBe(4);
    expect(cut.items.at(-1)?.message).toMatch(/ends inside a value/);
  });
});
