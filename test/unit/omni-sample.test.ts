import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/core/diagnostics';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import { readHistory } from '../../src/core/omni/history';

const ROOT = 'sample/omnibehavior';

describe('the committed OmniBehavior sample', () => {
  it('loads with exactly the planted diagnostics', async () => {
    const progress: number[] = [];
    const bench = await loadOmniBenchmark(ROOT, { onProgress: (done, total) => progress.push(done / total) });
    // V8 words JSON errors its own way; only the kind is pinned.
    expect(bench.diagnostics.map((d) => formatDiagnostic(d).replace(/invalid JSON: .*/, 'invalid JSON'))).toEqual([
      'raw/u_1003.json:102: error: action_history[100].type: unknown scene "Mini Game"',
      'raw/u_1003.json:202: error: action_history[200].timestamp: "2025-13-45 99:00:00" is not "YYYY-MM-DD HH:MM:SS" or "YYYY-MM-DD"',
      'test_actions.jsonl:305: error: fields[0]: video_liked is a Video Browsing field, but record 202 is Search Behavior; dropped',
      'test_actions.jsonl:305: error: fields[1]: video_shared is a Video Browsing field, but record 202 is Search Behavior; dropped',
      'test_actions.jsonl:305: error: fields: no usable field; the test action is ignored',
      'test_actions.jsonl:306: error: index: 99999 is out of range: u_1006 has 320 history records',
      'results/demo-sim/predictions.jsonl:1: warning: questions[6].field: video_followed is not asked by test action u_1001#1145; ignored',
      'results/demo-sim/predictions.jsonl:17: error: questions[2].field: unknown field "shop_bookmarked"; ignored',
      'results/demo-sim/predictions.jsonl:305: warning: index: no test action u_1001#5 in test_actions.jsonl; ignored',
      'results/demo-sim/predictions.jsonl:306: error: invalid JSON',
    ]);
    expect(progress.at(-1)).toBe(1);
    expect([...bench.users.keys()]).toEqual(['u_1001', 'u_1002', 'u_1003', 'u_1004', 'u_1005', 'u_1006']);
    const actions = [...bench.users.values()].flatMap((u) => u.testActions);
    expect(actions).toHaveLength(304);
    expect(new Set(actions.map((t) => t.scene)).size).toBe(6);
    expect(bench.runs.get('demo-sim')?.predictions.size).toBe(304);
    const u2 = bench.users.get('u_1002')!;
    expect(u2.profile).toMatch(/^女/);
    const [record] = await readHistory(u2.file, u2.index, u2.testActions[0].index, u2.testActions[0].index + 1);
    expect(record.sceneRaw).toBe('直播间');
    expect(record.scene).toBe('Live Streaming');
    const ad = actions.find((t) => t.scene === 'Advertisement')!;
    expect(ad.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(ad.normaliser).toBeGreaterThan(0);
  });
});
