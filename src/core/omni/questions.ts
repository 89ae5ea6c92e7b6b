// The questions of one test action and their true values, by the benchmark's rules (its prompt builder's
// build_prediction_questions, spec "Questions from raw records"), in its order. Our own code: Persona Lab's prompt
// asks these when no checkout of the benchmark's repository is at hand.
import type { FieldKind, HistoryRecord } from './types';

export interface DialogueTurn {
  role: string;
  content: string;
}

export interface DerivedQuestion {
  field: string;
  kind: FieldKind;
  trueValue: number | string;
  /** video_watch_seconds: the video's duration (0 when unknown), the normaliser of its score */
  videoDuration?: number;
  /** next_user_message: the earlier non-empty turns, and whether the user spoke among them */
  context?: DialogueTurn[];
  hasPriorUserSpeech?: boolean;
}

type Act = HistoryRecord['actions'][number];

/** A number, or a text such as "45秒" with 秒 taken off; 0 when it reads as neither (the builder's fallback). */
function seconds(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : 0;
  if (typeof v !== 'string' || v === '') return 0;
  const n = Number(v.replaceAll('秒', '').trim());
  return Number.isFinite(n) && v.replaceAll('秒', '').trim() !== '' ? n : 0;
}

const has = (acts: readonly Act[], type: string, pred: (a: Act) => boolean = () => true) =>
  acts.some((a) => a.type === type && pred(a));
const bit = (yes: boolean) => (yes ? 1 : 0);
const positive = (v: unknown) => typeof v === 'number' && v > 0;
const binary = (field: string, yes: boolean): DerivedQuestion => ({ field, kind: 'binary', trueValue: bit(yes) });

/** Messages the builder never takes as the target: empty, about a review (评价) or a transfer (会话转移), ≤ 2 chars. */
function targetable(content: unknown): content is string {
  if (typeof content !== 'string' || content.trim() === '') return false;
  if (content.includes('评价') || content.includes('会话转移')) return false;
  return content.trim().length > 2;
}

function dialogue(acts: readonly Act[]): DerivedQuestion[] {
  const d = acts.find((a) => a.type === 'dialogue');
  const turns = Array.isArray(d?.content) ? (d.content as unknown[]) : [];
  const msgs = turns.map((t) => (typeof t === 'object' && t !== null ? (t as Record<string, unknown>) : {}));
  let at = -1;
  for (let i = msgs.length - 1; i >= 0; i--)
    if (msgs[i].role === 'user' && targetable(msgs[i].content)) {
      at = i;
      break;
    }
  if (at < 0) return [];
  const context = msgs
    .slice(0, at)
    .filter((m) => (m.role === 'user' || m.role === 'assistant') && typeof m.content === 'string' && m.content.trim())
    .map((m) => ({ role: String(m.role), content: String(m.content) }));
  return [
    {
      field: 'next_user_message',
      kind: 'text',
      trueValue: String(msgs[at].content),
      context,
      hasPriorUserSpeech: context.some((m) => m.role === 'user'),
    },
  ];
}

export function deriveQuestions(r: HistoryRecord): DerivedQuestion[] {
  const acts = r.actions;
  const watch = acts.find((a) => a.type === 'watch');
  const ctx = r.context ?? {};
  switch (r.scene) {
    case 'Video Browsing': {
      const duration = seconds(ctx.duration);
      const watched = watch ? seconds(watch.play_duration) : 0;
      const completed =
        watch && 'is_complete_play' in watch ? Boolean(watch.is_complete_play) : duration > 0 && watched >= duration;
      return [
        { field: 'video_watch_seconds', kind: 'continuous', trueValue: watched, videoDuration: duration },
        binary('video_completed', Boolean(watch) && completed),
        binary('video_liked', has(acts, 'like')),
        binary('video_commented', has(acts, 'comment')),
        binary('video_shared', has(acts, 'share')),
        binary('video_collected', has(acts, 'collect')),
        binary('video_followed', has(acts, 'follow')),
      ];
    }
    case 'E-commerce':
      return [
        binary(
          'shop_added_to_cart',
          has(acts, 'cart', (a) => Boolean(a.is_add_to_cart)),
        ),
        binary(
          'shop_order_success',
          has(acts, 'purchase', (a) => Boolean(a.is_pay || a.paid || a.order_success)),
        ),
      ];
    case 'Advertisement': {
      const out: DerivedQuestion[] = [];
      if (watch) {
        const w = 'watch_seconds' in watch ? watch.watch_seconds : seconds(watch.play_duration);
        out.push({ field: 'ad_watch_seconds', kind: 'continuous', trueValue: typeof w === 'number' ? w : seconds(w) });
      }
      return [
        ...out,
        binary('ad_liked', has(acts, 'like')),
        binary('ad_commented', has(acts, 'comment')),
        binary(
          'ad_activated',
          has(acts, 'activation', (a) => positive(a.activation_cnt)),
        ),
        binary(
          'ad_form_submitted',
          has(acts, 'submit', (a) => positive(a.form_submit_total_cnt)),
        ),
      ];
    }
    case 'Live Streaming':
      return [
        { field: 'live_watch_seconds', kind: 'continuous', trueValue: watch ? seconds(watch.play_duration) : 0 },
        binary('live_liked', has(acts, 'like')),
        binary('live_commented', has(acts, 'comment')),
        binary('live_sent_gift', has(acts, 'send_gift')),
        binary('live_followed', has(acts, 'follow')),
        binary('live_shared', has(acts, 'share')),
        ...(ctx.is_shop_live
          ? [
              binary(
                'live_clicked_cart',
                has(acts, 'click_cart', (a) => Boolean(a.is_click_cart_action)),
              ),
            ]
          : []),
      ];
    case 'Search Behavior': {
      const s = acts.find((a) => a.type === 'search');
      return s && typeof s.keyword === 'string' && s.keyword
        ? [{ field: 'search_keyword', kind: 'text', trueValue: s.keyword }]
        : [];
    }
    case 'Customer Service':
      return dialogue(acts);
  }
}
