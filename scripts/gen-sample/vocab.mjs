// Vocabulary per platform

import { fnv } from './rng.mjs';
import { VIRAL } from './banks.mjs';
import { DOUBAN_ACTIONS, DOUBAN_GENRES } from './douban.mjs';
import { TOPICS, TOPIC_WEIGHTS, SUFFIX_INDEX } from './topics.mjs';

function formatTag(platform, word) {
  if (platform === 'weibo') return `#${word}#`;
  if (platform === 'xiaohongshu' || platform === 'toutiao') return `#${word}`;
  return word;
}

export function buildVocab(platform) {
  const info = new Map(); // tag -> { topic, subject, medium?, kind?, viral? }
  const byTopic = new Map();
  const topics = [];
  const add = (tag, meta) => {
    if (info.has(tag)) return;
    info.set(tag, meta);
    byTopic.get(meta.topic).push(tag);
  };
  if (platform === 'douban') {
    for (const g of DOUBAN_GENRES) {
      topics.push({ id: g.id, name: g.name, weight: 1 });
      byTopic.set(g.id, []);
      const acts = DOUBAN_ACTIONS[g.medium];
      for (const work of g.works.split(g.works.includes('|') ? '|' : ' ')) {
        add(`${acts.done}:${work}`, { topic: g.id, subject: work, medium: g.medium, kind: 'done' });
        const other = g.series && fnv(work) % 2 === 0 ? 'doing' : 'want';
        add(`${acts[other]}:${work}`, { topic: g.id, subject: work, medium: g.medium, kind: other });
      }
    }
  } else {
    for (const t of TOPICS) {
      topics.push({ id: t.id, name: t.name, weight: TOPIC_WEIGHTS[platform][t.id] });
      byTopic.set(t.id, []);
      for (const s of t.subjects.split(' ')) {
        if (platform === 'zhihu') {
          const first = fnv(`zhihu|${s}`) % t.ask.length;
          add(t.ask[first].replace('{s}', s), { topic: t.id, subject: s });
          if (fnv(`zhihu2|${s}`) % 2 === 0)
            add(t.ask[(first + 1) % t.ask.length].replace('{s}', s), { topic: t.id, subject: s });
        } else {
          add(formatTag(platform, s), { topic: t.id, subject: s });
          const sfx = t.suffix[SUFFIX_INDEX[platform]];
          if (sfx && fnv(`${platform}|${s}`) % 2 === 0) add(formatTag(platform, s + sfx), { topic: t.id, subject: s });
        }
      }
    }
  }
  const rawViral = Array.isArray(VIRAL[platform])
    ? VIRAL[platform]
    : VIRAL[platform].split(' ').map((w) => formatTag(platform, w));
  const viral = rawViral.filter((t) => !info.has(t));
  for (const t of viral) info.set(t, { topic: 'viral', subject: t, viral: true });
  const topicName = new Map(topics.map((t) => [t.id, t.name]));
  topicName.set('viral', '热点话题');
  return { platform, info, byTopic, topics, topicName, viral, viralSet: new Set(viral), all: [...info.keys()] };
}
