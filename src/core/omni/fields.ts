// The question fields of the spec ("The task"): their kind, scene and headline component.
import { pyFloat } from '../io/pyNumber';
import { pyStrip } from '../io/pyString';
import type { ComponentId, FieldKind, Scene } from './types';

export interface FieldInfo {
  kind: FieldKind;
  scene: Scene;
}

const binary = (scene: Scene): FieldInfo => ({ kind: 'binary', scene });
const continuous = (scene: Scene): FieldInfo => ({ kind: 'continuous', scene });

export const FIELDS: Readonly<Record<string, FieldInfo>> = {
  video_completed: binary('Video Browsing'),
  video_liked: binary('Video Browsing'),
  video_commented: binary('Video Browsing'),
  video_shared: binary('Video Browsing'),
  video_collected: binary('Video Browsing'),
  video_followed: binary('Video Browsing'),
  live_liked: binary('Live Streaming'),
  live_commented: binary('Live Streaming'),
  live_sent_gift: binary('Live Streaming'),
  live_followed: binary('Live Streaming'),
  live_shared: binary('Live Streaming'),
  live_clicked_cart: binary('Live Streaming'),
  ad_liked: binary('Advertisement'),
  ad_commented: binary('Advertisement'),
  ad_activated: binary('Advertisement'),
  ad_form_submitted: binary('Advertisement'),
  shop_added_to_cart: binary('E-commerce'),
  shop_order_success: binary('E-commerce'),
  video_watch_seconds: continuous('Video Browsing'),
  live_watch_seconds: continuous('Live Streaming'),
  ad_watch_seconds: continuous('Advertisement'),
  search_keyword: { kind: 'text', scene: 'Search Behavior' },
  next_user_message: { kind: 'text', scene: 'Customer Service' },
};

export const FIELD_NAMES: readonly string[] = Object.keys(FIELDS);

export function fieldInfo(field: string): FieldInfo | undefined {
  return Object.prototype.hasOwnProperty.call(FIELDS, field) ? FIELDS[field] : undefined;
}

export const COMPONENTS: readonly ComponentId[] = [
  'videoBinary',
  'liveBinary',
  'adsBinary',
  'shopBinary',
  'videoContinuous',
  'shopText',
];

export const COMPONENT_LABELS: Record<ComponentId, string> = {
  videoBinary: 'Video (binary, mean F1)',
  liveBinary: 'Live (binary, mean F1)',
  adsBinary: 'Ads (binary, mean F1)',
  shopBinary: 'Shop (binary, mean F1)',
  videoContinuous: 'Video (100 − NMAE)',
  shopText: 'Shop text (judge × 10)',
};

/** The scene whose binary fields make up each binary component. */
export const BINARY_COMPONENT_SCENE: Readonly<Partial<Record<ComponentId, Scene>>> = {
  videoBinary: 'Video Browsing',
  liveBinary: 'Live Streaming',
  adsBinary: 'Advertisement',
  shopBinary: 'E-commerce',
};

/** Binary answers: "Yes" / "No" (any case), 1 / 0, true / false. undefined for anything else. */
export function binaryLabel(value: unknown): 0 | 1 | undefined {
  if (value === 1 || value === true) return 1;
  if (value === 0 || value === false) return 0;
  if (typeof value !== 'string') return undefined;
  const v = value.trim().toLowerCase();
  if (v === 'yes' || v === '1' || v === 'true') return 1;
  if (v === 'no' || v === '0' || v === 'false') return 0;
  return undefined;
}

/**
 * A finite number, or a non-blank string that JavaScript's Number() reads as one; undefined otherwise. Not Python's
 * float() (pyFloat, what the scoring follows): this reads our own fields (judge_score) and the trace view's errors.
 */
export function numberValue(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/**
 * A video record's context `duration` as the reference reads it (prompt_builder.py, build_prediction_questions; the
 * fallback in evaluator.py, calculate_metrics): a number as it is, a string with 秒 stripped ("45秒" is 45); undefined
 * where that fails or the duration is not above 0.
 */
export function durationSeconds(raw: unknown): number | undefined {
  const seconds =
    typeof raw === 'string'
      ? raw === ''
        ? 0
        : pyFloat(raw.replaceAll('秒', ''))
      : typeof raw === 'number'
        ? raw
        : undefined;
  return seconds !== undefined && seconds > 0 ? seconds : undefined;
}

/**
 * A binary answer's predicted label as the reference takes it (evaluator.py, calculate_metrics): `predicted_label`
 * when there is one, else Yes at a predicted value ≥ 0.5. Our files write the value as Yes / No, read as 1 / 0.
 */
export function predictedBinaryLabel(label: number | null, value: string | number | null): 0 | 1 | null {
  if (label === 0 || label === 1) return label;
  const p = binaryLabel(value) ?? pyFloat(value);
  return p === undefined ? null : p >= 0.5 ? 1 : 0;
}

/**
 * Whether an answer has a predicted value the reference's metric pass can use; the others are left out of every
 * metric (evaluator.py, calculate_metrics: `if pred_val is None` skips, and a float() that raises is counted as a
 * parsing failure, not as a wrong answer). Binary values must read as a probability (Yes / No are 1 / 0 here),
 * continuous ones as a float. A text answer needs non-empty text: the authors' caller (model_caller.py,
 * call_text_prediction) cleans the model's output (think tags removed, stripped, one pair of quotes and a
 * "Keyword:"-like prefix taken off), stores that cleaned text as `predicted_value`, and files the answer under
 * `failed_questions` when it is empty, so their judge never scores it. The stored text is already cleaned, so the
 * test here is Python's strip (cleaning it a second time would drop answers the reference judged, such as 「」).
 */
export function usablePrediction(kind: FieldKind, value: string | number | null): boolean {
  if (value === null) return false;
  if (kind === 'binary') return binaryLabel(value) !== undefined || pyFloat(value) !== undefined;
  if (kind === 'continuous') return pyFloat(value) !== undefined;
  return pyStrip(String(value)) !== '';
}
