// The PI Audit tree's PersonaMem part as plain data (benchmarks/personamem/audit/model.ts), on the real audit of the
// committed sample (whose generator plants a mail address, a phone number and an IP address).
import { beforeAll, describe, expect, it } from 'vitest';
import { auditPersonaMem, type PmAuditResult } from '../../src/core/personamem/audit';
import { personaMem } from '../../src/core/personamem/format';
import type { PersonaMemBench } from '../../src/core/personamem/types';
import { PI_CATEGORIES } from '../../src/core/pi/placeholders';
import {
  contextLabel,
  groupPersonaMem,
  pmFindingDescription,
  questionFindings,
  refOf,
} from '../../src/extension/benchmarks/personamem/audit/model';
import { PMEM_SAMPLE } from '../support/committedSample';

let bench: PersonaMemBench;
let result: PmAuditResult;
beforeAll(async () => {
  bench = (await personaMem.load(PMEM_SAMPLE)).bench as PersonaMemBench;
  result = await auditPersonaMem(bench);
});

describe('groupPersonaMem', () => {
  it('puts each finding under its category, split and context, and leaves empty categories out', () => {
    const seen: string[] = [];
    for (const c of PI_CATEGORIES) {
      const g = groupPersonaMem(result, c);
      if (!g) {
        expect(result.findings.filter((f) => f.category === c)).toEqual([]);
        continue;
      }
      expect(g.bySource.reduce((n, r) => n + r.findings, 0)).toBe(g.findings.length);
      for (const s of g.splits)
        for (const ctx of s.contexts)
          for (const f of ctx.findings) {
            expect([f.split, f.contextId, contextLabel(f)]).toEqual([s.split, ctx.contextId, ctx.userId]);
            seen.push(`${c}/${f.text}`);
          }
    }
    expect(seen.sort()).toEqual(['EMAIL/ilse.marsh@quietpost.net', 'IP/203.0.113.57', 'PHONE/+44 7700 900123'].sort());
  });

  it('describes where a finding is: its message, or the part of the question, and the verdict', () => {
    const mail = result.findings.find((f) => f.category === 'EMAIL')!;
    const ip = result.findings.find((f) => f.category === 'IP')!;
    expect(contextLabel(mail)).toBe(`persona 0 · context ${mail.contextId.slice(0, 8)}`);
    expect(pmFindingDescription(mail, undefined)).toBe('message #8 · high');
    expect(pmFindingDescription(ip, 'false-positive')).toBe('question · medium · false positive');
    expect(pmFindingDescription({ ...mail, questionId: null }, undefined)).toBe(
      'message #8 · no question sees it · high',
    );
    expect(refOf(mail)).toEqual({ split: '32k', questionId: mail.questionId });
    expect(refOf({ ...mail, questionId: null })).toBeUndefined();
  });
});

describe('questionFindings', () => {
  it("lists the findings the question's view shows, as the page receives them", () => {
    const mail = result.findings.find((f) => f.category === 'EMAIL')!;
    const q = bench.splits.get('32k')!.questions.find((x) => x.questionId === mail.questionId)!;
    const got = questionFindings(result.findings, q, undefined);
    expect(got.found).toBe(got.findings.length);
    expect(got.findings).toContainEqual({
      key: mail.key,
      part: 'history',
      index: 8,
      run: null,
      category: 'EMAIL',
      confidence: 'high',
      value: mail.text,
      reason: mail.reason,
    });
    expect(questionFindings(result.findings, undefined, undefined)).toEqual({ findings: [], found: 0 });
  });
});
