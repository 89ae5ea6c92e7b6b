// A PI Audit finding opens in its view with its span outlined: the step view finds it among its own marks of the
// area the finding maps to, and the trace view lists the findings of the trace it shows.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPiHighlight, type PiArea, type PiMark } from '../../src/core/pi/spans';
import { auditBenchmark, stepFindingArea } from '../../src/core/spb/pi/audit';
import { stepPiMarks } from '../../src/core/spb/pi/highlight';
import { auditOmni, findingsInTrace, traceFindingArea } from '../../src/core/omni/piAudit';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import { loadBenchmark, readPostsText } from '../../src/core/spb/format/load';
import { buildStepModel } from '../../src/core/spb/view/stepModel';
import { SAMPLE } from '../support/committedSample';

/** The step view's field keys (spans.ts fieldKey) that each area's text is cut into. */
const AREA_KEYS: Partial<Record<PiArea, RegExp>> = {
  bio: /^bio$/,
  posts: /^(post\/|postsRaw$)/,
  persona: /^persona\/(written|diff\/)/,
  reasoning: /^reasoning$/,
  tag: /^tag\//,
};

describe('where a view shows an audit finding', () => {
  it('maps StreamProfileBench JSON paths to the step view areas', () => {
    expect(stepFindingArea('bio')).toBe('bio');
    expect(stepFindingArea('prediction_tasks[3].posts_text')).toBe('posts');
    expect(stepFindingArea('prediction_tasks[0].candidate_pool[7]')).toBe('tag');
    expect(stepFindingArea('prediction_tasks[0].meta.T_keep[1]')).toBe('tag');
    expect(stepFindingArea('steps[2].persona_summary')).toBe('persona');
    expect(stepFindingArea('steps[2].reasoning')).toBe('reasoning');
    expect(stepFindingArea('steps[2].prediction[0]')).toBe('tag');
  });

  it('maps OmniBehavior parts to the trace view areas', () => {
    expect(traceFindingArea({ part: 'profile', recordIndex: null, testAction: 4 })).toBe('profile');
    expect(traceFindingArea({ part: 'prediction', recordIndex: null, testAction: 4 })).toBe('prediction');
    expect(traceFindingArea({ part: 'context', recordIndex: 2, testAction: 4 })).toBe('record');
    expect(traceFindingArea({ part: 'dialogue', recordIndex: 4, testAction: 4 })).toBe('action');
  });

  it('checks a highlight message', () => {
    const h = { key: 'k', area: 'posts', category: 'PHONE', text: '13800138000' };
    expect(isPiHighlight(h)).toBe(true);
    expect(isPiHighlight({ ...h, area: 'elsewhere' })).toBe(false);
    expect(isPiHighlight({ ...h, category: 'NAME' })).toBe(false);
    expect(isPiHighlight({ ...h, text: 1 })).toBe(false);
  });
});

describe('every finding of the sample audit is a mark of its area in its step view', async () => {
  const bench = await loadBenchmark(SAMPLE);
  const audit = await auditBenchmark(bench);

  it('holds a finding mark with the same text and category where the area is shown', () => {
    expect(audit.findings.length).toBeGreaterThan(5);
    const missing: string[] = [];
    for (const f of audit.findings) {
      const user = bench.users.get(f.platform)?.get(f.userId);
      const step = f.stepId === null ? user?.steps[0] : user?.steps.find((s) => s.stepId === f.stepId);
      if (!user || !step) {
        missing.push(`${f.key}: no step`);
        continue;
      }
      const run = f.run === null ? undefined : bench.runs.get(f.run);
      const model = buildStepModel({ bench, user, step, run, postsText: readPostsText(user, step) });
      const marks = stepPiMarks(model);
      const area = stepFindingArea(f.field);
      const text = (key: string, m: PiMark): string | undefined => {
        if (key === 'bio') return model.header.bio.slice(m.start, m.end);
        if (key === 'reasoning') return model.reasoning.slice(m.start, m.end);
        if (key === 'persona/written') return model.persona.written.slice(m.start, m.end);
        if (key.startsWith('tag/')) return key.slice(4).slice(m.start, m.end);
        const post = /^post\/(\d+)\/(content|field\/(\d+))$/.exec(key);
        if (post) {
          const p = model.posts[Number(post[1])]!;
          const t = post[3] === undefined ? p.content : p.fields[Number(post[3])]!.value;
          return t.slice(m.start, m.end);
        }
        const diff = /^persona\/diff\/(\d+)$/.exec(key);
        if (diff) return model.persona.diff![Number(diff[1])]!.text.slice(m.start, m.end);
        return model.postsRaw.slice(m.start, m.end);
      };
      const hit = Object.entries(marks.fields).some(
        ([key, ms]) =>
          AREA_KEYS[area]!.test(key) &&
          ms.some((m) => m.kind === 'finding' && m.category === f.category && text(key, m) === f.text),
      );
      if (!hit) missing.push(`${f.key} (${area})`);
    }
    expect(missing).toEqual([]);
  });
});

describe('the findings of a trace', async () => {
  const bench = await loadOmniBenchmark(join(SAMPLE, 'omnibehavior'));
  const audit = await auditOmni(bench);

  it("are the profile's, the records' up to the test action's own, and its prediction's", () => {
    const withRecord = audit.findings.find((f) => f.historyIndex !== null)!;
    expect(withRecord).toBeDefined();
    const index = withRecord.testAction!;
    const inTrace = findingsInTrace(audit.findings, withRecord.userId, index);
    expect(inTrace).toContain(withRecord);
    for (const f of inTrace) {
      expect(f.userId).toBe(withRecord.userId);
      if (f.part === 'prediction') expect(f.testAction).toBe(index);
      else if (f.part !== 'profile') expect(f.recordIndex).toBeLessThanOrEqual(index);
    }
    const user = audit.findings.filter((f) => f.userId === withRecord.userId);
    const later = user.filter((f) => f.recordIndex !== null && f.recordIndex > index);
    for (const f of later) expect(inTrace).not.toContain(f);
    // An earlier test action shows none of the records after it.
    expect(findingsInTrace(audit.findings, withRecord.userId, -1).every((f) => f.part === 'profile')).toBe(true);
  });
});
