// Pattern detectors for the categories that have a shape of their own: e-mail, WeChat / QQ handles, licence plates,
// passports and permits, international and bracketed phone numbers.
import { hkidValid } from './checks';
import { PHONE_WORDS, PLATE_WORDS, distanceBefore } from './context';
import { collect, emitGroup, emitMatch, nearMatch, type Emit } from './emit';
import type { Candidate } from './types';

const EMAIL_RE =
  /(?<![A-Za-z0-9._%+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![A-Za-z0-9-])/g;
// Retina images (logo@2x.png) and other file names look like addresses.
const FILE_TLDS = new Set([
  'png',
  'jpg',
  'jpeg',
  'gif',
  'svg',
  'webp',
  'bmp',
  'ico',
  'js',
  'ts',
  'css',
  'mp4',
  'mp3',
  'pdf',
]);
const OBFUSCATED_EMAIL_RE =
  /(?<![A-Za-z0-9._%+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63} ?(?:\[at\]|\(at\)|\{at\}|\[@\]|\(@\)|#) ?(?:[A-Za-z0-9-]+(?:\.| ?\[dot\] ?| ?\(dot\) ?))+(?:com|cn|net|org|edu|io|me|hk|tw)(?![A-Za-z0-9])/gi;

function emails(text: string, emit: Emit): void {
  for (const m of text.matchAll(EMAIL_RE)) {
    const tld = m[0].slice(m[0].lastIndexOf('.') + 1).toLowerCase();
    if (FILE_TLDS.has(tld)) continue;
    emitMatch(emit, 'EMAIL', 'high', m, 'e-mail address');
  }
  for (const m of text.matchAll(OBFUSCATED_EMAIL_RE)) {
    emitMatch(emit, 'EMAIL', 'medium', m, 'e-mail address written with [at] / # for @');
  }
}

// Matched on the lower-cased text. The handle is the captured group: the trigger word stays, as in "微信：<CONTACT>".
const QQ_RE = /(?<![a-z0-9])(?:qq|扣扣|企鹅号?|q号)(?:号码|号)? ?(?:[:=]|是|为)? ?([1-9]\d{4,10})(?![0-9a-z])/g;
const WX_RE =
  /(?<![a-z0-9])(?:微信|薇信|徽信|v信|威信|wei信|v❤|vx❤|薇❤|微❤|vx|wx|weixin|wechat|加v|\+v)(?:号|id)? ?(?:[:=]|是|为|搜)? ?([a-z][-_a-z0-9]{5,19})(?![-_a-z0-9])/g;
const WXID_RE = /(?<![a-z0-9_])wxid_[a-z0-9]{6,20}(?![a-z0-9_])/g;
const NOT_HANDLES = new Set(['wechat', 'weixin', 'official', 'account', 'public', 'number']);

function contacts(lower: string, emit: Emit): void {
  for (const m of lower.matchAll(QQ_RE)) emitGroup(emit, 'CONTACT', 'high', m, 'QQ number after a QQ trigger word');
  for (const m of lower.matchAll(WX_RE)) {
    if (NOT_HANDLES.has(m[1])) continue;
    emitGroup(emit, 'CONTACT', 'high', m, 'WeChat handle after a WeChat trigger word');
  }
  for (const m of lower.matchAll(WXID_RE)) emitMatch(emit, 'CONTACT', 'high', m, 'WeChat internal id (wxid_…)');
}

const PROVINCES = '京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼';
const PLATE_RE = new RegExp(
  `[${PROVINCES}][A-HJ-NP-Z][·•・. -]?[A-HJ-NP-Z0-9]{4,6}[挂学警港澳领试超]?(?![A-Za-z0-9])`,
  'g',
);
const NEW_ENERGY = /^(?:[DABCEFGHJK][A-HJ-NP-Z0-9]\d{4}|\d{5}[DABCEFGHJK])$/;

function plateBodyOk(body: string): boolean {
  if (NEW_ENERGY.test(body)) return true;
  const digits = (s: string) => s.replace(/\D/g, '').length;
  if (/[挂学警港澳领试超]$/.test(body)) return body.length === 5 && digits(body) >= 2;
  return body.length === 5 && digits(body) >= 3;
}

function plates(text: string, lower: string, emit: Emit): void {
  for (const m of text.matchAll(PLATE_RE)) {
    const body = m[0].slice(2).replace(/^[·•・. -]/, '');
    if (!plateBodyOk(body)) continue;
    const confidence = nearMatch(lower, m, PLATE_WORDS, 10, 6) ? 'high' : 'medium';
    emitMatch(emit, 'PLATE', confidence, m, NEW_ENERGY.test(body) ? 'new-energy licence plate' : 'licence plate');
  }
}

const PASSPORT_RE = /(?<![A-Za-z0-9])(?:[EG]\d{8}|E[A-HJ-NP-Z]\d{7})(?![A-Za-z0-9])/g;
const PERMIT_RE = /(?<![A-Za-z0-9])(?:[CW]\d{8}|C[A-HJ-NP-Z]\d{7}|[HM]\d{8}|[HM]\d{10})(?![A-Za-z0-9])/g;
const TW_PERMIT_RE = /(?<![A-Za-z0-9])\d{8}(?:\d{2})?(?![A-Za-z0-9])/g;
const HKID_RE = /(?<![A-Za-z0-9])([A-Z]{1,2})(\d{6}) ?(?:\(([0-9A])\)|([0-9A]))(?![A-Za-z0-9])/g;
const PASSPORT_WORDS = ['护照', 'passport', '证件'];
const PERMIT_WORDS = ['通行证', '港澳', '回乡证', '证件', '台湾居民', 'permit'];
const TW_WORDS = ['台胞证', '台湾居民来往大陆通行证'];
const HKID_WORDS = ['身份证', 'hkid', '香港', 'id card', '证件'];

function documents(text: string, lower: string, emit: Emit): void {
  for (const m of text.matchAll(PASSPORT_RE)) {
    if (nearMatch(lower, m, PASSPORT_WORDS, 12, 4))
      emitMatch(emit, 'ID', 'high', m, 'passport number next to a passport word');
  }
  for (const m of text.matchAll(PERMIT_RE)) {
    if (nearMatch(lower, m, PERMIT_WORDS, 14, 4))
      emitMatch(emit, 'ID', 'high', m, 'travel permit number next to a permit word');
  }
  for (const m of text.matchAll(TW_PERMIT_RE)) {
    if (distanceBefore(lower, m.index, TW_WORDS, 10) < Infinity)
      emitMatch(emit, 'ID', 'high', m, 'Taiwan compatriot permit number');
  }
  for (const m of text.matchAll(HKID_RE)) {
    const bracketed = m[3] !== undefined;
    if (!hkidValid(m[1], m[2], m[3] ?? m[4])) continue;
    const near = nearMatch(lower, m, HKID_WORDS, 12, 4);
    if (!bracketed && !near) continue;
    emitMatch(emit, 'ID', near ? 'high' : 'medium', m, 'Hong Kong identity card number, check digit valid');
  }
}

const INTL_RE = /(?<![\w+])\+ ?(\d{1,3})(?:[ -]?\(?\d{1,5}\)?){1,6}(?!\d)/g;
const BRACKET_LANDLINE_RE = /\((0\d{2,3})\) ?([2-9]\d{6,7})(?!\d)/g;

function phones(text: string, lower: string, emit: Emit): void {
  const phone = (m: RegExpExecArray, reason: string) =>
    emitMatch(emit, 'PHONE', nearMatch(lower, m, PHONE_WORDS, 12, 6) ? 'high' : 'medium', m, reason);
  for (const m of text.matchAll(INTL_RE)) {
    const digits = m[0].replace(/\D/g, '');
    const national = digits.slice(m[1].length);
    if (digits.length < 8 || digits.length > 15 || national.length < 6) continue;
    if (m[1] === '86' && /^1[3-9]\d{9}$/.test(national)) continue; // the numeric detector reports these
    phone(m, 'international number (+country code)');
  }
  for (const m of text.matchAll(BRACKET_LANDLINE_RE)) {
    const ok = m[1].length === 3 ? /^0(?:10|2\d)$/.test(m[1]) && m[2].length === 8 : /^0[3-9]\d\d$/.test(m[1]);
    if (ok) phone(m, 'landline number with (area code)');
  }
}

// Cheap tests that skip a detector on the many texts that cannot hold its pattern.
const MAY_EMAIL = /@|\[at\]|\(at\)|\{at\}|[A-Za-z0-9]#[A-Za-z0-9]/i;
const MAY_CONTACT = /qq|扣扣|企鹅|q号|微|薇|徽|v信|威信|wei信|v❤|vx|wx|weixin|wechat|加v|\+v/;
const MAY_PLATE = new RegExp(`[${PROVINCES}][A-HJ-NP-Z]`);
const MAY_DOCUMENT = /护照|passport|证件|通行证|港澳|回乡证|台湾居民|permit|台胞证|[A-Z]\d{6}/;
const MAY_PHONE = /\+ ?\d|\(0\d/;

export function patternCandidates(text: string, lower: string): Candidate[] {
  return collect((emit) => {
    if (MAY_EMAIL.test(text)) emails(text, emit);
    if (MAY_CONTACT.test(lower)) contacts(lower, emit);
    if (MAY_PLATE.test(text)) plates(text, lower, emit);
    if (MAY_DOCUMENT.test(lower) || MAY_DOCUMENT.test(text)) documents(text, lower, emit);
    if (MAY_PHONE.test(text)) phones(text, lower, emit);
  });
}
