// One user: interest trajectory -> windows of posts -> steps with pools

import { CODE, META_KEYS } from './constants.mjs';
import { hexOf, Rng } from './rng.mjs';
import {
  CITIES,
  TRAITS,
  WEIBO_TAILS,
  WEIBO_REPOST,
  XHS_HOOKS,
  XHS_EMOJI,
  XHS_CLOSERS,
  TOUTIAO_TITLES,
  TOUTIAO_CLOSERS,
  ZHIHU_OPENERS,
  ZHIHU_MIDDLE,
  ZHIHU_CLOSERS,
  PH_POST,
  PH_BIO,
  PH_CATEGORIES,
} from './banks.mjs';
import { DOUBAN_REVIEWS } from './douban.mjs';
import { TOPICS } from './topics.mjs';
import { simulateModel, pyDumps } from './model.mjs';

const DAY = 86400000;
const START = Date.UTC(2023, 0, 1);
const fmtDate = (ms) => new Date(ms).toISOString().slice(0, 10);

function makeBio(rng, profile, topicNames) {
  const r = rng.next();
  if (r < 0.12) return undefined; // field missing
  if (r < 0.26) return '';
  const [a, b] = topicNames;
  return rng.pick([
    `${profile.trait}｜${profile.city}｜${a}爱好者`,
    `在${profile.city}生活的${profile.trait}，记录${a}和${b ?? '日常'}。`,
    `${profile.trait}一枚，喜欢${a}，偶尔聊聊${b ?? '生活'}。`,
    `${profile.city} · ${profile.trait} · 慢慢来，比较快`,
    `一个普通的${profile.trait}，分享${a}日常。`,
  ]);
}

/** Chooses the anchors (ground-truth tags) of window j, plus an occasional extra tag that is used but not an anchor. */
function chooseWindowTags(rng, V, hist, active, fav, emerging, mode) {
  if (mode === 'none') return { anchors: [], extras: [] };
  let K = rng.weighted([1, 2, 3, 4, 5, 6, 7], [0.3, 3, 4, 4, 3, 2, 1]);
  const activeSet = new Set(active);
  let keepCand = [...hist.keys()].filter((t) => activeSet.has(V.info.get(t).topic));
  if (keepCand.length === 0 && mode === 'allKeep') keepCand = [...hist.keys()];
  let nKeep =
    mode === 'first' || mode === 'allNew' ? 0 : mode === 'allKeep' ? K : Math.round(K * rng.float(0.25, 0.75));
  nKeep = Math.min(nKeep, keepCand.length);
  if (mode === 'allKeep') K = nKeep;
  const keep = rng.weightedSample(keepCand, (t) => hist.get(t) + (fav.has(t) ? 3 : 0), nKeep);
  const fresh = active.flatMap((tp) => V.byTopic.get(tp)).filter((t) => !hist.has(t));
  const freshWeight = (t) => (fav.has(t) ? 4 : 0) + (V.info.get(t).topic === emerging ? 2 : 1);
  const news = rng.weightedSample(fresh, freshWeight, K - keep.length);
  const anchors = rng.shuffle([...keep, ...news]);
  const extras = [];
  if (mode !== 'first' && rng.chance(0.2)) {
    const cand = [...keepCand, ...fresh].filter((t) => !anchors.includes(t));
    if (cand.length) extras.push(rng.pick(cand));
  }
  return { anchors, extras };
}

function buildPool(rng, ctx, V, anchors, hist, recent, windowSet, dateTarget) {
  const meta = { T_keep: [], T_new: [], D_decay: [], D_cluster: [], D_viral: [], D_random: [] };
  for (const t of anchors) (hist.has(t) ? meta.T_keep : meta.T_new).push(t);
  const K = anchors.length;
  if (K === 0) return { meta, pool: [] };
  const used = new Set(windowSet);
  const take = (cands, n) => {
    const out = [];
    for (const t of rng.shuffle(cands)) {
      if (out.length >= n) break;
      if (used.has(t)) continue;
      used.add(t);
      out.push(t);
    }
    return out;
  };
  const nNeg = 3 * K;
  meta.D_decay = take(
    [...recent].filter((t) => !windowSet.has(t)),
    Math.round(K * rng.float(0.4, 1.2)),
  );
  const posTopics = new Set(anchors.map((t) => V.info.get(t).topic));
  const clusterCand = [...posTopics].flatMap((tp) => V.byTopic.get(tp) ?? []).filter((t) => !hist.has(t));
  meta.D_cluster = take(clusterCand, Math.min(nNeg - meta.D_decay.length, Math.round(K * rng.float(0.5, 1.1))));
  const viralCand = ctx.viralOn(V, dateTarget).filter((t) => !hist.has(t));
  const left = nNeg - meta.D_decay.length - meta.D_cluster.length;
  meta.D_viral = take(viralCand, Math.min(left, Math.round(K * rng.float(0.2, 0.8))));
  let need = left - meta.D_viral.length;
  for (let guard = 0; need > 0 && guard < 10000; guard++) {
    const t = rng.pick(V.all);
    if (used.has(t) || hist.has(t)) continue;
    used.add(t);
    meta.D_random.push(t);
    need--;
  }
  const pool = rng.shuffle(META_KEYS.flatMap((k) => meta[k]));
  return { meta, pool };
}

const fill = (tpl, vars) => tpl.replace(/\{(\w+)\}/g, (_, k) => vars[k] ?? '');

function renderPost(rng, V, n, tags, fallback, extra, profile) {
  const platform = V.platform;
  const main = tags.length ? V.info.get(tags[0]) : fallback;
  const topic = TOPICS.find((t) => t.id === main.topic);
  const lines = [];
  const sentence = () => fill(rng.pick(topic.lines), { s: main.subject });
  const add = (label, value) => lines.push(`${label}: ${value}`);
  const addExtra = (s) => (extra ? `${s}${extra}` : s);
  if (platform === 'weibo') {
    if (rng.chance(0.15)) {
      add('Content', addExtra(rng.pick(WEIBO_REPOST)));
      add('Quote', sentence());
    } else {
      add('Content', addExtra(sentence() + rng.pick(WEIBO_TAILS)));
    }
  } else if (platform === 'xiaohongshu') {
    add('Title', `${main.subject}｜${rng.pick(XHS_HOOKS)}`);
    add('Content', addExtra(`${rng.pick(XHS_EMOJI)}${sentence()}${rng.pick(XHS_CLOSERS)}`));
  } else if (platform === 'toutiao') {
    add('Title', fill(rng.pick(TOUTIAO_TITLES), { s: main.subject }));
    add('Content', addExtra(sentence() + rng.pick(TOUTIAO_CLOSERS)));
  } else if (platform === 'zhihu') {
    if (tags.length) add('Title', tags[0]);
    const opener = fill(rng.pick(ZHIHU_OPENERS), { city: profile.city });
    add('Content', addExtra(opener + sentence() + rng.pick(ZHIHU_MIDDLE) + rng.pick(ZHIHU_CLOSERS)));
  } else {
    const bank = DOUBAN_REVIEWS[main.medium];
    const kind = main.kind === 'doing' && !bank.doing ? 'want' : main.kind;
    add('Title', `《${main.subject}》`);
    if (kind === 'done') add('Rating', '★'.repeat(rng.int(3, 5)).padEnd(5, '☆'));
    add('Content', addExtra(fill(rng.pick(bank[kind]), { w: main.subject, c: rng.pick(bank.comments) })));
  }
  if (tags.length) add('Tags', tags.join(platform === 'zhihu' || platform === 'douban' ? ', ' : ' '));
  lines[0] = `[${n}] ${lines[0]}`;
  return lines.join('\n');
}

/** Posts of one window. Every window tag is used at least once; tags the user uses often show up more often.
 * A Zhihu answer belongs to one question and a Douban post marks one work, so there each post carries one tag. */
function genPosts(rng, V, ctx, tags, hist, active, profile, inject) {
  const single = V.platform === 'zhihu' || V.platform === 'douban';
  const topicOf = (t) => V.info.get(t).topic;
  let P = rng.int(ctx.rates.posts[0], ctx.rates.posts[1]);
  if (single) P = Math.max(P, tags.length);
  // Sorted by topic and cut into contiguous chunks, so a post's tags mostly share a topic.
  const sorted = rng.shuffle(tags).sort((a, b) => (topicOf(a) < topicOf(b) ? -1 : topicOf(a) > topicOf(b) ? 1 : 0));
  let postTags = Array.from({ length: P }, () => []);
  sorted.forEach((t, i) => postTags[Math.floor((i * Math.min(P, sorted.length)) / sorted.length)].push(t));
  for (const pt of postTags) {
    if (tags.length && pt.length === 0) pt.push(rng.weightedSample(tags, (t) => (hist.get(t) ?? 0) + 1, 1)[0]);
    if (!single && pt.length < 3 && rng.chance(0.3)) {
      const more = rng.pick(
        tags
          .filter((t) => topicOf(t) === topicOf(pt[0]) && !pt.includes(t))
          .concat(tags.filter((t) => !pt.includes(t)))
          .slice(0, 3),
      );
      if (more) pt.push(more);
    }
  }
  postTags = rng.shuffle(postTags);
  const extras = Array.from({ length: P }, () => []);
  for (const s of inject) extras[rng.int(0, P - 1)].push(s);
  for (let i = 0; i < P; i++)
    if (rng.chance(ctx.rates.phPost)) extras[i].push(rng.pick(PH_POST[rng.pick(PH_CATEGORIES)]));
  const texts = [];
  const used = [];
  for (let i = 0; i < P; i++) {
    const fallback = V.info.get(rng.pick(V.byTopic.get(rng.pick(active))));
    texts.push(renderPost(rng, V, i + 1, postTags[i], fallback, extras[i].join(''), profile));
    used.push(...postTags[i]);
  }
  return { text: texts.join('\n\n'), count: P, tags: used };
}

export function genUser(ctx, platform, idx, spec) {
  const V = ctx.vocab[platform];
  const rng = new Rng(`${ctx.seed}|user|${platform}|${idx}`);
  const userId = ctx.uniqueId(`${CODE[platform]}_`, `${ctx.seed}|uid|${platform}|${idx}`);
  const username = `U_${hexOf(`${ctx.seed}|uname|${platform}|${idx}`, 8)}`;
  const total = spec.total;
  const profile = { city: rng.pick(CITIES), trait: rng.pick(TRAITS) };

  // Interest trajectory: core topics persist, one may fade out, one may emerge later.
  const candidates = V.topics.filter((t) => t.weight > 0);
  const core = rng.weightedSample(candidates, (t) => t.weight, rng.int(2, 3)).map((t) => t.id);
  const others = candidates.filter((t) => !core.includes(t.id));
  const emerging = rng.chance(0.6)
    ? { topic: rng.weightedSample(others, (t) => t.weight, 1)[0].id, from: rng.int(2, total + 1) }
    : null;
  const fading = rng.chance(0.5) ? { topic: core[core.length - 1], until: rng.int(1, total) } : null;
  const activeAt = (j) => {
    const a = core.filter((t) => !(fading && t === fading.topic && j > fading.until));
    if (emerging && j >= emerging.from) a.push(emerging.topic);
    return a;
  };
  const fav = new Set();
  for (const tp of [...core, ...(emerging ? [emerging.topic] : [])]) {
    for (const t of rng.shuffle(V.byTopic.get(tp)).slice(0, rng.int(2, 4))) fav.add(t);
  }

  let bio = makeBio(
    rng,
    profile,
    core.map((t) => V.topicName.get(t)),
  );
  const withPrefix = (prefix) => (bio ? prefix + bio : prefix.replace(/｜$/, ''));
  for (const ph of spec.placeholders.filter((x) => x.step === 0)) bio = withPrefix(PH_BIO[ph.cat]);
  if (bio !== undefined && rng.chance(ctx.rates.phBio)) bio = withPrefix(rng.pick(Object.values(PH_BIO)));
  const planted = [];
  for (const pl of spec.plants.filter((x) => x.step === 0)) {
    bio = pl.bio;
    planted.push({ category: pl.category, text: pl.text, stepId: null, field: 'bio' });
  }

  const injectFor = (step) => {
    const out = [];
    for (const ph of spec.placeholders)
      if (ph.step > 0 && Math.min(ph.step, total) === step) out.push(rng.pick(PH_POST[ph.cat]));
    for (const pl of spec.plants) {
      if (pl.step > 0 && Math.min(pl.step, total) === step) {
        out.push(pl.sentence);
        planted.push({ category: pl.category, text: pl.text, stepId: step, field: 'posts_text' });
      }
    }
    return out;
  };

  const hist = new Map();
  const winTags = [null];
  const dates = [null];
  const batches = [null]; // batches[n] = { text, count, tags }
  const tasks = [];
  const pools = [];
  let date = START + rng.int(0, 600) * DAY;
  for (let j = 1; j <= total + 1; j++) {
    dates[j] = fmtDate(date);
    date += rng.int(3, 21) * DAY;
    const step = j - 1;
    let mode = 'first';
    if (step >= 1) {
      const ev = spec.events.get(step) ?? [];
      if (step === spec.unscoredAt) mode = 'none';
      else if (ev.includes('allKeep')) mode = 'allKeep';
      else if (ev.includes('allNew')) mode = 'allNew';
      else mode = rng.chance(ctx.rates.allKeep) ? 'allKeep' : rng.chance(ctx.rates.allNew) ? 'allNew' : 'normal';
    }
    const active = activeAt(j);
    const { anchors, extras } = chooseWindowTags(rng, V, hist, active, fav, emerging?.topic, mode);
    const windowSet = new Set([...anchors, ...extras]);
    winTags[j] = windowSet;
    if (step >= 1) {
      const recent = new Set([...(winTags[step] ?? []), ...(winTags[step - 1] ?? [])]);
      const { meta, pool } = buildPool(rng, ctx, V, anchors, hist, recent, windowSet, dates[j]);
      pools.push({ meta, pool });
      tasks.push({
        step_id: step,
        total_steps: total,
        date_input: dates[step],
        date_target: dates[j],
        posts_text: batches[step].text,
        candidate_pool: pool,
        ground_truth: { all_tags: anchors.slice(), new_tags: meta.T_new.slice(), keep_tags: meta.T_keep.slice() },
        meta,
      });
    }
    if (j <= total) {
      const batch = genPosts(rng, V, ctx, [...windowSet], hist, active, profile, injectFor(j));
      batches[j] = batch;
      for (const t of batch.tags) hist.set(t, (hist.get(t) ?? 0) + 1);
    }
  }

  const record = { user_id: userId, platform, username };
  if (bio !== undefined) record.bio = bio;
  record.total_steps = total;
  record.prediction_tasks = tasks;
  const result = simulateModel(ctx, V, idx, spec, { userId, username, bio, profile }, tasks, batches);
  return {
    userId,
    line: JSON.stringify(record),
    resultLine: pyDumps(result),
    planted,
    steps: total,
    scored: tasks.filter((t) => t.meta.T_keep.length + t.meta.T_new.length > 0).length,
    posts: batches.reduce((s, b) => s + (b ? b.count : 0), 0),
  };
}
