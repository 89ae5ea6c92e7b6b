import { describe, expect, it } from 'vitest';
import type { HistoryRecord } from '../../src/core/omni/types';
import { recordTexts, scanProfile, scanRecords } from '../../src/extension/benchmarks/omni/pi';

const base = { sceneRaw: '', timestamp: '2025-03-01 10:00:00', time: 0, line: 2 };

describe('trace PI scan', () => {
  const records: HistoryRecord[] = [
    {
      ...base,
      index: 0,
      scene: 'Video Browsing',
      context: { caption: 'cats', duration: 30, ocr: 'mail me: zhang.wei@example.com', asr: null },
      actions: [{ type: 'watch' }],
    },
    {
      ...base,
      index: 1,
      scene: 'Search Behavior',
      context: null,
      actions: [{ type: 'search', keyword: '13812345678' }],
    },
    {
      ...base,
      index: 2,
      scene: 'Customer Service',
      context: { item_title: 'lamp' },
      actions: [
        {
          type: 'dialogue',
          content: [
            { role: 'assistant', text: 'Hello' },
            { role: 'user', content: 'my email is li.na@example.org' },
          ],
        },
      ],
    },
  ];

  it('looks at context strings, keywords and dialogue turns, named by where they are', () => {
    expect(recordTexts(records[0]).map((t) => t.field)).toEqual(['context.caption', 'context.ocr']);
    expect(recordTexts(records[1])).toEqual([{ field: 'action[0].keyword', text: '13812345678' }]);
    expect(recordTexts(records[2]).map((t) => t.field)).toEqual([
      'context.item_title',
      'action[0].content[0]',
      'action[0].content[1]',
    ]);
  });

  it('reports each finding with its record, field, category and value', () => {
    const found = scanRecords(records).map((f) => [f.index, f.field, f.category, f.value]);
    expect(found).toEqual([
      [0, 'context.ocr', 'EMAIL', 'zhang.wei@example.com'],
      [1, 'action[0].keyword', 'PHONE', '13812345678'],
      [2, 'action[0].content[1]', 'EMAIL', 'li.na@example.org'],
    ]);
    expect(scanProfile('Female, 25-30, reach me at 13912345678.').map((f) => [f.index, f.field, f.category])).toEqual([
      [null, 'user_profile', 'PHONE'],
    ]);
    expect(scanProfile("Female, 25-30, bachelor's degree.")).toEqual([]);
  });
});
