// The questions of a test action: the fields asked per scene, each field's true value in the record, and the
// simulated model's answer.
import { TOPICS } from './banks.mjs';

export const FIELDS = {
  video: [
    'video_completed',
    'video_liked',
    'video_commented',
    'video_shared',
    'video_collected',
    'video_followed',
    'video_watch_seconds',
  ],
  live: [
    'live_liked',
    'live_commented',
    'live_sent_gift',
    'live_followed',
    'live_shared',
    'live_clicked_cart',
    'live_watch_seconds',
  ],
  ads: ['ad_liked', 'ad_commented', 'ad_activated', 'ad_form_submitted', 'ad_watch_seconds'],
  shop: ['shop_added_to_cart', 'shop_order_success'],
  search: ['search_keyword'],
  cs: ['next_user_message'],
};
const has = (rec, type) => rec.action.some((a) => a.type === type);

// Which record a field is asked of, and the true values, follow the authors' question builder (the spec's "Questions
// from raw records"): live_clicked_cart only in a shop live, from a flagged click_cart action; video_collected from a
// collect action; ad_activated from an activation with activation_cnt above 0; next_user_message is the last user
// turn that is neither noise nor too short.
export function asked(field, rec) {
  if (field === 'live_clicked_cart') return Boolean(rec.context?.is_shop_live);
  return true;
}

const NOISE = ['评价', '会话转移'];
export function targetMessage(turns) {
  for (let i = turns.length - 1; i >= 0; i--) {
    const t = turns[i];
    const text = typeof t.content === 'string' ? t.content : '';
    if (t.role !== 'user' || text.trim() === '' || NOISE.some((n) => text.includes(n))) continue;
    if (text.trim().length <= 2) continue;
    return text;
  }
  return null;
}
// The Yes/No fields whose truth is whether the record holds an action of this type.
const ACTION_OF = {
  video_liked: 'like',
  live_liked: 'like',
  ad_liked: 'like',
  video_commented: 'comment',
  live_commented: 'comment',
  ad_commented: 'comment',
  video_shared: 'share',
  live_shared: 'share',
  video_followed: 'follow',
  live_followed: 'follow',
  live_sent_gift: 'send_gift',
  live_clicked_cart: 'click_cart',
  shop_added_to_cart: 'cart',
  ad_form_submitted: 'submit',
  shop_order_success: 'purchase',
};
export function trueValue(field, made) {
  const rec = made.record;
  const yes = (b) => (b ? 'Yes' : 'No');
  if (Object.hasOwn(ACTION_OF, field)) return yes(has(rec, ACTION_OF[field]));
  switch (field) {
    case 'video_completed':
      return yes(rec.action[0].is_complete_play === 1);
    case 'video_collected':
      return yes(has(rec, 'collect'));
    case 'ad_activated':
      return yes(rec.action.some((a) => a.type === 'activation' && a.activation_cnt > 0));
    case 'search_keyword':
      return made.keyword;
    case 'next_user_message':
      return made.message;
    default:
      return made.watch;
  }
}

// The simulated model: answers Yes far more often than users act (hyper-activity), and its answers hardly depend on
// who the user is (homogenisation); it sees the truth only weakly.
export function predict(rng, field, truth, made, L) {
  const kind = field.endsWith('_seconds')
    ? 'continuous'
    : field === 'search_keyword' || field === 'next_user_message'
      ? 'text'
      : 'binary';
  const tokens = { prompt_tokens: rng.int(1800, 9000), completion_tokens: rng.int(8, 90) };
  const row = (predicted_value, predicted_label, raw_output) => ({
    type: kind,
    field,
    true_value: truth,
    predicted_value,
    predicted_label,
    raw_output,
    ...tokens,
  });
  if (kind === 'binary') {
    const yes = rng.chance(truth === 'Yes' ? 0.6 : field === 'video_completed' ? 0.55 : 0.4);
    const answer = yes ? 'Yes' : 'No';
    const why = yes ? 'The user is engaged with this kind of content.' : 'The user rarely does this.';
    return row(answer, yes ? 1 : 0, `Answer: ${answer}\nReason: ${why}`);
  }
  if (kind === 'continuous') {
    const base = made.duration ?? 60;
    const guess = Math.max(1, Math.round(base * (0.55 + rng.next() * 0.3)));
    return row(guess, null, `{"watch_seconds": ${guess}}`);
  }
  if (field === 'search_keyword') {
    const guess = rng.chance(0.35) ? truth : rng.pick(TOPICS[L]);
    return row(guess, null, `Keyword: ${guess}`);
  }
  const guess = L === 'zh' ? '你好，请问我的订单什么时候发货？' : 'Hello, could you tell me when my order will ship?';
  // The four dimensions are spread around the drawn mean without drawing again, so the rest of the sample stays put.
  const s = rng.int(2, 7);
  const spread = s % 2 ? [0, 0, -1, 1] : [1, -1, 0, 0];
  const judge_scores = Object.fromEntries(JUDGE_DIMENSIONS.map((d, i) => [d, s + spread[i]]));
  return { ...row(guess, null, guess), judge_score: s, judge_scores };
}

const JUDGE_DIMENSIONS = ['intent_fidelity', 'persona_mimicry', 'knowledge_boundary', 'semantic_alignment'];
