// --check: regenerate into a temp folder and compare bytes, then validate the folder itself (verify).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  PLATFORMS,
  CODE,
  META_KEYS,
  METRIC_KEYS,
  RUN_NAME,
  PAPER_STEPS,
  PAPER_USERS,
  PAPER_MULTI,
} from './constants.mjs';
import { PH_CATEGORIES } from './banks.mjs';
import { idChecksumOk, luhnOk, PI_PATTERNS } from './plants.mjs';
import { kForPool, scoreStep } from './model.mjs';
import { generate, generatedFiles } from './write.mjs';

const TAG_FORM = {
  weibo: /^#[^#\s]+#$/,
  xiaohongshu: /^#[^#\s]+$/,
  toutiao: /^#[^#\s]+$/,
  zhihu: /^[^#,，;；|\n]+？$/,
  douban: /^(看过影视|想看影视|在看影视|读过图书|想读图书|在读图书|听过音乐|想听音乐|玩过游戏|想玩游戏):[^:：,，\n]+$/,
};
const splitTagLine = (platform, v) =>
  platform === 'weibo'
    ? (v.match(/#[^#]+#/g) ?? [])
    : v.split(platform === 'zhihu' || platform === 'douban' ? ', ' : ' ');

function parsePyJson(line) {
  return JSON.parse(line.replace(/: (NaN|-?Infinity)(?=[,}])/g, ': "$1"'), (_, v) =>
    v === 'NaN' ? NaN : v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : v,
  );
}

function sameMetric(a, b) {
  return (Number.isNaN(a) && Number.isNaN(b)) || a === b;
}

function verify(out, scale) {
  const errors = [];
  const err = (m) => errors.push(m);
  const c = {
    users: 0,
    multiUsers: 0,
    steps: 0,
    scored: 0,
    unscored: 0,
    posts: 0,
    newEmpty: 0,
    keepEmpty: 0,
    decayEmpty: 0,
    randomEmpty: 0,
    poolMin: Infinity,
    poolMax: 0,
  };
  const perPlatformScored = {};
  const manifest = JSON.parse(fs.readFileSync(path.join(out, 'pi-manifest.json'), 'utf8')).planted;
  const found = new Set();
  const placeholderHits = Object.fromEntries(PH_CATEGORIES.map((k) => [k, 0]));
  const metasByUser = new Map();

  for (const p of PLATFORMS) {
    const file = `data/${p}_inference_tasks.jsonl`;
    const lines = fs.readFileSync(path.join(out, file), 'utf8').split('\n');
    if (lines.pop() !== '') err(`${file}: no trailing newline`);
    perPlatformScored[p] = 0;
    lines.forEach((text, i) => {
      const line = i + 1;
      const at = `${file}:${line}`;
      if (/\\u[0-9a-fA-F]{4}/.test(text)) err(`${at}: \\u escape in the JSON`);
      const u = JSON.parse(text);
      const keys = Object.keys(u).join(',');
      if (
        keys !== 'user_id,platform,username,bio,total_steps,prediction_tasks' &&
        keys !== 'user_id,platform,username,total_steps,prediction_tasks'
      )
        err(`${at}: fields ${keys}`);
      if (!new RegExp(`^${CODE[p]}_[0-9a-f]{10}$`).test(u.user_id)) err(`${at}: user_id ${u.user_id}`);
      if (!/^U_[0-9a-f]{8}$/.test(u.username)) err(`${at}: username ${u.username}`);
      if (u.platform !== p) err(`${at}: platform ${u.platform}`);
      if (u.total_steps !== u.prediction_tasks.length)
        err(`${at}: total_steps ${u.total_steps} vs ${u.prediction_tasks.length}`);
      c.users++;
      const piScan = (s, field, stepId) => {
        for (const ph of PH_CATEGORIES) placeholderHits[ph] += s.split(`<${ph}>`).length - 1;
        for (const [cat, re] of Object.entries(PI_PATTERNS)) {
          for (const m of s.matchAll(re)) {
            if (cat === 'BANK' && !luhnOk(m[0])) continue;
            const hit = manifest.findIndex(
              (x) =>
                x.file === file &&
                x.line === line &&
                x.field === field &&
                x.stepId === stepId &&
                x.text.replace(/\s/g, '').includes(m[0].replace(/\s/g, '')),
            );
            if (hit < 0) err(`${at}: unplanted ${cat}-like string ${m[0]} in ${field}`);
            else if (manifest[hit].text === m[0] || manifest[hit].category === cat) found.add(hit);
          }
        }
        manifest.forEach((x, mi) => {
          if (x.file === file && x.line === line && x.field === field && x.stepId === stepId && s.includes(x.text))
            found.add(mi);
        });
      };
      if (u.bio !== undefined) piScan(u.bio, 'bio', null);
      const hist = new Set();
      const batchTags = [];
      let scoredHere = 0;
      const metas = [];
      u.prediction_tasks.forEach((t, si) => {
        const sat = `${at} step ${t.step_id}`;
        const tkeys = Object.keys(t).join(',');
        if (tkeys !== 'step_id,total_steps,date_input,date_target,posts_text,candidate_pool,ground_truth,meta')
          err(`${sat}: fields ${tkeys}`);
        if (t.step_id !== si + 1 || t.total_steps !== u.total_steps) err(`${sat}: step_id/total_steps`);
        if (!(t.date_input < t.date_target) || !/^\d{4}-\d{2}-\d{2}$/.test(t.date_target)) err(`${sat}: dates`);
        if (si > 0 && u.prediction_tasks[si - 1].date_target !== t.date_input) err(`${sat}: date chain`);
        // posts
        const blocks = t.posts_text.split('\n\n');
        const tagsHere = new Set();
        blocks.forEach((b, bi) => {
          if (!b.startsWith(`[${bi + 1}] `)) err(`${sat}: post ${bi + 1} does not start with [${bi + 1}]`);
          if (!/(^|\n)(\[\d+\] )?Content: ./.test(b)) err(`${sat}: post ${bi + 1} has no Content`);
          for (const l of b.split('\n')) {
            const m = /^(?:\[\d+\] )?Tags: (.*)$/.exec(l);
            if (!m) continue;
            for (const tag of splitTagLine(p, m[1])) {
              if (!TAG_FORM[p].test(tag)) err(`${sat}: tag form ${tag}`);
              tagsHere.add(tag);
            }
          }
        });
        c.posts += blocks.length;
        piScan(t.posts_text, 'posts_text', t.step_id);
        for (const tag of tagsHere) hist.add(tag);
        batchTags.push(tagsHere);
        // pool
        const m = t.meta;
        if (Object.keys(m).join(',') !== META_KEYS.join(',')) err(`${sat}: meta keys`);
        const all = META_KEYS.flatMap((k) => m[k]);
        const pool = new Set(t.candidate_pool);
        if (pool.size !== t.candidate_pool.length) err(`${sat}: duplicate in pool`);
        if (new Set(all).size !== all.length) err(`${sat}: meta lists not disjoint`);
        if (all.length !== pool.size || !all.every((x) => pool.has(x))) err(`${sat}: meta union != pool`);
        const pos = m.T_keep.length + m.T_new.length;
        if (pos * 4 !== pool.size) err(`${sat}: |C+| ${pos} is not 25% of |C| ${pool.size}`);
        for (const tag of t.candidate_pool) if (!TAG_FORM[p].test(tag)) err(`${sat}: pool tag form ${tag}`);
        const gt = t.ground_truth;
        if (gt.new_tags.join('|') !== m.T_new.join('|') || gt.keep_tags.join('|') !== m.T_keep.join('|'))
          err(`${sat}: ground_truth != meta`);
        if (new Set(gt.all_tags).size !== pos || !gt.all_tags.every((x) => m.T_new.includes(x) || m.T_keep.includes(x)))
          err(`${sat}: all_tags`);
        // trajectory semantics: keep = used before, new = never used, decay = recent, the rest unused
        if (!m.T_keep.every((x) => hist.has(x))) err(`${sat}: T_keep tag never used before`);
        if (m.T_new.some((x) => hist.has(x))) err(`${sat}: T_new tag used before`);
        const recent = new Set([...batchTags[si], ...(batchTags[si - 1] ?? [])]);
        if (!m.D_decay.every((x) => recent.has(x))) err(`${sat}: D_decay tag not in the recent batches`);
        for (const k of ['D_cluster', 'D_viral', 'D_random'])
          if (m[k].some((x) => hist.has(x))) err(`${sat}: ${k} tag used before`);
        c.steps++;
        if (pos === 0) c.unscored++;
        else {
          c.scored++;
          scoredHere++;
          if (m.T_new.length === 0) c.newEmpty++;
          if (m.T_keep.length === 0) c.keepEmpty++;
          if (m.D_decay.length === 0) c.decayEmpty++;
          if (m.D_random.length === 0) c.randomEmpty++;
          c.poolMin = Math.min(c.poolMin, pool.size);
          c.poolMax = Math.max(c.poolMax, pool.size);
        }
        metas.push({ meta: m, gt, pool: t.candidate_pool });
      });
      // positives of step n are tags of batch n+1
      u.prediction_tasks.forEach((t, si) => {
        if (si + 1 < batchTags.length && ![...t.meta.T_keep, ...t.meta.T_new].every((x) => batchTags[si + 1].has(x)))
          err(`${at} step ${t.step_id}: positive not used in the next batch`);
      });
      perPlatformScored[p] += scoredHere;
      if (scoredHere >= 2) c.multiUsers++;
      metasByUser.set(u.user_id, { p, metas, line });
    });
  }
  manifest.forEach((x, i) => {
    if (!found.has(i)) err(`manifest entry ${x.category} ${x.text} not found at ${x.file}:${x.line}`);
    if (x.category === 'ID' && !idChecksumOk(x.text)) err(`manifest ID ${x.text} has a wrong checksum`);
    if (x.category === 'BANK' && !luhnOk(x.text)) err(`manifest bank card ${x.text} fails Luhn`);
  });
  for (const cat of ['PHONE', 'EMAIL', 'ID', 'BANK', 'IP', 'PLATE']) {
    const n = manifest.filter((x) => x.category === cat).length;
    if (n < 1 || n > 2) err(`manifest has ${n} ${cat} entries (want 1 or 2)`);
  }
  for (const [ph, n] of Object.entries(placeholderHits)) if (n === 0) err(`placeholder <${ph}> never occurs`);
  if (c.newEmpty === 0 || c.keepEmpty === 0 || c.unscored === 0)
    err(`edge cases missing: T_new empty ${c.newEmpty}, T_keep empty ${c.keepEmpty}, unscored ${c.unscored}`);

  // the run
  const r = { lines: 0, nanTokens: 0, nullMetrics: 0, errors: 0, dup: 0, oop: 0, wrongCount: 0 };
  for (const p of PLATFORMS) {
    const file = `results/${RUN_NAME}/inference_results_${p}.jsonl`;
    const text = fs.readFileSync(path.join(out, file), 'utf8');
    r.nanTokens += (text.match(/: NaN[,}]/g) ?? []).length;
    const lines = text.split('\n');
    lines.pop();
    const order = [];
    lines.forEach((l, i) => {
      const at = `${file}:${i + 1}`;
      const res = parsePyJson(l);
      r.lines++;
      const user = metasByUser.get(res.user_id);
      if (!user || user.p !== p) return err(`${at}: unknown user ${res.user_id}`);
      order.push(user.line);
      if (res.steps.length !== user.metas.length)
        err(`${at}: ${res.steps.length} steps, data has ${user.metas.length}`);
      res.steps.forEach((s, si) => {
        const sat = `${at} step ${s.step_id}`;
        const { meta, gt, pool } = user.metas[si];
        if (Object.keys(s).join(',') !== 'step_id,prediction,ground_truth,metrics,reasoning,persona_summary')
          err(`${sat}: fields`);
        if (s.step_id !== si + 1) err(`${sat}: step_id`);
        if (s.ground_truth.join('|') !== [...gt.new_tags, ...gt.keep_tags].join('|')) err(`${sat}: ground_truth`);
        const want = scoreStep(meta, s.prediction);
        if (want === null) {
          r.nullMetrics++;
          if (s.metrics !== null) err(`${sat}: metrics should be null`);
        } else if (!s.metrics || !METRIC_KEYS.every((k) => sameMetric(s.metrics[k], want[k])))
          err(`${sat}: metrics differ from the reference rules`);
        if (s.reasoning.startsWith('Error: ')) {
          r.errors++;
          if (s.prediction.length || s.persona_summary !== '') err(`${sat}: error record shape`);
          return;
        }
        if (!/[\u4e00-\u9fff]/.test(s.persona_summary) || !/[\u4e00-\u9fff]/.test(s.reasoning))
          err(`${sat}: persona/reasoning not Chinese`);
        if (new Set(s.prediction).size !== s.prediction.length) r.dup++;
        if (s.prediction.some((x) => !pool.includes(x))) r.oop++;
        if (s.prediction.length !== kForPool(pool.length)) r.wrongCount++;
      });
    });
    if (order.length > 2 && order.every((x, i) => i === 0 || x > order[i - 1]))
      err(`${file}: results are in input order`);
  }
  if (r.lines !== c.users) err(`run has ${r.lines} lines for ${c.users} users`);
  if (!r.nanTokens || !r.nullMetrics || !r.errors || !r.dup || !r.oop || !r.wrongCount)
    err(`run edge cases missing: ${JSON.stringify(r)}`);

  const sizes = Object.fromEntries(generatedFiles(scale).map((f) => [f, fs.statSync(path.join(out, f)).size]));
  const bytes = Object.values(sizes).reduce((a, b) => a + b, 0);
  if (scale === 'sample' && bytes >= 1024 * 1024) err(`sample is ${bytes} bytes (want < 1 MiB)`);
  if (scale === 'paper') {
    if (c.users !== PAPER_USERS) err(`users ${c.users} != ${PAPER_USERS}`);
    if (c.multiUsers !== PAPER_MULTI) err(`users with >=2 scored steps ${c.multiUsers} != ${PAPER_MULTI}`);
    for (const p of PLATFORMS)
      if (perPlatformScored[p] !== PAPER_STEPS[p])
        err(`${p}: ${perPlatformScored[p]} scored steps != ${PAPER_STEPS[p]}`);
  }
  return { errors, counts: c, run: r, perPlatformScored, bytes, sizes, placeholderHits };
}

export function check(opts) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gen-sample-'));
  try {
    generate({ ...opts, out: tmp });
    const stale = generatedFiles(opts.scale).filter((f) => {
      const a = path.join(opts.out, f);
      return !fs.existsSync(a) || !fs.readFileSync(a).equals(fs.readFileSync(path.join(tmp, f)));
    });
    if (stale.length)
      console.error(`not what --seed ${opts.seed} --scale ${opts.scale} generates: ${stale.join(', ')}`);
    // verify() reads every generated file; a missing one is reported here instead of crashing it.
    const missing = generatedFiles(opts.scale).filter((f) => !fs.existsSync(path.join(opts.out, f)));
    if (missing.length) {
      console.error(`missing from ${opts.out}: ${missing.join(', ')}`);
      console.log(`check: FAILED (${missing.length} missing file${missing.length === 1 ? '' : 's'}, output stale)`);
      return false;
    }
    const v = verify(opts.out, opts.scale);
    for (const e of v.errors.slice(0, 40)) console.error(`  ${e}`);
    if (v.errors.length > 40) console.error(`  ... and ${v.errors.length - 40} more`);
    console.log(
      JSON.stringify({
        counts: v.counts,
        perPlatformScored: v.perPlatformScored,
        run: v.run,
        placeholders: v.placeholderHits,
        bytes: v.bytes,
        sizes: v.sizes,
      }),
    );
    const ok = stale.length === 0 && v.errors.length === 0;
    console.log(
      ok ? 'check: OK' : `check: FAILED (${v.errors.length} problems${stale.length ? ', output stale' : ''})`,
    );
    return ok;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
