// The simulated model run (spec sections 2, 4, 5)

import { PLATFORM_NAME, META_KEYS } from './constants.mjs';
import { Rng } from './rng.mjs';
import { PLATFORM_STYLE } from './banks.mjs';

/** Python's round(): half to even. */
function roundHalfEven(x) {
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}
export const kForPool = (size) => Math.max(1, roundHalfEven(0.25 * size));

/** The seven metrics as the reference computes them; null when T_new and T_keep are both empty. */
export function scoreStep(meta, prediction) {
  const G = [...meta.T_new, ...meta.T_keep];
  if (G.length === 0) return null;
  const picks = new Set(prediction.filter((p) => typeof p === 'string'));
  const rate = (tags) => {
    const set = new Set(tags);
    if (set.size === 0) return NaN;
    let hit = 0;
    for (const t of set) if (picks.has(t)) hit++;
    return hit / set.size;
  };
  return {
    Recall: rate(G),
    Recall_Novelty: rate(meta.T_new),
    Recall_Stability: rate(meta.T_keep),
    Error_Decay: rate(meta.D_decay),
    Error_Peer: rate(meta.D_cluster),
    Error_Viral: rate(meta.D_viral),
    Error_Random: rate(meta.D_random),
  };
}

/** A near-miss the model might return instead of a pool tag: a dropped `#`, a half-width `?`, a full-width colon. */
function mutateTag(platform, tag) {
  if (platform === 'weibo') return tag.replace(/#$/, '');
  if (platform === 'xiaohongshu' || platform === 'toutiao') return tag.replace(/^#/, '');
  if (platform === 'zhihu') return tag.replace(/？$/, '?');
  return tag.replace(':', '：');
}

const CLASS_WEIGHT = { T_keep: 0.9, T_new: 0.5, D_decay: 0.8, D_cluster: 0.4, D_viral: 0.3, D_random: 0.15 };
const ERRORS = [
  "Error: Expecting ',' delimiter: line 4 column 5 (char 187)",
  'Error: Request timed out.',
  'Error: Unterminated string starting at: line 3 column 18 (char 96)',
];

function joinTags(tags) {
  return tags.length > 3 ? `${tags.slice(0, 3).join('、')}等` : tags.join('、');
}

export function simulateModel(ctx, V, idx, spec, user, tasks, batches) {
  const platform = V.platform;
  const rng = new Rng(`${ctx.seed}|model|${platform}|${idx}`);
  const rates = ctx.rates;
  const seen = new Map(); // tag -> uses in the batches the model has read
  const topicSteps = new Map(); // topic -> steps in which it appeared
  let prevLong = [];
  let persona = '';
  const identity = user.bio ? `自述为${user.profile.trait}` : '没有填写个人简介';
  const steps = [];
  for (const task of tasks) {
    const n = task.step_id;
    const batch = batches[n];
    const batchTopicCount = new Map();
    for (const t of batch.tags) {
      seen.set(t, (seen.get(t) ?? 0) + 1);
      const tp = V.info.get(t).topic;
      batchTopicCount.set(tp, (batchTopicCount.get(tp) ?? 0) + 1);
    }
    const batchTopics = [...batchTopicCount.entries()].sort((a, b) => b[1] - a[1]).map(([tp]) => tp);
    const newTopics = n > 1 ? batchTopics.filter((tp) => !topicSteps.has(tp) && tp !== 'viral') : [];
    for (const tp of batchTopics) topicSteps.set(tp, (topicSteps.get(tp) ?? 0) + 1);
    const long = [...topicSteps.entries()]
      .filter(([tp, c]) => c >= 2 && tp !== 'viral')
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([tp]) => tp);
    const fading = prevLong.filter((tp) => !batchTopicCount.has(tp));
    prevLong = long;
    const name = (tps) => tps.map((tp) => V.topicName.get(tp)).join('、');
    const favTags = [...seen.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([t]) => t);
    const focus = long[0] ?? batchTopics[0];

    const ev = spec.events.get(n) ?? [];
    const k = kForPool(task.candidate_pool.length);
    const out = {
      step_id: n,
      prediction: [],
      ground_truth: [...task.ground_truth.new_tags, ...task.ground_truth.keep_tags],
      metrics: null,
      reasoning: '',
      persona_summary: '',
    };
    if (ev.includes('error') || rng.chance(rates.error)) {
      out.reasoning = rng.pick(ERRORS);
    } else {
      const viralChaser = rng.chance(0.12);
      const clsOf = new Map();
      for (const key of META_KEYS) for (const t of task.meta[key]) clsOf.set(t, key);
      const ranked = task.candidate_pool
        .map((t) => {
          const cls = clsOf.get(t);
          const w = cls === 'D_viral' && viralChaser ? 1.1 : CLASS_WEIGHT[cls];
          return { t, s: w * (0.15 + 0.85 * rng.next()) + (rng.chance(0.04) ? 0.6 : 0) }; // now and then a salient-looking tag wins anyway
        })
        .sort((a, b) => b.s - a.s)
        .map((x) => x.t);
      let picks = ranked.slice(0, k);
      const fail = (kind) => ev.includes(kind) || rng.chance(rates[kind]);
      if (picks.length > 0) {
        if (fail('dup')) picks[picks.length - 1] = picks[0];
        if (fail('oop')) {
          const i = rng.int(0, picks.length - 1);
          picks[i] = mutateTag(platform, picks[i]);
        }
        if (fail('more') && ranked.length > k) picks.push(ranked[k]);
        else if (fail('fewer')) picks = picks.length > 1 ? picks.slice(0, -1) : ranked.slice(0, k + 1);
      }
      out.prediction = picks;
      const fromHistory = picks.filter((t) => seen.has(t));
      const viral = picks.filter((t) => V.viralSet.has(t));
      const fresh = picks.filter((t) => !seen.has(t) && !V.viralSet.has(t));
      const why = [
        `本批次共${batch.count}条内容，主要涉及${name(batchTopics.filter((tp) => tp !== 'viral')) || '日常生活'}。`,
      ];
      if (task.candidate_pool.length === 0) why.push('候选池为空，没有可选的标签，本步不给出预测。');
      if (fromHistory.length) why.push(`${joinTags(fromHistory)}在已观察到的帖子中反复出现，判断会延续；`);
      if (fresh.length)
        why.push(
          `${joinTags(fresh)}属于${name([...new Set(fresh.map((t) => V.info.get(t)?.topic).filter((tp) => tp && tp !== 'viral'))]) || '相关'}方向，与画像相符，可能成为新的关注点；`,
        );
      if (viral.length) why.push(`${joinTags(viral)}是平台近期的热点，用户可能参与讨论；`);
      if (picks.length) why.push(`综合以上判断选出${picks.length}个标签。`);
      out.reasoning = why.join('');
      const parts = [];
      if (!persona) {
        parts.push(`首次观察：${PLATFORM_NAME[platform]}用户${user.username}，${identity}。`);
        parts.push(
          `本批次内容集中在${name(batchTopics) || '日常生活'}，常用标签有${joinTags(favTags) || '（暂无）'}。`,
        );
        parts.push(
          `${PLATFORM_STYLE[platform]}。暂无历史可比较，预计短期内仍会围绕${V.topicName.get(focus) ?? '日常生活'}发帖。`,
        );
      } else {
        parts.push(`${PLATFORM_NAME[platform]}用户${user.username}，${identity}。`);
        parts.push(`长期兴趣：${name(long) || name(batchTopics) || '暂不明确'}。`);
        parts.push(newTopics.length ? `近期新出现对${name(newTopics)}的关注。` : '本阶段没有明显的新兴趣。');
        if (fading.length) parts.push(`对${name(fading)}的讨论明显减少。`);
        parts.push(`高频标签：${joinTags(favTags) || '（暂无）'}。${PLATFORM_STYLE[platform]}。`);
        parts.push(
          `预计下一阶段仍以${V.topicName.get(focus) ?? '日常生活'}为主${newTopics.length ? `，${V.topicName.get(newTopics[0])}可能继续升温` : ''}。`,
        );
      }
      persona = parts.join('');
      out.persona_summary = persona;
    }
    out.metrics = scoreStep(task.meta, out.prediction);
    steps.push(out);
  }
  return { user_id: user.userId, platform, username: user.username, steps };
}

/** Python's repr() of a float, as json.dumps writes it (NaN and Infinity as bare tokens). */
function pyFloat(x) {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return x.toFixed(1);
  if (x !== 0 && Math.abs(x) < 1e-4) return x.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  return String(x);
}

/** json.dumps(obj, ensure_ascii=False): ", " and ": " separators; numbers under `metrics` are floats. */
export function pyDumps(v, floats = false) {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return floats ? pyFloat(v) : String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map((x) => pyDumps(x, floats)).join(', ')}]`;
  return `{${Object.entries(v)
    .map(([k, x]) => `${JSON.stringify(k)}: ${pyDumps(x, floats || k === 'metrics')}`)
    .join(', ')}}`;
}
