// Residual personal information planted in the OmniBehavior sample for the PI audit to find (what slipped through the
// release's masking), placeholders it must count but never report, and near misses it must leave alone. Each goes
// into a record that lies before the user's first test action (so a finding opens that test action with the record
// in its history), by overwriting one string the record already has: no random draw is spent, so every other byte
// of the sample stays as it was. pi-manifest.json names each one's file, line and JSON path; --check verifies them.
import fs from 'node:fs';
import path from 'node:path';
import { idChecksumOk, luhnOk, PI_PATTERNS } from '../gen-sample/plants.mjs';

export const MANIFEST = 'pi-manifest.json';

const ID_NUMBER = '110105198805122136';
const BANK_NUMBER = '6222 0202 0012 3456 788';

/** `path` is inside the record; the key must already be there (the record keeps its shape). */
const RAW_PLANTS = [
  {
    list: 'planted',
    category: 'PHONE',
    confidence: 'high',
    user: 'u_1001',
    scene: 'video',
    path: 'context.caption',
    value: '联系电话 13800138000',
    text: '13800138000',
  },
  {
    list: 'planted',
    category: 'PLATE',
    confidence: 'high',
    user: 'u_1002',
    scene: 'live',
    path: 'context.live_cover_content',
    value: '沪AD12345 挪车',
    text: '沪AD12345',
  },
  {
    list: 'planted',
    category: 'ID',
    confidence: 'high',
    user: 'u_1003',
    scene: 'ads',
    path: 'context.ocr_text',
    value: `身份证 ${ID_NUMBER}`,
    text: ID_NUMBER,
  },
  {
    list: 'planted',
    category: 'EMAIL',
    confidence: 'high',
    user: 'u_1004',
    scene: 'cs',
    path: 'action[0].content[2].content',
    role: 'user',
    value: 'my email is lin.wei@example.com',
    text: 'lin.wei@example.com',
  },
  {
    list: 'planted',
    category: 'PHONE',
    confidence: 'medium',
    user: 'u_1005',
    scene: 'search',
    path: 'action[0].keyword',
    value: '13912345678',
    text: '13912345678',
  },
  {
    list: 'planted',
    category: 'BANK',
    confidence: 'high',
    user: 'u_1006',
    scene: 'shop',
    path: 'context.item_desc',
    value: `卡号 ${BANK_NUMBER}`,
    text: BANK_NUMBER,
  },
  {
    list: 'placeholders',
    category: 'PHONE',
    user: 'u_1001',
    scene: 'video',
    path: 'context.asr',
    value: '<PHONE> call me',
  },
  {
    list: 'placeholders',
    category: 'CONTACT',
    user: 'u_1006',
    scene: 'cs',
    path: 'action[0].content[1].content',
    role: 'assistant',
    value: 'ok <CONTACT>',
  },
  {
    list: 'nearMisses',
    looksLike: 'PHONE',
    user: 'u_1002',
    scene: 'video',
    path: 'context.caption',
    value: '订单号 13800138000',
  },
  {
    list: 'nearMisses',
    looksLike: 'IP',
    user: 'u_1004',
    scene: 'ads',
    path: 'context.caption',
    value: 'version 10.0.0.1',
  },
];
/** Goes into the raw output of the run's first binary answer that does not parse. */
const PREDICTION_PLANT = {
  list: 'planted',
  category: 'PHONE',
  confidence: 'high',
  value: 'I cannot determine this. Call 13912345678.',
  text: '13912345678',
};

/** `a.b[2].c` -> ['a', 'b', 2, 'c'] */
const steps = (p) => [...p.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] === undefined ? m[1] : Number(m[2])));

function resolve(obj, p) {
  let v = obj;
  for (const k of steps(p)) v = v === null || typeof v !== 'object' ? undefined : v[k];
  return v;
}

function setExisting(obj, p, value) {
  const keys = steps(p);
  const last = keys.pop();
  const parent = resolve(
    obj,
    keys
      .map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`))
      .join('')
      .slice(1),
  );
  if (parent === null || typeof parent !== 'object' || !(last in parent))
    throw new Error(`planted PI: no ${p} in the chosen record`);
  parent[last] = value;
}

/**
 * Plants this user's strings; `made` is the history ({ scene, record }), `testIdx` the test action indices (ascending),
 * `skip` records already planted with something else. Returns the placed plants (lines come later, from the file).
 */
export function plantRaw(user, made, testIdx, skip) {
  const placed = [];
  const taken = new Set(skip);
  for (const p of RAW_PLANTS.filter((x) => x.user === user.id)) {
    const first = testIdx[0];
    let i = first - 1;
    while (i >= 0 && (made[i].scene !== p.scene || taken.has(i))) i--;
    if (i < 0) throw new Error(`planted PI: ${user.id} has no ${p.scene} record before its first test action`);
    const rec = made[i].record;
    if (p.role && resolve(rec, p.path.replace(/\.content$/, '.role')) !== p.role)
      throw new Error(`planted PI: ${user.id} record ${i}: not a ${p.role} turn`);
    setExisting(rec, p.path, p.value);
    taken.add(i);
    placed.push({
      ...p,
      file: `raw/${user.id}.json`,
      field: `action_history[${i}].${p.path}`,
      userId: user.id,
      recordIndex: i,
      testAction: first,
    });
  }
  return placed;
}

/** Plants the phone number into the raw output of the first binary answer that does not parse. */
export function plantPrediction(predLines, run) {
  for (const l of predLines) {
    if (typeof l === 'string') continue;
    const q = l.questions.findIndex((x) => x.type === 'binary' && x.predicted_value === null);
    if (q < 0) continue;
    l.questions[q].raw_output = PREDICTION_PLANT.value;
    return {
      ...PREDICTION_PLANT,
      file: `results/${run}/predictions.jsonl`,
      field: `questions[${q}].raw_output`,
      userId: l.user_id,
      recordIndex: null,
      testAction: l.index,
    };
  }
  throw new Error('planted PI: no unparseable binary answer for the raw output');
}

const encoded = (value) => JSON.stringify(value).slice(1, -1);
const occurrences = (text, needle) => text.split(needle).length - 1;

/** Writes pi-manifest.json: the line of each planted string is where its (unique) JSON text sits in the written file. */
export function writeManifest(out, placed) {
  const texts = new Map();
  const manifest = { planted: [], placeholders: [], nearMisses: [] };
  for (const p of placed) {
    if (!texts.has(p.file)) texts.set(p.file, fs.readFileSync(path.join(out, p.file), 'utf8'));
    const text = texts.get(p.file);
    const needle = encoded(p.value);
    if (occurrences(text, needle) !== 1) throw new Error(`planted PI: ${p.value} is not unique in ${p.file}`);
    const line = text.slice(0, text.indexOf(needle)).split('\n').length;
    const where = { file: p.file, line, field: p.field, userId: p.userId, recordIndex: p.recordIndex };
    if (p.list === 'planted')
      manifest.planted.push({
        category: p.category,
        confidence: p.confidence,
        text: p.text,
        value: p.value,
        ...where,
        testAction: p.testAction,
      });
    else if (p.list === 'placeholders') manifest.placeholders.push({ category: p.category, value: p.value, ...where });
    else manifest.nearMisses.push({ looksLike: p.looksLike, value: p.value, ...where });
  }
  fs.writeFileSync(path.join(out, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
}

/** Every string under `v` with its JSON path. */
function* strings(v, at = '') {
  if (typeof v === 'string') yield [at, v];
  else if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield* strings(v[i], `${at}[${i}]`);
  else if (v !== null && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) yield* strings(x, at ? `${at}.${k}` : k);
}

/** PI-shaped substrings of a text (bank numbers only when they pass Luhn). */
function piLike(s) {
  const out = [];
  for (const [cat, re] of Object.entries(PI_PATTERNS))
    for (const m of s.matchAll(re)) if (cat !== 'BANK' || luhnOk(m[0])) out.push(`${cat} ${m[0]}`);
  return out;
}

/**
 * Checks the folder against its manifest: each entry's value sits once in its file, on its line and at its JSON path
 * (of the user's object, or of the predictions line); planted texts are well-formed; and no string in the sample looks
 * like PI unless it is a planted value or a near miss. Returns the problems.
 */
export function verifyPi(out) {
  const errors = [];
  const file = path.join(out, MANIFEST);
  if (!fs.existsSync(file)) return [`no ${MANIFEST}`];
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
  const entries = [...manifest.planted, ...manifest.placeholders, ...manifest.nearMisses];
  for (const e of entries) {
    const at = `${MANIFEST}: ${e.value} (${e.file}:${e.line} ${e.field})`;
    if (!fs.existsSync(path.join(out, e.file))) {
      errors.push(`${at}: no such file`);
      continue;
    }
    const text = fs.readFileSync(path.join(out, e.file), 'utf8');
    const lines = text.split('\n');
    if (occurrences(text, encoded(e.value)) !== 1)
      errors.push(`${at}: occurs ${occurrences(text, encoded(e.value))} times in the file`);
    if (!(lines[e.line - 1] ?? '').includes(encoded(e.value))) errors.push(`${at}: not on line ${e.line}`);
    const root = e.file.startsWith('raw/') ? JSON.parse(text)[e.userId] : JSON.parse(lines[e.line - 1] ?? 'null');
    if (resolve(root, e.field) !== e.value)
      errors.push(`${at}: the value at ${e.field} is ${JSON.stringify(resolve(root, e.field))}`);
    if (!e.file.startsWith('raw/') && (root?.user_id !== e.userId || root?.index !== e.testAction))
      errors.push(`${at}: not the prediction for ${e.userId}#${e.testAction}`);
  }
  for (const e of manifest.planted) {
    const whole = new RegExp(`^(?:${PI_PATTERNS[e.category]?.source ?? '$^'})$`);
    if (!e.value.includes(e.text) || !whole.test(e.text))
      errors.push(`${MANIFEST}: ${e.category} ${e.text} is not a ${e.category} in ${e.value}`);
    if (e.category === 'ID' && !idChecksumOk(e.text)) errors.push(`${MANIFEST}: ID ${e.text} has a wrong checksum`);
    if (e.category === 'BANK' && !luhnOk(e.text)) errors.push(`${MANIFEST}: bank card ${e.text} fails Luhn`);
  }
  for (const e of manifest.placeholders)
    if (!e.value.includes(`<${e.category}>`)) errors.push(`${MANIFEST}: placeholder <${e.category}> not in ${e.value}`);
  for (const e of manifest.nearMisses)
    if (!piLike(e.value).some((x) => x.startsWith(`${e.looksLike} `)))
      errors.push(`${MANIFEST}: near miss ${e.value} does not look like ${e.looksLike}`);
  // Nothing else looks like PI.
  const allowed = new Set([...manifest.planted, ...manifest.nearMisses].map((e) => `${e.file}\u0000${e.value}`));
  const scan = (rel, value) => {
    for (const [at, s] of strings(value)) {
      const hits = piLike(s);
      if (hits.length && !allowed.has(`${rel}\u0000${s}`))
        errors.push(`${rel} ${at}: unplanted PI-like ${hits.join(', ')}`);
    }
  };
  fs.readFileSync(path.join(out, 'test_actions.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .forEach((l) => scan('test_actions.jsonl', JSON.parse(l)));
  for (const name of fs.readdirSync(path.join(out, 'raw')).sort())
    scan(`raw/${name}`, JSON.parse(fs.readFileSync(path.join(out, 'raw', name), 'utf8')));
  for (const run of fs.readdirSync(path.join(out, 'results')).sort()) {
    const rel = `results/${run}/predictions.jsonl`;
    fs.readFileSync(path.join(out, rel), 'utf8')
      .split('\n')
      .forEach((l) => {
        let rec;
        try {
          rec = JSON.parse(l);
        } catch {
          return; // the line the sample cuts short, and the end
        }
        scan(rel, rec);
      });
  }
  return errors;
}
