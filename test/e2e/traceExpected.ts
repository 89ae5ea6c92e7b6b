// What the OmniBehavior e2e tests expect, read from the files on their own (not through the extension).
import { readFileSync } from 'node:fs';
import { predictionKey } from '../../src/core/omni/types';

export interface RawQuestion {
  type: string;
  field: string;
  true_value: string | number | null;
  predicted_value: string | number | null;
  predicted_label: number | null;
  raw_output: string;
}

/** The predictions file read on its own (lines that do not parse are skipped), keyed like the core. */
export function readPredictions(file: string): Map<string, RawQuestion[]> {
  const out = new Map<string, RawQuestion[]>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    try {
      const o = JSON.parse(line) as { user_id: string; index: number; questions: RawQuestion[] };
      out.set(predictionKey(o.user_id, o.index), o.questions);
    } catch {
      /* a planted cut line */
    }
  }
  return out;
}
