#!/usr/bin/env node
// Seeded generator of a synthetic OmniBehavior folder (our layout, see src/core/omni/types.ts): raw/<user>.json,
// test_actions.jsonl and one simulated model run results/demo-sim/predictions.jsonl. Invented data only.
// Same seed => same bytes. The folder loads without a problem; --broken writes two of its users into
// sample/broken/omnibehavior with the loading problems planted on purpose (each a diagnostic the loader must report).
//   node scripts/gen-omni-sample.mjs [--broken] [--out DIR] [--seed N] [--check]
// --check regenerates into a temp folder, requires byte equality with --out, checks the size budget and that each
// planted PI string sits where pi-manifest.json says (scripts/gen-omni-sample/pi.mjs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CS_LINES,
  FOLLOW_UPS,
  ITEMS,
  PRODUCTS,
  PROFILES,
  SCENE_NAMES,
  TOPICS,
  USERS,
} from './gen-omni-sample/banks.mjs';
import { plantPrediction, plantRaw, verifyPi, writeManifest } from './gen-omni-sample/pi.mjs';
import { asked, FIELDS, predict, targetMessage, trueValue } from './gen-omni-sample/questions.mjs';
import { Rng } from './gen-sample/rng.mjs';
import { parseFlags } from './lib/flags.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_SEED = 2026;
const USAGE = 'usage: node scripts/gen-omni-sample.mjs [--broken] [--out DIR] [--seed N] [--check]';
const BROKEN_USERS = ['u_1003', 'u_1006'];
const RUN = 'demo-sim';
const MAX_BYTES = 3 * 1024 * 1024;

const START = Date.UTC(2025, 2, 1, 8, 0, 0);
const pad = (n) => String(n).padStart(2, '0');
const dateText = (ms) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
};
const timeText = (ms) => {
  const d = new Date(ms);
  return `${dateText(ms)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
};

function makeRecord(rng, user, scene, t) {
  const L = user.lang;
  const topic = rng.chance(0.7) ? TOPICS[L][rng.pick(user.topics)] : rng.pick(TOPICS[L]);
  const type = SCENE_NAMES[L][scene];
  const p = user.p;
  if (scene === 'video') {
    const duration = rng.chance(0.03) ? null : rng.int(8, 240);
    const complete = rng.chance(p.complete);
    const watch =
      duration === null ? rng.int(2, 60) : complete ? duration : Math.max(1, Math.round(duration * rng.next() * 0.8));
    const actions = [{ type: 'watch', play_duration: watch, is_complete_play: complete ? 1 : 0 }];
    // A collection is an action of its own: the authors' builder asks video_collected of a `collect` action.
    const collected = rng.chance(p.collect);
    for (const [a, key] of [
      ['like', 'like'],
      ['comment', 'comment'],
      ['share', 'share'],
      ['follow', 'follow'],
    ])
      if (rng.chance(p[key])) actions.push({ type: a });
    if (collected) actions.push({ type: 'collect' });
    const context = {
      caption: `${topic} #${rng.int(1, 99)}`,
      duration,
      play_cnt: rng.int(100, 900000),
      like_cnt: rng.int(0, 50000),
      comment_cnt: rng.int(0, 3000),
      share_cnt: rng.int(0, 2000),
      upload_timestamp: timeText(t - rng.int(1, 30) * 86400000),
      ocr: rng.chance(0.4) ? null : topic,
      asr: rng.chance(0.5) ? null : `${topic}…`,
      author_fans_cnt: rng.int(10, 2000000),
    };
    return { record: { type, timestamp: timeText(t), context, action: actions }, watch, duration };
  }
  if (scene === 'live') {
    const watch = rng.int(5, 1800);
    const actions = [{ type: 'watch', play_duration: watch }];
    if (rng.chance(p.like)) actions.push({ type: 'like', like_cnt: rng.int(1, 30) });
    if (rng.chance(p.comment)) actions.push({ type: 'comment', comment_cnt: rng.int(1, 4) });
    if (rng.chance(p.gift)) actions.push({ type: 'send_gift', gift_amount: rng.int(1, 520) });
    if (rng.chance(p.follow)) actions.push({ type: 'follow' });
    if (rng.chance(p.share)) actions.push({ type: 'share' });
    const clickedCart = rng.chance(p.cart);
    if (rng.chance(0.01)) actions.push({ type: 'join_group' });
    const context = {
      live_title: `${topic} live`,
      live_category: topic,
      viewer_cnt: rng.int(10, 80000),
      like_cnt: rng.chance(0.1) ? null : rng.int(0, 900000),
      is_shop_live: rng.chance(0.3) ? 1 : 0,
      live_cover_content: rng.chance(0.3) ? null : topic,
    };
    // Only a shop live has a cart; the builder asks live_clicked_cart only there, of a flagged click_cart action.
    if (clickedCart && context.is_shop_live === 1) actions.push({ type: 'click_cart', is_click_cart_action: 1 });
    return { record: { type, timestamp: timeText(t), context, action: actions }, watch, duration: null };
  }
  if (scene === 'ads') {
    const [product, main, sub] = rng.pick(PRODUCTS);
    const duration = rng.int(5, 60);
    const watch = rng.int(1, duration);
    const actions = [{ type: 'watch', play_duration: watch }];
    if (rng.chance(p.like * 0.5)) actions.push({ type: 'like' });
    if (rng.chance(p.comment * 0.5)) actions.push({ type: 'comment' });
    if (rng.chance(p.adAct)) actions.push({ type: 'activation', activation_cnt: 1 }, { type: 'conversion' });
    if (rng.chance(p.adSubmit)) actions.push({ type: 'submit', form_submit_total_cnt: 1 });
    const context = {
      product,
      industry_main: main,
      industry_sub: sub,
      caption: `${product}: try it today`,
      duration,
      ocr_text: rng.chance(0.5) ? null : product,
      asr_text: rng.chance(0.6) ? null : `${product} now`,
      like_cnt: rng.int(0, 9000),
    };
    return { record: { type, timestamp: dateText(t), context, action: actions }, watch, duration };
  }
  if (scene === 'shop') {
    const item = rng.pick(ITEMS[L]);
    const actions = [];
    if (rng.chance(p.shopCart)) actions.push({ type: 'cart', is_add_to_cart: 1 });
    if (rng.chance(p.pay)) actions.push({ type: 'purchase', is_pay: 1 });
    if (actions.length === 0) actions.push({ type: 'click', click_cnt: 1 });
    const context = {
      item_title: item,
      item_desc: rng.chance(0.2) ? null : `${item}, ${topic}`,
      item_price: rng.int(5, 900) + 0.9,
      category_level1_name: 'Home',
      category_level2_name: rng.chance(0.2) ? null : 'Daily',
      category_level3_name: null,
      sales_cnt: rng.int(0, 90000),
    };
    return { record: { type, timestamp: timeText(t), context, action: actions } };
  }
  if (scene === 'search') {
    const keyword = rng.chance(0.8) ? topic : rng.pick(ITEMS[L]);
    const actions = [
      { type: 'search', keyword },
      { type: 'show', show_cnt: rng.int(1, 40) },
    ];
    if (rng.chance(0.4)) actions.push({ type: 'click', click_cnt: rng.int(1, 3) });
    return { record: { type, timestamp: timeText(t), action: actions }, keyword };
  }
  const k = rng.int(0, CS_LINES[L].length - 1);
  const [ask, answer] = CS_LINES[L][k];
  const content = [
    { role: 'user', content: ask },
    { role: 'assistant', content: answer },
    { role: 'user', content: FOLLOW_UPS[L][k] },
  ];
  const context = { shop_name: rng.chance(0.2) ? null : `Shop ${rng.int(1, 40)}`, item_title: rng.pick(ITEMS[L]) };
  return {
    record: { type, timestamp: timeText(t), context, action: [{ type: 'dialogue', content }] },
    message: targetMessage(content),
  };
}

function generate(out, seed, broken) {
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(path.join(out, 'raw'), { recursive: true });
  fs.mkdirSync(path.join(out, 'results', RUN), { recursive: true });
  const testLines = [];
  const predLines = [];
  const plantedTests = [];
  const plantedPi = [];
  const users = broken ? USERS.filter((u) => BROKEN_USERS.includes(u.id)) : USERS;
  for (const user of users) {
    const rng = new Rng(`${seed}:${user.id}`);
    const scenes = Object.keys(user.mix);
    const sceneWeights = Object.values(user.mix);
    const made = [];
    let t = START + rng.int(0, 86400) * 1000;
    const step = (90 * 86400000) / user.records;
    for (let i = 0; i < user.records; i++) {
      t += Math.round(step * (0.2 + rng.next() * 1.6));
      const scene = rng.weighted(scenes, sceneWeights);
      made.push({ scene, ...makeRecord(rng, user, scene, t) });
    }
    // Planted raw-file problems (never at a test action): an unknown scene and a timestamp that is not a date.
    const planted = new Set();
    if (broken && user.id === 'u_1003') {
      made[100].record.type = 'Mini Game';
      made[200].record.timestamp = '2025-13-45 99:00:00';
      planted.add(100).add(200);
    }
    // Test actions: records from the last 40% of the history, every field the builder asks of their record.
    const testIdx = [];
    for (let i = Math.floor(user.records * 0.6); i < user.records; i++) {
      if (!planted.has(i) && rng.chance(Math.min(1, 80 / (user.records * 0.4)))) testIdx.push(i);
    }
    for (const i of testIdx) {
      const m = made[i];
      let fields = FIELDS[m.scene].filter((f) => asked(f, m.record));
      // The clean sample lists exactly what the benchmark's builder asks; the broken one keeps a few video actions
      // that leave out video_followed, so that a prediction answering it is a planted problem.
      const subset = m.scene === 'video' && rng.chance(0.15);
      if (broken && subset) fields = fields.filter((f) => f !== 'video_followed');
      testLines.push(JSON.stringify({ user_id: user.id, index: i, fields }));
      const questions = fields.map((f) => predict(rng, f, trueValue(f, m), m, user.lang));
      predLines.push({ user_id: user.id, index: i, questions, fields, duration: m.duration });
    }
    if (broken && user.id === 'u_1006') {
      // Planted: video fields asked of a search record (the scene does not fit the fields).
      const search = made.findIndex((m, i) => m.scene === 'search' && i > user.records * 0.6 && !testIdx.includes(i));
      plantedTests.push(JSON.stringify({ user_id: user.id, index: search, fields: ['video_liked', 'video_shared'] }));
    }
    plantedPi.push(...plantRaw(user, made, testIdx, planted));
    const raw = {
      [user.id]: { user_profile: PROFILES[user.lang][user.profile], action_history: made.map((m) => m.record) },
    };
    const text =
      user.layout === 'pretty'
        ? JSON.stringify(raw, null, 2) + '\n'
        : `{"${user.id}": {"user_profile": ${JSON.stringify(raw[user.id].user_profile)}, "action_history": [\n${made.map((m) => JSON.stringify(m.record)).join(',\n')}\n]}}\n`;
    fs.writeFileSync(path.join(out, 'raw', `${user.id}.json`), text);
  }
  testLines.push(...plantedTests);
  plantUnparseable(predLines);
  if (broken) plantProblems(testLines, predLines);
  plantedPi.push(plantPrediction(predLines, RUN));
  fs.writeFileSync(path.join(out, 'test_actions.jsonl'), testLines.join('\n') + '\n');
  fs.writeFileSync(
    path.join(out, 'results', RUN, 'predictions.jsonl'),
    predLines
      .map((l) =>
        typeof l === 'string' ? l : JSON.stringify({ user_id: l.user_id, index: l.index, questions: l.questions }),
      )
      .join('\n') + '\n',
  );
  writeManifest(out, plantedPi);
  return { users: users.length, testActions: testLines.length, bytes: totalBytes(out) };
}

// Two unparseable model outputs: the model's failures, not the file's (they count as wrong answers).
function plantUnparseable(predLines) {
  const firstVideo = predLines.find((l) => l.questions[0].field === 'video_completed');
  Object.assign(firstVideo.questions[1], {
    predicted_value: null,
    predicted_label: null,
    raw_output: 'I cannot determine this from the history.',
  });
  const video = predLines.find((l) => l !== firstVideo && l.questions[0].field === 'video_completed' && l.duration > 0);
  Object.assign(
    video.questions.find((q) => q.field === 'video_watch_seconds'),
    { predicted_value: null, raw_output: 'Somewhere between half and all of it.' },
  );
}

// Planted problems, each a diagnostic the loader must report (test/unit/omni-sample.test.ts pins them).
function plantProblems(testLines, predLines) {
  // test_actions.jsonl: an index past the end of the history.
  testLines.push(JSON.stringify({ user_id: 'u_1006', index: 99999, fields: ['video_liked'] }));
  // predictions.jsonl: a field the test action does not ask, an unknown field, a prediction for no test action,
  // and a line cut short.
  const partial = predLines.find(
    (l) => l.questions[0].field === 'video_completed' && !l.fields.includes('video_followed'),
  );
  partial.questions.push({ ...partial.questions[0], field: 'video_followed' });
  const other = predLines.find((l) => l.questions[0].field === 'shop_added_to_cart');
  other.questions.push({ ...other.questions[0], field: 'shop_bookmarked' });
  predLines.push(
    JSON.stringify({
      user_id: 'u_1003',
      index: 5,
      questions: [
        {
          type: 'binary',
          field: 'video_liked',
          true_value: 'No',
          predicted_value: 'Yes',
          predicted_label: 1,
          raw_output: 'Answer: Yes',
        },
      ],
    }),
  );
  predLines.push('{"user_id": "u_1006", "index": 300, "questions": [{"type": "binary", "field": "live_liked"');
}

function totalBytes(dir) {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) n += fs.statSync(path.join(e.parentPath ?? e.path, e.name)).size;
  return n;
}

function listFiles(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath ?? e.path, e.name)))
    .sort();
}

function check(out, seed, broken) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gen-omni-'));
  try {
    const t = generate(tmp, seed, broken);
    const want = listFiles(tmp);
    const have = fs.existsSync(out) ? listFiles(out).filter((f) => f !== 'README.md') : [];
    const stale = want.filter(
      (f) => !have.includes(f) || !fs.readFileSync(path.join(out, f)).equals(fs.readFileSync(path.join(tmp, f))),
    );
    const extra = have.filter((f) => !want.includes(f));
    const problems = [];
    if (stale.length) problems.push(`not what --seed ${seed} generates: ${stale.join(', ')}`);
    if (extra.length) problems.push(`files the generator does not write: ${extra.join(', ')}`);
    if (t.bytes > MAX_BYTES) problems.push(`${t.bytes} bytes, over the ${MAX_BYTES} budget`);
    if (fs.existsSync(out)) problems.push(...verifyPi(out));
    for (const p of problems) console.error(p);
    console.log(
      problems.length
        ? 'check: FAILED'
        : `check: OK (${t.users} users, ${t.testActions} test action lines, ${t.bytes} bytes)`,
    );
    return problems.length === 0;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function parseArgs(argv) {
  const { flags, fail } = parseFlags(argv, USAGE, {
    '--out': 'value',
    '--seed': 'value',
    '--check': 'switch',
    '--broken': 'switch',
  });
  const broken = flags['--broken'] === true;
  const o = {
    seed: flags['--seed'] === undefined ? DEFAULT_SEED : Number(flags['--seed']),
    out:
      flags['--out'] === undefined
        ? path.join(ROOT, 'sample', ...(broken ? ['broken'] : []), 'omnibehavior')
        : path.resolve(flags['--out']),
    check: flags['--check'] === true,
    broken,
  };
  if (!Number.isSafeInteger(o.seed) || o.seed < 0) fail('--seed must be a non-negative integer');
  return o;
}

const opts = parseArgs(process.argv.slice(2));
if (opts.check) process.exit(check(opts.out, opts.seed, opts.broken) ? 0 : 1);
const readme = path.join(opts.out, 'README.md');
const keep = fs.existsSync(readme) ? fs.readFileSync(readme) : null;
const t = generate(opts.out, opts.seed, opts.broken);
if (keep) fs.writeFileSync(readme, keep);
console.log(
  `gen-omni-sample: seed=${opts.seed} users=${t.users} test actions=${t.testActions} bytes=${t.bytes} -> ${path.relative(process.cwd(), opts.out) || '.'}`,
);
