// The OmniBehavior sample and generated folders ask what the benchmark's question builder asks: every test action
// lists exactly the fields derived from its raw record (spec "Questions from raw records"), the run's stored true
// values are the derived ones, and the stand-in checkout's builder (Python, run directly) asks the same questions with
// the same true values. The checks run on the bundled sample and on three folders generated with other seeds.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRecordsAt } from '../../src/core/omni/history';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import { deriveQuestions } from '../../src/core/omni/questions';
import { predictionKey } from '../../src/core/omni/types';
import { standInQuestions } from '../support/omniStandIn';
import { OMNI_SAMPLE } from '../support/committedSample';

const SEEDS = [11, 12, 13];
let tmp: string;
const folders = new Map<string, string>([['the sample', OMNI_SAMPLE]]);
const generated = (seed: number) => `generated with seed ${seed}`;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'pl-omni-questions-'));
  for (const seed of SEEDS) {
    const out = join(tmp, `seed-${seed}`);
    execFileSync(process.execPath, ['scripts/gen-omni-sample.mjs', '--seed', String(seed), '--out', out]);
    folders.set(generated(seed), out);
  }
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const yesNo = (v: unknown) => (v === 'Yes' ? 1 : v === 'No' ? 0 : v);

describe('test actions ask what the benchmark’s builder asks', () => {
  it.each(['the sample', ...SEEDS.map(generated)])(
    '%s: fields, stored true values and the stand-in builder agree',
    async (name) => {
      const root = folders.get(name)!;
      const bench = await loadOmniBenchmark(root);
      expect(bench.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const derived = new Map<string, { field: string; trueValue: unknown }[]>();
      let actions = 0;
      const fieldsSeen = new Set<string>();
      for (const user of bench.users.values()) {
        const records = await readRecordsAt(
          user.file,
          user.index,
          user.testActions.map((t) => t.index),
        );
        for (const t of user.testActions) {
          const qs = deriveQuestions(records.get(t.index)!);
          expect([...t.fields].sort(), `${t.userId}#${t.index}`).toEqual(qs.map((q) => q.field).sort());
          derived.set(predictionKey(t.userId, t.index), qs);
          t.fields.forEach((f) => fieldsSeen.add(f));
          actions++;
        }
      }
      expect(actions).toBeGreaterThan(400);
      // every field the benchmark defines, the customer-service utterance included
      expect(fieldsSeen.size).toBe(23);
      expect(fieldsSeen.has('next_user_message')).toBe(true);

      const run = bench.runs.get('demo-sim')!;
      let compared = 0;
      for (const [key, p] of run.predictions) {
        const want = new Map(derived.get(key)!.map((q) => [q.field, q.trueValue]));
        for (const q of p.questions) {
          expect(yesNo(q.trueValue), `${key} ${q.field}`).toEqual(want.get(q.field));
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(2000);

      const rendered = standInQuestions(root, 200);
      const byKey = new Map<string, { field: string; trueValue: unknown }[]>();
      for (const q of rendered) {
        const k = predictionKey(q.user, q.index);
        byKey.set(k, [...(byKey.get(k) ?? []), { field: q.field, trueValue: q.true_value }]);
      }
      expect(byKey.size).toBe(actions);
      for (const [k, qs] of derived) {
        const norm = (xs: { field: string; trueValue: unknown }[]) =>
          xs.map((x) => `${x.field}=${JSON.stringify(x.trueValue)}`).sort();
        expect(norm(byKey.get(k)!), k).toEqual(norm(qs));
      }
    },
  );
});
