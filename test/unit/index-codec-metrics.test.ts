// Writing a results file's index: a skimmed step whose stored metrics are its score is written as such without being
// scored again, and reads back with the same stored metrics, bit for bit.
import { describe, expect, it } from 'vitest';
import { decode, Encoder } from '../../src/core/cache/codec';
import { decodeResults, encodeResults } from '../../src/core/spb/format/indexCodec';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { FileStepResult } from '../../src/core/spb/format/stepText';
import { SAMPLE } from '../support/committedSample';

describe('the results index codec', () => {
  it('writes a step kept as its score without reading its stored metrics, and reads them back the same', async () => {
    const bench = await loadBenchmark(SAMPLE);
    let checked = 0;
    for (const run of bench.runs.values()) {
      for (const [platform, results] of run.results) {
        const users = bench.users.get(platform)!;
        const before = new Map<string, unknown>();
        let reads = 0;
        for (const r of results.values()) {
          for (const s of r.steps.values()) {
            if (!(s instanceof FileStepResult)) continue;
            before.set(`${r.userId}/${s.stepId}`, s.storedMetrics);
            if (!s.storedIsScore) continue;
            checked++;
            const read = () => {
              reads++;
              return before.get(`${r.userId}/${s.stepId}`);
            };
            Object.defineProperty(s, 'storedMetrics', { get: read, configurable: true });
          }
        }
        const enc = new Encoder();
        encodeResults(enc, results, users);
        expect(reads, `${run.name}/${platform}: stored metrics read while writing`).toBe(0);
        const entry = decode(enc.finish({})!)!;
        const back = decodeResults(entry.body, 'x', run.files.get(platform)!, platform, users, (t) => t);
        for (const [key, metrics] of before) {
          const [userId, stepId] = key.split('/');
          expect(back.get(userId)!.steps.get(Number(stepId))!.storedMetrics, key).toStrictEqual(metrics);
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});
