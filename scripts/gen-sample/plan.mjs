// Plans: how many users, how many steps each, and the forced edge cases

import { PLATFORMS, PAPER_STEPS, PAPER_USERS, PAPER_MULTI, SAMPLE_USERS } from './constants.mjs';
import { Rng } from './rng.mjs';
import { PLANTS } from './plants.mjs';

function newSpec(scored) {
  return { scored, unscoredAt: 0, total: scored, events: new Map(), placeholders: [], plants: [] };
}

function setEvents(spec, events) {
  for (const [step, kinds] of Object.entries(events)) spec.events.set(Number(step), kinds);
}

function attachPlants(users, forcedPlaceholders) {
  for (const p of PLANTS) users[p.platform][p.user]?.plants.push(p);
  for (const ph of forcedPlaceholders) users[ph.platform][ph.user]?.placeholders.push(ph);
}

export function planSample(seed) {
  const rng = new Rng(`${seed}|plan`);
  const users = {};
  for (const p of PLATFORMS) {
    users[p] = Array.from({ length: SAMPLE_USERS[p] }, () =>
      newSpec(rng.weighted([1, 2, 3, 4, 5, 6, 7], [3, 3, 3, 2, 2, 1, 1])),
    );
  }
  // Forced so that every edge case occurs in the small sample, whatever the seed.
  const force = (p, u, scored, unscoredAt, events) => {
    const s = (users[p][u] = newSpec(scored));
    s.unscoredAt = unscoredAt;
    s.total = scored + (unscoredAt ? 1 : 0);
    setEvents(s, events);
  };
  force('weibo', 0, 1, 0, {});
  force('weibo', 2, 4, 0, { 2: ['allKeep'], 3: ['dup'] });
  force('weibo', 3, 3, 0, {});
  force('xiaohongshu', 1, 7, 0, { 3: ['allNew'], 5: ['oop'], 6: ['error'] });
  force('toutiao', 0, 3, 0, { 1: ['more'], 2: ['allKeep'] });
  force('zhihu', 1, 3, 0, {});
  force('zhihu', 4, 4, 3, { 2: ['fewer'], 4: ['allNew'] });
  force('douban', 1, 5, 0, { 2: ['allNew'], 3: ['allKeep'], 4: ['oop'] });
  attachPlants(users, [
    { cat: 'SELF', platform: 'weibo', user: 1, step: 0 },
    { cat: 'CONTACT', platform: 'xiaohongshu', user: 0, step: 0 },
    { cat: 'EMAIL', platform: 'toutiao', user: 2, step: 0 },
    { cat: 'PHONE', platform: 'xiaohongshu', user: 4, step: 1 },
    { cat: 'ID', platform: 'toutiao', user: 1, step: 1 },
    { cat: 'BANK', platform: 'weibo', user: 4, step: 1 },
    { cat: 'PLATE', platform: 'weibo', user: 5, step: 1 },
    { cat: 'IP', platform: 'zhihu', user: 2, step: 1 },
    { cat: 'GEO', platform: 'xiaohongshu', user: 6, step: 1 },
    { cat: 'DEVICE', platform: 'zhihu', user: 3, step: 1 },
  ]);
  const rates = {
    posts: [2, 5],
    allKeep: 0.06,
    allNew: 0.06,
    phPost: 0.02,
    phBio: 0.05,
    dup: 0,
    oop: 0,
    more: 0,
    fewer: 0,
    error: 0,
  };
  return { users, rates };
}

/** Largest-remainder split of `total` in proportion to `weights`. */
function apportion(total, weights) {
  const sum = weights.reduce((a, b) => a + b, 0);
  const raw = weights.map((w) => (total * w) / sum);
  const out = raw.map(Math.floor);
  const order = raw.map((r, i) => [r - Math.floor(r), i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const missing = total - out.reduce((a, b) => a + b, 0);
  for (let k = 0; k < missing; k++) out[order[k][1]]++;
  return out;
}

export function planPaper(seed) {
  const rng = new Rng(`${seed}|plan`);
  const stepWeights = PLATFORMS.map((p) => PAPER_STEPS[p]);
  const userCounts = apportion(PAPER_USERS, stepWeights);
  const singleCounts = apportion(PAPER_USERS - PAPER_MULTI, userCounts);
  const users = {};
  PLATFORMS.forEach((p, pi) => {
    const n = userCounts[pi];
    const singles = singleCounts[pi];
    const counts = Array.from({ length: n }, (_, i) => (i < singles ? 1 : 2));
    let extra = PAPER_STEPS[p] - singles - 2 * (n - singles);
    while (extra > 0) {
      const i = rng.int(singles, n - 1);
      if (counts[i] < 7) {
        counts[i]++;
        extra--;
      }
    }
    users[p] = rng.shuffle(counts).map((scored) => {
      const s = newSpec(scored);
      if (scored >= 2 && rng.chance(0.004)) {
        s.unscoredAt = rng.int(1, scored + 1);
        s.total = scored + 1;
      }
      return s;
    });
  });
  attachPlants(users, []);
  const rates = {
    posts: [4, 12],
    allKeep: 0.06,
    allNew: 0.06,
    phPost: 0.004,
    phBio: 0.01,
    dup: 0.01,
    oop: 0.015,
    more: 0.01,
    fewer: 0.01,
    error: 0.003,
  };
  return { users, rates };
}
