// The PI Audit tree's OmniBehavior part as plain data (benchmarks/omni/audit/model.ts), on the real audit of sample/omnibehavior.
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import { auditOmni, type OmniAuditResult } from '../../src/core/omni/piAudit';
import { PI_CATEGORIES } from '../../src/core/pi/placeholders';
import { groupOmni, omniFindingDescription } from '../../src/extension/benchmarks/omni/audit/model';
import { OMNI_SAMPLE } from '../support/committedSample';

const root = OMNI_SAMPLE;
const manifest = JSON.parse(readFileSync(join(root, 'pi-manifest.json'), 'utf8')) as {
  planted: { category: string; userId: string; text: string; testAction: number; recordIndex: number | null }[];
};

describe('groupOmni', () => {
  let result: OmniAuditResult;
  beforeAll(async () => {
    result = await auditOmni(await loadOmniBenchmark(root), { minConfidence: 'medium' });
  });

  it('groups every planted finding under its category and user, and leaves categories with nothing out', () => {
    const seen: string[] = [];
    for (const c of PI_CATEGORIES) {
      const g = groupOmni(result, c);
      const planted = manifest.planted.filter((p) => p.category === c);
      if (!g) {
        expect(planted).toEqual([]);
        expect(result.counts.filter((r) => r.category === c && (r.placeholders || r.findings))).toEqual([]);
        continue;
      }
      expect(g.findings).toHaveLength(planted.length);
      expect(g.users.reduce((n, u) => n + u.findings.length, 0)).toBe(planted.length);
      expect(g.placeholders).toBe(
        result.counts.filter((r) => r.category === c).reduce((n, r) => n + r.placeholders, 0),
      );
      for (const u of g.users) for (const f of u.findings) seen.push(`${c}/${u.userId}/${f.text}/${f.testAction}`);
    }
    expect(seen.sort()).toEqual(
      manifest.planted.map((p) => `${p.category}/${p.userId}/${p.text}/${p.testAction}`).sort(),
    );
  });

  it('describes a finding by its test action, history record, field, confidence and verdict', () => {
    const p = manifest.planted.find((x) => x.recordIndex !== null && x.recordIndex < x.testAction)!;
    const f = result.findings.find((x) => x.text === p.text && x.userId === p.userId)!;
    expect(omniFindingDescription(f, undefined)).toBe(
      `#${p.testAction} · history ${p.recordIndex} · ${f.field.split('.').pop()} · ${f.confidence}`,
    );
    expect(omniFindingDescription(f, 'confirmed-leak').endsWith('· confirmed leak')).toBe(true);
    const pred = result.findings.find((x) => x.run !== null)!;
    expect(omniFindingDescription(pred, undefined).startsWith(`run ${pred.run} · #${pred.testAction} · `)).toBe(true);
  });
});
