// Residual-PI scan of an OmniBehavior trace: the profile, and each record's context text, OCR / ASR, search keywords
// and dialogue turns, through the PI audit's scanner. No vscode import: unit-tested.
import { isRecord } from '../../../core/guards';
import { scanText } from '../../../core/pi/scanner';
import type { HistoryRecord } from '../../../core/omni/types';
import type { PiFinding } from '../../../shared/omni/traceProtocol';

/** The texts of a record the scan looks at, named by where they sit in the record. */
export function recordTexts(record: HistoryRecord): { field: string; text: string }[] {
  const out: { field: string; text: string }[] = [];
  for (const [key, v] of Object.entries(record.context ?? {}))
    if (typeof v === 'string' && v) out.push({ field: `context.${key}`, text: v });
  record.actions.forEach((a, i) => {
    if (typeof a.keyword === 'string' && a.keyword) out.push({ field: `action[${i}].keyword`, text: a.keyword });
    if (Array.isArray(a.content)) {
      a.content.forEach((turn, t) => {
        if (!isRecord(turn)) return;
        const { text, content } = turn;
        const words = typeof text === 'string' ? text : typeof content === 'string' ? content : '';
        if (words) out.push({ field: `action[${i}].content[${t}]`, text: words });
      });
    }
  });
  return out;
}

export function scanProfile(profile: string): PiFinding[] {
  return scanText(profile).map((f) => ({
    index: null,
    field: 'user_profile',
    category: f.category,
    confidence: f.confidence,
    value: f.text,
    reason: f.reason,
  }));
}

export function scanRecords(records: readonly HistoryRecord[]): PiFinding[] {
  const out: PiFinding[] = [];
  for (const r of records) {
    for (const { field, text } of recordTexts(r)) {
      for (const f of scanText(text))
        out.push({
          index: r.index,
          field,
          category: f.category,
          confidence: f.confidence,
          value: f.text,
          reason: f.reason,
        });
    }
  }
  return out;
}
