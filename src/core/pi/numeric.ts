// Long digit strings: phones, resident IDs, bank cards, IMEIs. A number may be written in groups ("138 0013 8000",
// "6222-0202-…") or digit by digit; groups are joined only when the grouping is one people use for that kind of number.
import { cardIssuer, checkResidentId, luhnValid, plausibleImei, plausibleNewId, plausibleOldId } from './checks';
import {
  BANK_WORDS,
  DEVICE_WORDS,
  ID_WORDS,
  ORDER_WORDS,
  PHONE_WORDS,
  VERSION_WORDS,
  distanceBefore,
  distanceTo,
  looksLikePrice,
} from './context';
import type { Candidate, Confidence } from './types';

interface Group {
  s: number;
  e: number;
  d: string;
}

const GROUP_RE = /\d+(?:[Xx](?![A-Za-z0-9]))?/g;
const MAX_DIGITS = 19;

/** Maximal runs of digit groups joined by exactly one space or dash. */
function digitRuns(text: string): Group[][] {
  const runs: Group[][] = [];
  let run: Group[] = [];
  for (const m of text.matchAll(GROUP_RE)) {
    const g = { s: m.index, e: m.index + m[0].length, d: m[0].toUpperCase() };
    const prev = run[run.length - 1];
    const joined =
      prev && !prev.d.endsWith('X') && g.s - prev.e === 1 && (text[prev.e] === ' ' || text[prev.e] === '-');
    if (!joined && run.length) {
      runs.push(run);
      run = [];
    }
    run.push(g);
  }
  if (run.length) runs.push(run);
  return runs;
}

/** Not glued to an identifier (`we_16d8…`, `0x…`, `a1b2…`) and not part of a decimal. */
function leftClear(text: string, s: number): boolean {
  const c = text[s - 1];
  if (c === undefined) return true;
  if (c === '.' && /\d/.test(text[s - 2] ?? '')) return false;
  if (/[A-Za-z_]/.test(c)) return !/[0-9_]/.test(/[A-Za-z0-9_]*$/.exec(text.slice(Math.max(0, s - 40), s))?.[0] ?? '');
  return true;
}

function rightClear(text: string, e: number): boolean {
  const c = text[e];
  if (c === undefined) return true;
  if (c === '.' && /\d/.test(text[e + 1] ?? '')) return false;
  if (/[A-Za-z_]/.test(c)) return !/[0-9_]/.test(/^[A-Za-z0-9_]*/.exec(text.slice(e, e + 40))?.[0] ?? '');
  return true;
}

const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const oneOf = (shape: readonly number[], shapes: readonly (readonly number[])[]) =>
  shape.length === 1 || shape.every((n) => n === 1) || shapes.some((s) => same(shape, s));

/** Groups of four with a shorter last group (how cards are printed), or the Amex / UnionPay 19 layouts. */
function cardGrouped(shape: readonly number[]): boolean {
  if (shape.length >= 3 && shape.slice(0, -1).every((n) => n === 4) && shape[shape.length - 1] <= 4) return true;
  return same(shape, [4, 6, 5]) || same(shape, [4, 6, 4]) || same(shape, [6, 13]);
}

const INTL_PREFIX = /(?:\+ ?86|\(\+?86\)|0086)[ -]?$/;
const AREA3 = /^0(?:10|2\d)$/;
const AREA4 = /^0[3-9]\d\d$/;

function landline(digits: string, shape: readonly number[]): boolean {
  if (shape.length === 1 || shape.every((n) => n === 1)) {
    return /^0(?:10|2\d)[2-9]\d{7}$/.test(digits) || /^0[3-9]\d\d[2-9]\d{6,7}$/.test(digits);
  }
  const [a, b, c] = shape;
  const area = digits.slice(0, a);
  const local = digits.slice(a);
  if (!/^[2-9]/.test(local)) return false;
  if (AREA3.test(area) && a === 3) return (shape.length === 2 && b === 8) || (shape.length === 3 && b === 4 && c === 4);
  if (AREA4.test(area) && a === 4) return shape.length === 2 ? b === 7 || b === 8 : (b === 4 || b === 3) && c === 4;
  return false;
}

const MOBILE = /^1[3-9]\d{9}$/;
const IIN = /^(?:62|4|5[1-5]|2[2-7]|3[47]|35|60|65)/;

// Labels that say a number is an order or a record, looked for further before the number than ORDER_WORDS and also
// right after it ("… 是订单号").
const ORDER_LABELS = ['订单', '单号', '流水号', '交易号', '编号', 'order', 'tracking'];
// Payment records that are not cards: transaction / voucher / merchant / terminal numbers.
const NOT_CARD_WORDS = [
  '交易单',
  '交易编号',
  '交易流水',
  '流水',
  '凭证号',
  '商户号',
  '终端号',
  '参考号',
  '授权码',
  'transaction id',
  'transaction no',
  'txn',
  'trade no',
  'ref no',
  'ref:',
  'reference',
];
// The value of an identifier key (`"mid": "4515…"`, `user_id=…`, `ID: …`) or a piece of a URL (`/status/4515…`, `?id=…`).
const ID_KEY =
  /(?:^|[^a-z0-9_])(?:id|[a-z0-9]*_id|[umpots]id|(?:user|post|item|order|msg|note|doc)id)["']?\s*[:=：]\s*["']?$/;
const URL_BEFORE = /(?:[/=?&#]|:\/\/\S*|www\.\S*)$/;

/**
 * Nothing near a card-shaped number says it is something else: no order, transaction, ID, device or version word, not
 * the value of an identifier key or part of a URL, and not readable as a resident ID (18 digits with a real region and
 * birth date, or the old 15-digit form: Gansu is region 62, Anhui 34, Shandong 37).
 */
function freeOfOtherMeaning(digits: string, lower: string, s: number, e: number, now: Date): boolean {
  const near = (words: readonly string[]) => distanceTo(lower, s, e, words, 16, 6) < Infinity;
  if (distanceBefore(lower, s, ORDER_WORDS, 10) < Infinity || distanceBefore(lower, s, VERSION_WORDS, 12) < Infinity)
    return false;
  if (near(ORDER_LABELS) || near(NOT_CARD_WORDS) || near(ID_WORDS) || near(DEVICE_WORDS)) return false;
  const before = lower.slice(Math.max(0, s - 40), s);
  if (ID_KEY.test(before) || URL_BEFORE.test(before)) return false;
  if (digits.length === 18 && plausibleNewId(digits, now)) return false;
  if (digits.length === 15 && plausibleOldId(digits)) return false;
  return true;
}

const ONLY_FRAME = /^[\s\p{P}]*$/u;

export function numericCandidates(text: string, lower: string, now: Date): Candidate[] {
  const out: Candidate[] = [];
  const emit = (category: Candidate['category'], confidence: Confidence, start: number, end: number, reason: string) =>
    out.push({ category, confidence, start, end, reason });

  for (const run of digitRuns(text)) {
    const last = run.length - 1;
    for (let i = 0; i < run.length; i++) {
      const s = run[i].s;
      if (!leftClear(text, s)) continue;
      let digits = '';
      const shape: number[] = [];
      for (let j = i; j < run.length; j++) {
        digits += run[j].d;
        shape.push(run[j].d.length);
        if (digits.length > MAX_DIGITS) break;
        if (digits.length < 10) continue;
        const e = run[j].e;
        if (!rightClear(text, e) || looksLikePrice(lower, s, e)) continue;
        classify(digits, shape, s, e, i === 0 && j === last);
        if (digits.endsWith('X')) break;
      }
    }
  }
  return out;

  /** `whole`: the span is the whole run of joined groups, not a piece of a longer number. */
  function classify(digits: string, shape: readonly number[], s: number, e: number, whole: boolean): void {
    const len = digits.length;
    const order = distanceBefore(lower, s, ORDER_WORDS, 10);
    const idCtx = distanceTo(lower, s, e, ID_WORDS, 16, 6);
    const bankCtx = distanceTo(lower, s, e, BANK_WORDS, 16, 8);

    if (
      len === 18 &&
      oneOf(shape, [
        [6, 8, 4],
        [6, 4, 4, 4],
      ])
    ) {
      const check = checkResidentId(digits, now);
      const cardInstead = bankCtx < idCtx && !digits.endsWith('X') && luhnValid(digits);
      if (check === 'valid' && !cardInstead)
        return void emit('ID', 'high', s, e, 'resident ID: region, birth date and checksum valid');
      if (check === 'bad-checksum' && distanceBefore(lower, s, ID_WORDS, 12) < Infinity && idCtx <= bankCtx) {
        return void emit('ID', 'low', s, e, 'resident ID shape next to an ID word, but the checksum fails');
      }
    }
    if (digits.endsWith('X')) return;

    if (
      len === 11 &&
      MOBILE.test(digits) &&
      oneOf(shape, [
        [3, 4, 4],
        [3, 8],
      ])
    ) {
      const prefix = INTL_PREFIX.exec(text.slice(Math.max(0, s - 8), s))?.[0] ?? '';
      const phoneCtx = distanceTo(lower, s, e, PHONE_WORDS, 12, 6);
      if (!prefix && order < phoneCtx) return;
      const start = s - prefix.length;
      const conf: Confidence = prefix || phoneCtx < Infinity ? 'high' : 'medium';
      return void emit('PHONE', conf, start, e, prefix ? 'mainland mobile number with +86' : 'mainland mobile number');
    }

    if (len >= 10 && len <= 12 && digits.startsWith('0') && landline(digits, shape)) {
      const phoneCtx = distanceTo(lower, s, e, PHONE_WORDS, 12, 6);
      if (order < phoneCtx) return;
      if (shape.length === 1 && phoneCtx === Infinity) return; // an unbroken 0… number is too often something else
      return void emit('PHONE', phoneCtx < Infinity ? 'high' : 'medium', s, e, 'landline number with area code');
    }

    const deviceCtx = distanceTo(lower, s, e, DEVICE_WORDS, 16, 6);
    if (
      len === 15 &&
      plausibleOldId(digits) &&
      idCtx < Infinity &&
      idCtx <= Math.min(bankCtx, deviceCtx) &&
      oneOf(shape, [[6, 6, 3]])
    ) {
      return void emit('ID', 'medium', s, e, '15-digit resident ID next to an ID word');
    }
    if (len === 15 && luhnValid(digits)) {
      if (
        deviceCtx < Infinity &&
        deviceCtx <= bankCtx &&
        oneOf(shape, [
          [2, 6, 6, 1],
          [8, 6, 1],
        ])
      ) {
        return void emit('DEVICE', 'high', s, e, 'IMEI (Luhn valid) next to a device word');
      }
      if (same(shape, [2, 6, 6, 1]))
        return void emit('DEVICE', 'medium', s, e, 'IMEI layout AA-BBBBBB-CCCCCC-D, Luhn valid');
    }

    const plain = shape.length === 1 || shape.every((n) => n === 1);
    if (len >= 12 && len <= 19 && luhnValid(digits) && (plain || cardGrouped(shape))) {
      if (bankCtx < Infinity && bankCtx <= order && bankCtx <= idCtx) {
        return void emit('BANK', 'high', s, e, 'card / account number (Luhn valid) next to a banking word');
      }
      // Issuer prefix + length + Luhn alone, as Presidio and Google DLP do. Medium, not high: one random number in ten
      // passes Luhn, so a 16-digit order number that starts with 4, 5x or 62 reads as a card one time in ten.
      const issuer = bankCtx === Infinity ? cardIssuer(digits) : '';
      if (issuer && whole && freeOfOtherMeaning(digits, lower, s, e, now)) {
        return void emit(
          'BANK',
          'medium',
          s,
          e,
          `${issuer} card number (issuer prefix, length and Luhn valid), no banking word`,
        );
      }
      if (order === Infinity && len >= 15 && cardGrouped(shape) && IIN.test(digits)) {
        return void emit(
          'BANK',
          'low',
          s,
          e,
          'printed like a card (groups of four, card prefix, Luhn valid), no banking word',
        );
      }
    }

    // An IMEI with no device word: Luhn valid and a plausible TAC (see plausibleImei), written whole or as TAC-SNR-CD.
    if (
      len === 15 &&
      whole &&
      (plain || same(shape, [8, 6, 1])) &&
      plausibleImei(digits) &&
      order === Infinity &&
      bankCtx === Infinity &&
      idCtx === Infinity
    ) {
      return void emit('DEVICE', 'low', s, e, 'IMEI (plausible TAC, Luhn valid), no device word');
    }
    // A Luhn-valid 15-digit number that is all the text holds (a bio of just the number): nothing says it is anything
    // else, so it is reported as an IMEI whatever its TAC, at low. One that also reads as an old 15-digit resident ID
    // (region code and birth date) is reported all the same, both readings named: left out, it was missed at every
    // confidence, and either reading is personal.
    if (len === 15 && plain && alone(s, e) && luhnValid(digits)) {
      const alsoId = plausibleOldId(digits) ? ' (or an old 15-digit resident ID: region code and birth date fit)' : '';
      return void emit(
        'DEVICE',
        'low',
        s,
        e,
        `a Luhn-valid 15-digit number alone in the text (an IMEI${alsoId}), no device word`,
      );
    }
  }

  /** Nothing but spaces and punctuation around [s, e) in the whole text. */
  function alone(s: number, e: number): boolean {
    return ONLY_FRAME.test(text.slice(0, s)) && ONLY_FRAME.test(text.slice(e));
  }
}
