// The trace view's timeline on the extension host: which history records before the test action match the
// filter, their scene histogram over time, and the rows of one window, read from the raw file by byte range.
// No vscode import: unit-tested on a hand-made HistoryIndex.
import { isRecord } from '../../../../core/guards';
import { BEHAVIOURS, SCENES, readHistory, type HistoryIndex } from '../../../../core/omni/history';
import type { HistoryRecord, Scene } from '../../../../core/omni/types';
import type { Histogram, TimelineFilter, TimelineRow } from '../../../../shared/omni/traceProtocol';

const BINS = 24;

/** Positions (in action_history) of the records before `upto` that match the filter, in order. */
export function matchingRecords(index: HistoryIndex, upto: number, filter: TimelineFilter): Uint32Array {
  const n = Math.min(upto, index.count);
  // 256 entries: unknown or unreadable records carry the code UNKNOWN_SCENE (255) and show when no scene is chosen.
  const sceneOk = new Uint8Array(256).fill(filter.scenes.length ? 0 : 1);
  for (const s of filter.scenes) {
    const i = SCENES.indexOf(s);
    if (i >= 0) sceneOk[i] = 1;
  }
  let mask = 0;
  for (const b of filter.behaviours) {
    const i = (BEHAVIOURS as readonly string[]).indexOf(b);
    if (i >= 0) mask |= 1 << i;
  }
  // Behaviours chosen but none known: nothing matches (rather than everything).
  const anyBehaviour = filter.behaviours.length === 0;
  const out = new Uint32Array(n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (!sceneOk[index.scenes[i]]) continue;
    if (!anyBehaviour && (index.behaviours[i] & mask) === 0) continue;
    out[k++] = i;
  }
  return out.slice(0, k);
}

/** Records before `upto` per scene and per behaviour (a record counts once for each behaviour it holds). */
export function countsBefore(
  index: HistoryIndex,
  upto: number,
): { scenes: { scene: Scene; n: number }[]; behaviours: { behaviour: string; n: number }[] } {
  const n = Math.min(upto, index.count);
  const scenes = new Array<number>(SCENES.length).fill(0);
  const behaviours = new Array<number>(BEHAVIOURS.length).fill(0);
  for (let i = 0; i < n; i++) {
    if (index.scenes[i] < SCENES.length) scenes[index.scenes[i]]++;
    const bits = index.behaviours[i];
    for (let b = 0; b < BEHAVIOURS.length; b++) if (bits & (1 << b)) behaviours[b]++;
  }
  return {
    scenes: SCENES.map((scene, i) => ({ scene, n: scenes[i] })),
    behaviours: BEHAVIOURS.map((behaviour, i) => ({ behaviour, n: behaviours[i] })).filter((b) => b.n > 0),
  };
}

/** Counts of the given records per scene in equal time bins between the first and the last dated one. */
export function sceneHistogram(index: HistoryIndex, positions: Uint32Array, bins = BINS): Histogram {
  let lo = Infinity;
  let hi = -Infinity;
  let undated = 0;
  for (const p of positions) {
    const t = index.times[p];
    if (!Number.isFinite(t)) {
      undated++;
      continue;
    }
    if (t < lo) lo = t;
    if (t > hi) hi = t;
  }
  if (lo === Infinity) return { edges: [], series: [], undated };
  const span = Math.max(hi - lo, 1);
  const width = span / bins;
  const edges = Array.from({ length: bins + 1 }, (_, i) => lo + i * width);
  const counts = SCENES.map(() => new Array<number>(bins).fill(0));
  for (const p of positions) {
    const t = index.times[p];
    if (!Number.isFinite(t)) continue;
    const row = counts[index.scenes[p]];
    if (row) row[Math.min(bins - 1, Math.floor((t - lo) / width))]++;
  }
  const series = SCENES.map((scene, i) => ({ scene, counts: counts[i] })).filter((s) => s.counts.some((c) => c > 0));
  return { edges, series, undated };
}

const SUMMARY_KEYS = ['caption', 'live_title', 'item_title', 'product', 'ocr', 'ocr_text'];
const MAX_SUMMARY = 160;

/** The first dialogue turn's words (turns carry them under `text` or `content`). */
function firstTurn(turns: unknown[]): string {
  for (const t of turns) {
    if (!isRecord(t)) continue;
    const { role, text, content } = t;
    const words = typeof text === 'string' ? text : typeof content === 'string' ? content : '';
    if (words) return typeof role === 'string' ? `${role}: ${words}` : words;
  }
  return '';
}

/** A one-line text of a record for the timeline row. */
export function summarize(record: HistoryRecord): string {
  let text = '';
  const ctx = record.context;
  for (const key of SUMMARY_KEYS) {
    const v = ctx?.[key];
    if (typeof v === 'string' && v.trim()) {
      text = v;
      break;
    }
  }
  for (const a of record.actions) {
    if (text) break;
    if (typeof a.keyword === 'string') text = `“${a.keyword}”`;
    else if (Array.isArray(a.content)) text = firstTurn(a.content);
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > MAX_SUMMARY ? `${text.slice(0, MAX_SUMMARY)}…` : text;
}

export function toRow(record: HistoryRecord, pos: number): TimelineRow {
  return {
    pos,
    index: record.index,
    scene: record.scene,
    timestamp: record.timestamp,
    behaviours: record.actions.map((a) => a.type),
    summary: summarize(record),
  };
}

/** A row for a record that readHistory leaves out (invalid JSON or an unknown scene: reported when loading). */
function unreadableRow(index: HistoryIndex, at: number, pos: number): TimelineRow {
  const t = index.times[at];
  return {
    pos,
    index: at,
    scene: 'unreadable',
    timestamp: Number.isFinite(t) ? new Date(t).toISOString().slice(0, 19).replace('T', ' ') : '—',
    behaviours: [],
    summary: `see line ${index.lines[at]} of the file`,
  };
}

/** The rows [from, to) of the filtered list, one per position; contiguous records are read together. */
export async function readRows(
  file: string,
  index: HistoryIndex,
  positions: Uint32Array,
  from: number,
  to: number,
): Promise<TimelineRow[]> {
  const end = Math.min(to, positions.length);
  const rows: TimelineRow[] = [];
  let i = from;
  while (i < end) {
    let j = i + 1;
    while (j < end && positions[j] === positions[j - 1] + 1) j++;
    const byIndex = new Map(
      (await readHistory(file, index, positions[i], positions[j - 1] + 1)).map((r) => [r.index, r]),
    );
    for (let k = i; k < j; k++) {
      const r = byIndex.get(positions[k]);
      rows.push(r ? toRow(r, k) : unreadableRow(index, positions[k], k));
    }
    i = j;
  }
  return rows;
}
