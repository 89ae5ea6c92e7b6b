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
export function trueValue(field, made) {
  const rec = made.record;
  const yes = (b) => (b ? 'Yes' : 'No');
  switch (field) {
    case 'video_completed':
      return yes(rec.action[0].is_complete_play === 1);
    case 'video_collected':
      return yes(rec.action[0].is_collect === 1);
    case 'video_liked':
    case 'live_liked':
    case 'ad_liked':
      return yes(has(rec, 'like'));
    case 'video_commented':
    case 'live_commented':
    case 'ad_commented':
      return yes(has(rec, 'comment'));
    case 'video_shared':
    case 'live_shared':
      return yes(has(rec, 'share'));
    case 'video_followed':
    case 'live_followed':
      return yes(has(rec, 'follow'));
    case 'live_sent_gift':
      return yes(has(rec, 'send_gift'));
    case 'live_clicked_cart':
    case 'shop_added_to_cart':
      return yes(has(rec, 'cart'));
    case 'ad_activated':
      return yes(has(rec, 'activation'));
    case 'ad_form_submitted':
      return yes(has(rec, 'submit'));
    case 'shop_order_success':
      return yes(has(rec, 'purchase'));
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
  if (kind === 'binary') {
    const yes = rng.chance(truth === 'Yes' ? 0.6 : field === 'video_completed' ? 0.55 : 0.4);
    const answer = yes ? 'Yes' : 'No';
    const why = yes ? 'The user is engaged with this kind of content.' : 'The user rarely does this.';
    return {
      type: kind,
      field,
      true_value: truth,
      predicted_value: answer,
      predicted_label: yes ? 1 : 0,
      raw_output: `Answer: ${answer}\nReason: ${why}`,
      ...tokens,
    };
  }
  if (kind === 'continuous') {
    const base = made.duration ?? 60;
    const guess = Math.max(1, Math.round(base * (0.55 + rng.next() * 0.3)));
    return {
      type: kind,
      field,
      true_value: truth,
      predicted_value: guess,
      predicted_label: null,
      raw_output: `{"watch_seconds": ${guess}}`,
      ...tokens,
    };
  }
  if (field === 'search_keyword') {
    const guess = rng.chance(0.35) ? truth : rng.pick(TOPICS[L]);
    return {
      type: kind,
      field,
      true_value: truth,
      predicted_value: guess,
      predicted_label: null,
      raw_output: `Keyword: ${guess}`,
      ...tokens,
    };
  }
  const guess = L === 'zh' ? '你好，请问我的订单什么时候发货？' : 'Hello, could you tell me when my order will ship?';
  return {
    type: kind,
    field,
    true_value: truth,
    predicted_value: guess,
    predicted_label: null,
    raw_output: guess,
    ...tokens,
    judge_score: rng.int(2, 7),
  };
}
