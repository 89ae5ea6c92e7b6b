import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/core/labels/agreement';
import { ImportSession } from '../../src/core/labels/merge';
import type { LabelRow } from '../../src/core/labels/model';
import { LabelStore } from '../../src/core/labels/store';
import { planParts, planSummary } from '../../src/extension/labels/importRows';
import { mdText, summaryMarkdown } from '../../src/extension/labels/summaryMarkdown';
import { labelRow } from './labelStore-fixture';

const row = (over: Partial<LabelRow>): LabelRow => labelRow({ benchmark: 'sample', ...over });

describe('Import Labels summary', () => {
  it('says what the import holds before anything is written', () => {
    const store = LabelStore.open(join(mkdtempSync(join(tmpdir(), 'pl-importrows-')), 'labels.db'));
    try {
      store.add(row({ note: 'mine' }));
      store.add(row({ stepId: 2, label: 'pi-leak' }));
      const incoming = [
        row({ note: 'theirs' }),
        row({ stepId: 2, label: 'peer-confusion' }),
        row({ stepId: 3 }),
        row({ stepId: 2, label: 'pi-leak' }),
      ];
      const session = new ImportSession(
        store,
        incoming.map((r, i) => ({ row: r, line: i + 1 })),
        'bob.jsonl',
      );
      expect(session.conflicts).toHaveLength(2);
      expect(planSummary('bob.jsonl', 4, 1, session.plan)).toBe(
        'bob.jsonl: 4 label(s) read, 1 line(s) skipped (see the Problems panel), 1 new, 1 already present, 2 conflict(s)',
      );
      expect(planParts(4, 0, session.plan)).toBe('4 label(s) read, 1 new, 1 already present, 2 conflict(s)');
      expect(store.count()).toBe(2);
    } finally {
      store.close();
    }
  });
});

describe('Label Summary markdown', () => {
  it('counts per label per platform and gives kappa per pair of authors, escaping database text', () => {
    const rows = [
      row({}),
      row({ stepId: 2, label: 'pi-leak' }),
      row({ platform: 'zhihu', userId: 'zh_1', label: 'pi-leak' }),
      row({ author: 'bob|<b>' }),
      row({ author: 'bob|<b>', stepId: 2, label: 'decay-error' }),
    ];
    const md = summaryMarkdown(
      summarize(rows),
      new Map([
        ['decay-error', 'D_decay pick'],
        ['pi-leak', 'PI leak'],
      ]),
      '/w/.personalab/labels.db',
      new Map([
        ['alice', 3],
        ['bob|<b>', 2],
      ]),
    );
    expect(md).toContain('5 label(s) by 2 author(s)');
    expect(md).toContain('| Label | weibo | zhihu | Total |');
    expect(md).toContain(`| ${mdText('D_decay pick')} | 3 | 0 | **3** |`);
    expect(md).toContain('| PI leak | 1 | 1 | **2** |');
    expect(md).toContain('| **Total** | **4** | **1** | **5** |');
    expect(md).toContain(`### alice vs ${mdText('bob|<b>')}: 2 step(s) both labelled`);
    expect(md).not.toContain('bob|<b>');
    // Units: step 1 (both: decay) and step 2 (alice: pi-leak, bob: decay).
    // Two shared steps say nothing: kappa is n/a with its n; po is still shown.
    expect(md).toContain('| **Overall** | n/a† | 0.500 |');
    expect(md).toContain('† n/a: 2 shared step(s), fewer than 10;');
    expect(summaryMarkdown(summarize([]), new Map(), 'x', new Map())).toContain('No labels yet.');
  });

  it('gives kappa as a number from ten shared steps', () => {
    const rows = Array.from({ length: 10 }, (_, i) => [
      row({ stepId: i + 1 }),
      row({ author: 'bob', stepId: i + 1, label: i < 8 ? 'decay-error' : 'pi-leak' }),
    ]).flat();
    const md = summaryMarkdown(summarize(rows), new Map(), 'x', new Map());
    expect(md).toContain('alice vs bob: 10 step(s) both labelled');
    expect(md).toMatch(/\| \*\*Overall\*\* \| -?\d\.\d{3} \| 0\.800 \|/);
  });
});
