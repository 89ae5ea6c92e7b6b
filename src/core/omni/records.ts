// Decoding of one action_history record: scene names (English and Chinese), timestamps and the behaviour bitmask.
import { markerNumber } from '../io/pyMarkers';
import { isRecord } from '../io/diagnostics';
import type { HistoryRecord, Scene } from './types';

export const SCENES: readonly Scene[] = [
  'Video Browsing',
  'Live Streaming',
  'Advertisement',
  'E-commerce',
  'Search Behavior',
  'Customer Service',
];
/** The value of `HistoryIndex.scenes` for a record whose scene is unknown or unreadable. */
export const UNKNOWN_SCENE = 255;

export const BEHAVIOURS = [
  'watch',
  'like',
  'comment',
  'send_gift',
  'follow',
  'share',
  'join_group',
  'cart',
  'purchase',
  'conversion',
  'activation',
  'submit',
  'search',
  'show',
  'click',
  'dialogue',
  'collect',
  'click_cart',
] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

const SCENE_BY_NAME: ReadonlyMap<string, Scene> = new Map<string, Scene>([
  ...SCENES.map((s): [string, Scene] => [s, s]),
  ['视频浏览', 'Video Browsing'],
  ['直播间', 'Live Streaming'],
  ['广告推荐', 'Advertisement'],
  ['商城购物', 'E-commerce'],
  ['搜索行为', 'Search Behavior'],
  ['电商客服对话', 'Customer Service'],
]);

export function sceneOf(name: unknown): Scene | undefined {
  return typeof name === 'string' ? SCENE_BY_NAME.get(name.trim()) : undefined;
}

export function sceneCode(scene: Scene | undefined): number {
  return scene === undefined ? UNKNOWN_SCENE : SCENES.indexOf(scene);
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2}))?$/;

/** Epoch ms of "YYYY-MM-DD HH:MM:SS" or "YYYY-MM-DD" read as UTC; NaN for anything else, impossible dates included. */
export function parseTimestamp(text: unknown): number {
  if (typeof text !== 'string') return NaN;
  const m = TIMESTAMP.exec(text.trim());
  if (!m) return NaN;
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x)));
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  const same = back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d;
  return same && h < 24 && mi < 60 && s < 60 ? ms : NaN;
}

// An action whose flag says it did not happen (`{"type": "cart", "is_add_to_cart": 0}`) does not set its bit; the
// authors' question builder reads click_cart and activation the same way.
const NEGATING_FLAGS = ['is_add_to_cart', 'is_pay', 'is_click_cart_action', 'activation_cnt'];

export function behaviourBit(type: string): number {
  const i = (BEHAVIOURS as readonly string[]).indexOf(type);
  return i < 0 ? 0 : 1 << i;
}

export function behavioursOf(mask: number): Behaviour[] {
  return BEHAVIOURS.filter((_, i) => (mask & (1 << i)) !== 0);
}

export interface RecordProblem {
  severity: 'error' | 'warning';
  field: string;
  message: string;
}

export interface DecodedRecord {
  scene: Scene | undefined;
  time: number;
  behaviours: number;
  /** Action types outside BEHAVIOURS (reported once per file by the indexer). */
  unknownBehaviours: string[];
  /** null when the scene is unknown or the value is not an object. */
  record: HistoryRecord | null;
  problems: RecordProblem[];
}

/** Decodes one parsed action_history element; never throws. `at` names the element in messages. */
export function decodeRecord(value: unknown, index: number, line: number, at: string): DecodedRecord {
  const problems: RecordProblem[] = [];
  const out: DecodedRecord = {
    scene: undefined,
    time: NaN,
    behaviours: 0,
    unknownBehaviours: [],
    record: null,
    problems,
  };
  if (!isRecord(value)) {
    problems.push({ severity: 'error', field: at, message: `expected a record object, got ${kindOf(value)}` });
    return out;
  }
  const sceneRaw = typeof value.type === 'string' ? value.type : '';
  out.scene = sceneOf(value.type);
  if (!out.scene) {
    problems.push({
      severity: 'error',
      field: `${at}.type`,
      message: `unknown scene ${JSON.stringify(value.type ?? null)}`,
    });
  }
  const timestamp = typeof value.timestamp === 'string' ? value.timestamp : '';
  out.time = parseTimestamp(value.timestamp);
  if (Number.isNaN(out.time)) {
    const shown = JSON.stringify(value.timestamp ?? null);
    problems.push({
      severity: 'error',
      field: `${at}.timestamp`,
      message: `${shown} is not "YYYY-MM-DD HH:MM:SS" or "YYYY-MM-DD"`,
    });
  }
  let context: Record<string, unknown> | null = null;
  if (isRecord(value.context)) context = value.context;
  else if (value.context !== undefined && value.context !== null) {
    problems.push({
      severity: 'warning',
      field: `${at}.context`,
      message: `expected an object, got ${kindOf(value.context)}; ignored`,
    });
  }
  const actions: HistoryRecord['actions'] = [];
  if (Array.isArray(value.action)) {
    value.action.forEach((a: unknown, i) => {
      if (!isRecord(a) || typeof a.type !== 'string') {
        problems.push({
          severity: 'warning',
          field: `${at}.action[${i}]`,
          message: 'expected an object with a string "type"; ignored',
        });
        return;
      }
      actions.push({ ...a, type: a.type });
      const bit = behaviourBit(a.type);
      if (bit === 0) out.unknownBehaviours.push(a.type);
      else if (!NEGATING_FLAGS.some((flag) => a[flag] === 0 || a[flag] === false)) out.behaviours |= bit;
    });
  } else if (value.action !== undefined && value.action !== null) {
    problems.push({
      severity: 'warning',
      field: `${at}.action`,
      message: `expected an array, got ${kindOf(value.action)}; taken as no actions`,
    });
  }
  if (out.scene) {
    out.record = { index, scene: out.scene, sceneRaw, timestamp, time: out.time, context, actions, line };
  }
  return out;
}

export function kindOf(value: unknown): string {
  value = markerNumber(value) ?? value;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  // JSON.stringify writes NaN and ±Infinity as null
  const shown = typeof value === 'number' && !Number.isFinite(value) ? String(value) : JSON.stringify(value);
  return `${typeof value} ${shown}`.slice(0, 60);
}
