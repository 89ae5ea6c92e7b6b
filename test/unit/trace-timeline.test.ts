import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BEHAVIOURS, SCENES, indexUserFile, type HistoryIndex } from '../../src/core/omni/history';
import {
  countsBefore,
  matchingRecords,
  readRows,
  sceneHistogram,
  summarize,
} from '../../src/extension/benchmarks/omni/traceView/timeline';

const bit = (b: string) => 1 << BEHAVIOURS.indexOf(b as (typeof BEHAVIOURS)[number]);
const V = SCENES.indexOf('Video Browsing');
const L = SCENES.indexOf('Live Streaming');
const S = SCENES.indexOf('Search Behavior');

/** Six records: video, live, search, video, (unreadable), live; one hour apart, the 4th undated. */
function fakeIndex(): HistoryIndex {
  const h = 3_600_000;
  return {
    userId: 'u',
    profile: 'p',
    count: 6,
    offsets: new Float64Array(6),
    lengths: new Uint32Array(6),
    lines: Uint32Array.from([2, 3, 4, 5, 6, 7]),
    scenes: Uint8Array.from([V, L, S, V, 255, L]),
    times: Float64Array.from([0, h, 2 * h, NaN, 4 * h, 5 * h]),
    behaviours: Uint32Array.from([
      bit('watch'),
      bit('watch') | bit('like'),
      bit('search'),
      bit('watch') | bit('like'),
      0,
      bit('send_gift'),
    ]),
  };
}

describe('trace timeline', () => {
  it('filters the records before the test action by scene and by behaviour', () => {
    const idx = fakeIndex();
    expect([...matchingRecords(idx, 5, { scenes: [], behaviours: [] })]).toEqual([0, 1, 2, 3, 4]);
    expect([...matchingRecords(idx, 6, { scenes: ['Video Browsing'], behaviours: [] })]).toEqual([0, 3]);
    expect([...matchingRecords(idx, 6, { scenes: [], behaviours: ['like'] })]).toEqual([1, 3]);
    expect([...matchingRecords(idx, 6, { scenes: ['Live Streaming'], behaviours: ['like', 'send_gift'] })]).toEqual([
      1, 5,
    ]);
    expect([
      ...matchingRecords(idx, 3, { scenes: ['Video Browsing', 'Live Streaming'], behaviours: ['like'] }),
    ]).toEqual([1]);
    expect([...matchingRecords(idx, 6, { scenes: [], behaviours: ['no-such'] })]).toEqual([]);
  });

  it('counts scenes and behaviours before the test action', () => {
    const c = countsBefore(fakeIndex(), 4);
    expect(c.scenes.find((s) => s.scene === 'Video Browsing')?.n).toBe(2);
    expect(c.scenes.find((s) => s.scene === 'Live Streaming')?.n).toBe(1);
    expect(c.behaviours).toEqual([
      { behaviour: 'watch', n: 3 },
      { behaviour: 'like', n: 2 },
      { behaviour: 'search', n: 1 },
    ]);
  });

  it('bins the records per scene over time, leaving undated ones out', () => {
    const idx = fakeIndex();
    const h = sceneHistogram(idx, Uint32Array.from([0, 1, 2, 3, 5]), 5);
    expect(h.undated).toBe(1);
    expect(h.edges).toHaveLength(6);
    expect(h.edges[0]).toBe(0);
    expect(h.edges[5]).toBe(5 * 3_600_000);
    expect(h.series.find((s) => s.scene === 'Video Browsing')?.counts).toEqual([1, 0, 0, 0, 0]);
    expect(h.series.find((s) => s.scene === 'Live Streaming')?.counts).toEqual([0, 1, 0, 0, 1]);
    expect(h.series.map((s) => s.scene)).not.toContain('E-commerce');
    expect(sceneHistogram(idx, new Uint32Array(0)).edges).toEqual([]);
  });

  it('reads a window of rows from the file, one per position, unreadable records included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trace-rows-'));
    const file = join(dir, 'u1.json');
    const records = [
      '{"type":"Video Browsing","timestamp":"2025-03-01 10:00:00","context":{"caption":"cats"},"action":[{"type":"watch"}]}',
      '{"type":"Search Behavior","timestamp":"2025-03-01 11:00:00","action":[{"type":"search","keyword":"tea"}]}',
      '{"type":"Nowhere","timestamp":"2025-03-01 12:00:00","action":[]}',
      '{"type":"Customer Service","timestamp":"2025-03-01 13:00:00","context":null,"action":[{"type":"dialogue","content":[{"role":"user","text":"Where is my parcel?"}]}]}',
    ];
    writeFileSync(file, `{"u1": {"user_profile": "Male, 30-35.", "action_history": [\n${records.join(',\n')}\n]}}\n`);
    const idx = await indexUserFile(file);
    expect(idx.count).toBe(4);
    const rows = await readRows(file, idx, Uint32Array.from([0, 1, 2, 3]), 1, 4);
    expect(rows.map((r) => [r.pos, r.index, r.scene, r.summary])).toEqual([
      [1, 1, 'Search Behavior', '“tea”'],
      [2, 2, 'unreadable', 'see line 4 of the file'],
      [3, 3, 'Customer Service', 'user: Where is my parcel?'],
    ]);
    const filtered = await readRows(file, idx, Uint32Array.from([0, 3]), 0, 2);
    expect(filtered.map((r) => [r.pos, r.index, r.behaviours])).toEqual([
      [0, 0, ['watch']],
      [1, 3, ['dialogue']],
    ]);
    expect(filtered[0].summary).toBe('cats');
  });

  it('summarises a record by its caption, title, keyword or first utterance', () => {
    const base = { index: 0, scene: 'E-commerce' as const, sceneRaw: 'E-commerce', timestamp: '', time: 0, line: 1 };
    expect(summarize({ ...base, context: { item_title: '  rice\ncooker ' }, actions: [] })).toBe('rice cooker');
    expect(summarize({ ...base, context: null, actions: [{ type: 'x' }] })).toBe('');
    expect(summarize({ ...base, context: { caption: 'x'.repeat(300) }, actions: [] })).toHaveLength(161);
  });
});
