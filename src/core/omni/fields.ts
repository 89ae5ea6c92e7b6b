// The question fields of the spec ("The task"): their kind, scene and headline component.
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

export const COMPONENTS: readonly ComponentId[] = ['videoBinary', 'liveBinary', 'adsBinary', 'shopBinary', 'videoContinuous', 'shopText'];

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

/** A number or a numeric string; undefined otherwise. */
export function numberValue(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}
