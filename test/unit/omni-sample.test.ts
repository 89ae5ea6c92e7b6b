import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCommand } from '../../src/cli/commands';
import { formatDiagnostic } from '../../src/core/io/diagnostics';
import { detectFormat, detectFormats } from '../../src/core/formats';
import { readHistory } from '../../src/core/omni/history';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import { join } from 'node:path';
import { BROKEN_OMNI_SAMPLE, OMNI_SAMPLE, SAMPLE } from '../support/committedSample';

const ROOT = OMNI_SAMPLE;

describe('the committed OmniBehavior sample', () => {
  it('loads without a problem; the broken copy beside it with exactly the planted diagnostics', async () => {
    const progress: number[] = [];
    const bench = await loadOmniBenchmark(ROOT, { onProgress: (done, total) => progress.push(done / total) });
    expect(bench.diagnostics.map(formatDiagnostic)).toEqual([]);
    const broken = await loadOmniBenchmark(BROKEN_OMNI_SAMPLE);
    // V8 words JSON errors its own way; only the kind is pinned.
    expect(broken.diagnostics.map((d) => formatDiagnostic(d).replace(/invalid JSON: .*/, 'invalid JSON'))).toEqual([
      'raw/u_1003.json:102: error: action_history[100].type: unknown scene "Mini Game"',
      'raw/u_1003.json:202: error: action_history[200].timestamp: "2025-13-45 99:00:00" is not "YYYY-MM-DD HH:MM:SS" or "YYYY-MM-DD"',
      'test_actions.jsonl:163: error: fields[0]: video_liked is a Video Browsing field, but record 197 is Search Behavior; dropped',
      'test_actions.jsonl:163: error: fields[1]: video_shared is a Video Browsing field, but record 197 is Search Behavior; dropped',
      'test_actions.jsonl:163: error: fields: no usable field; the test action is ignored',
      'test_actions.jsonl:164: error: index: 99999 is out of range: u_1006 has 320 history records',
      'results/demo-sim/predictions.jsonl:6: error: questions[2].field: unknown field "shop_bookmarked"; ignored',
      'results/demo-sim/predictions.jsonl:13: warning: questions[6].field: video_followed is not asked by test action u_1003#464; ignored',
      'results/demo-sim/predictions.jsonl:163: warning: index: no test action u_1003#5 in test_actions.jsonl; ignored',
      'results/demo-sim/predictions.jsonl:164: error: invalid JSON',
    ]);
    expect([...broken.users.keys()]).toEqual(['u_1003', 'u_1006']);
    expect(progress.at(-1)).toBe(1);
    expect([...bench.users.keys()]).toEqual(['u_1001', 'u_1002', 'u_1003', 'u_1004', 'u_1005', 'u_1006']);
    const actions = [...bench.users.values()].flatMap((u) => u.testActions);
    expect(actions).toHaveLength(495);
    expect(new Set(actions.map((t) => t.scene)).size).toBe(6);
    expect(new Set(actions.flatMap((t) => t.fields)).size).toBe(23);
    expect(bench.runs.get('demo-sim')?.predictions.size).toBe(495);
    const u2 = bench.users.get('u_1002')!;
    expect(u2.profile).toMatch(/^女/);
    const [record] = await readHistory(u2.file, u2.index, u2.testActions[0].index, u2.testActions[0].index + 1);
    expect(record.sceneRaw).toBe('直播间');
    expect(record.scene).toBe('Live Streaming');
    const ad = actions.find((t) => t.scene === 'Advertisement')!;
    expect(ad.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // Ad records carry a duration, but only video watch time has a normaliser in the reference.
    expect(ad.normaliser).toBeUndefined();
    const video = actions.find((t) => t.scene === 'Video Browsing')!;
    expect(video.normaliser).toBeGreaterThan(0);
  });

  it('is found beside the StreamProfileBench sample', () => {
    expect(detectFormat(ROOT)?.id).toBe('omnibehavior');
    expect(detectFormat(`${ROOT}/test_actions.jsonl`)?.id).toBe('omnibehavior');
    expect(detectFormat(SAMPLE)?.id).toBe('streamprofilebench');
    expect(detectFormats(SAMPLE).map((f) => f.id)).toEqual(['streamprofilebench', 'omnibehavior', 'personamem']);
    expect(detectFormats(join(SAMPLE, 'data')).map((f) => f.id)).toEqual(['streamprofilebench']);
  });
});

describe('persona-lab score / validate on the OmniBehavior sample', () => {
  afterEach(() => vi.restoreAllMocks());
  async function cli(command: string, args: string[], opts: { json?: boolean; run?: string[] } = {}) {
    const out: string[] = [];
    const err: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((t) => out.push(String(t)) > 0);
    vi.spyOn(process.stderr, 'write').mockImplementation((t) => err.push(String(t)) > 0);
    const code = await runCommand(command, args, opts);
    vi.restoreAllMocks();
    return { code, out: out.join(''), err: err.join('') };
  }

  it('prints the field table, components, overall and the bias lines; errors give exit 1', async () => {
    const r = await cli('score', [ROOT]);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(await cli('score', [BROKEN_OMNI_SAMPLE])).toMatchObject({
      code: 1,
      err: '8 error(s), 2 warning(s); run `persona-lab validate` for details\n',
    });
    expect(r.out).toMatch(/^Run demo-sim: 495 predicted test actions/);
    expect(r.out).toMatch(/\nvideo_liked +Video Browsing +\d+ /);
    expect(r.out).toMatch(
      /\nComponents: videoBinary [\d.]+, liveBinary [\d.]+, adsBinary [\d.]+, shopBinary [\d.]+, videoContinuous [\d.]+, shopText [\d.]+\n/,
    );
    expect(r.out).toMatch(/\nOverall: [\d.]+\n/);
    // a line over 120 columns goes on, indented, on the next
    expect(r.out.replace(/\n {4}/g, ' ')).toMatch(/\nBias: hyper-active \(.*\); homogenised \(.*\)\.\n$/);
    for (const l of r.out.split('\n')) expect(l.length, l).toBeLessThanOrEqual(120);
  });

  it('prints JSON whose overall is the mean of the six components', async () => {
    const r = await cli('score', [ROOT], { json: true, run: ['demo-sim'] });
    const json = JSON.parse(r.out) as {
      format: string;
      runs: {
        name: string;
        components: Record<string, number>;
        overall: number;
        bias: { distanceRatio: { real: number; predicted: number } };
      }[];
    };
    expect(json.format).toBe('omnibehavior');
    const [run] = json.runs;
    const values = Object.values(run.components);
    expect(values).toHaveLength(6);
    expect(run.overall).toBeCloseTo(values.reduce((a, b) => a + b, 0) / 6, 9);
    expect(run.bias.distanceRatio.predicted).toBeGreaterThan(1.5 * run.bias.distanceRatio.real);
    await expect(cli('score', [ROOT], { run: ['nope'] })).rejects.toThrow(/no run "nope"/);
  });

  it('validate lists every diagnostic and a summary', async () => {
    const clean = await cli('validate', [ROOT]);
    expect(clean.code).toBe(0);
    expect(clean.out).toBe('6 users, 495 test actions, 1 runs; 0 error(s), 0 warning(s)\n');
    const r = await cli('validate', [BROKEN_OMNI_SAMPLE]);
    expect(r.code).toBe(1);
    expect(r.out.trim().split('\n')).toHaveLength(11);
    expect(r.out).toMatch(/\n2 users, 162 test actions, 1 runs; 8 error\(s\), 2 warning\(s\)\n$/);
  });
});
