// Context-free card numbers (issuer prefix + length + Luhn) and IMEIs (plausible TAC + Luhn), and the near misses that
// must stay quiet at medium and high confidence.
import { describe, expect, it } from 'vitest';
import { cardIssuer, luhnValid, plausibleImei } from '../../src/core/pi/checks';
import { scanText } from '../../src/core/pi/scanner';

const NOW = new Date('2025-06-01T00:00:00Z');
const scan = (text: string) => scanText(text, { now: NOW }).map((f) => [f.category, f.confidence, f.text]);

/** `body` with its Luhn check digit appended (checked, not assumed). */
function withLuhn(body: string): string {
  for (let c = 0; c < 10; c++) if (luhnValid(body + c)) return body + c;
  throw new Error(body);
}
/** The same number with its check digit off by one: Luhn fails. */
const broken = (n: string) => n.slice(0, -1) + ((Number(n.at(-1)) + 1) % 10);

// Published test numbers of each scheme, plus numbers completed here; every one is checked below.
const CARDS: [string, string][] = [
  ['UnionPay', '6250941006528599'],
  ['UnionPay', '6212345678901265'],
  ['UnionPay', withLuhn('621226123456789012')], // 19 digits
  ['UnionPay', withLuhn('6228480012345678')], // 17 digits
  ['Visa', '4111111111111111'],
  ['Visa', '4012888888881881'],
  ['Mastercard', '5555555555554444'],
  ['Mastercard', '5105105105105100'],
  ['Mastercard', '2223003122003222'],
  ['Mastercard', withLuhn('272099000000000')],
  ['American Express', '378282246310005'],
  ['American Express', '371449635398431'],
  ['American Express', '340000000000009'],
  ['JCB', '3530111333300000'],
  ['JCB', '3566002020360505'],
  ['JCB', withLuhn('358912345678901234')], // 19 digits
];

describe('card issuers and TACs', () => {
  it('names the scheme from prefix and length, nothing for a prefix at the wrong length', () => {
    for (const [issuer, n] of CARDS) {
      expect(luhnValid(n), n).toBe(true);
      expect(cardIssuer(n), n).toBe(issuer);
    }
    expect(cardIssuer('411111111111111')).toBe(''); // Visa is 16 here
    expect(cardIssuer('4111111111111111111')).toBe('');
    expect(cardIssuer('3782822463100053')).toBe(''); // Amex is 15
    expect(cardIssuer('5555555555555555556')).toBe(''); // Mastercard is 16
    expect(cardIssuer('2220990000000001')).toBe(''); // 2220 is below the 2-series range
    expect(cardIssuer('2721000000000000')).toBe(''); // 2721 is above it
    expect(cardIssuer('3527000000000000')).toBe(''); // JCB starts at 3528
    expect(cardIssuer('6013821234567890')).toBe(''); // Discover / other 60: not context-free
  });

  it('takes a TAC from reporting bodies 01, 35, 86, 99 with a Luhn check digit', () => {
    for (const n of ['352099001761481', '864727031234563', '013263000767151', '990008624830423'])
      expect(plausibleImei(n), n).toBe(true);
    expect(plausibleImei('490154203237518')).toBe(false); // Luhn valid, RBI 49
    expect(plausibleImei('352099001761484')).toBe(false); // Luhn fails
    expect(plausibleImei(withLuhn('35000000123456'))).toBe(false); // TAC 35000000
    expect(plausibleImei('8620990017614810')).toBe(false); // 16 digits
  });
});

describe('card numbers without a banking word', () => {
  it.each(CARDS)('%s %s alone is a medium BANK finding', (_issuer, n) => {
    expect(scan(`他发来 ${n} 让我记下`)).toEqual([['BANK', 'medium', n]]);
    expect(scan(n)).toEqual([['BANK', 'medium', n]]);
  });

  it('reads the printed layouts: groups of four, dashes, Amex 4-6-5, UnionPay 19 as 4-4-4-4-3', () => {
    for (const n of [
      '4111 1111 1111 1111',
      '5555-5555-5555-4444',
      '3782 822463 10005',
      '6222 0202 0012 3456 788',
      '3566 0020 2036 0505',
    ]) {
      expect(scan(`这张 ${n} 还能用吗`)).toEqual([['BANK', 'medium', n]]);
    }
  });

  it('is high next to a banking word, as before', () => {
    expect(scan('卡号 4111111111111111')).toEqual([['BANK', 'high', '4111111111111111']]);
    expect(scan('Amex 卡号 378282246310005')).toEqual([['BANK', 'high', '378282246310005']]);
    expect(scan('JCB card 3530111333300000 已冻结')).toEqual([['BANK', 'high', '3530111333300000']]);
    expect(scan('Mastercard 2223003122003222')).toEqual([['BANK', 'high', '2223003122003222']]);
    expect(scan('银行卡 622588123456784 挂失了')).toEqual([['BANK', 'high', '622588123456784']]); // 15-digit, context only
  });

  it('keeps other card-like prefixes printed in groups at low, and a wrong length or Luhn failure quiet', () => {
    expect(scan('我的卡 6013 8212 3456 7890 的余额')).toEqual([['BANK', 'low', '6013 8212 3456 7890']]);
    expect(scan(`随手写的 ${broken('4111111111111111')}`)).toEqual([]);
    expect(scan(`这串 ${withLuhn('378282246310005')} 没用了`)).toEqual([]); // 37… at 16 digits
    expect(scan(`数据 ${withLuhn('4000123456789012')} 条`)).toEqual([]); // 4… at 17 digits
    expect(scan(`${withLuhn('555555555555555555')} 行`)).toEqual([]); // 5x at 19 digits
  });
});

describe('near misses that stay quiet', () => {
  const visa = '4111111111111111';
  const up19 = '6222020200123456788';
  it.each([
    `订单号 ${visa} 已发货`,
    `单号：5555555555554444`,
    `流水号 ${up19}，请留存`,
    `交易号${visa}`,
    `支付宝交易单号 6250941006528599`,
    `订单编号为：5105105105105100`,
    `${visa} 是订单号`,
    `order #${visa} shipped`,
    `tracking ${visa}`,
    `快递 5555555555554444 到了`,
    `运单号 6212345678901265`,
    `{"mid": "${visa}", "text": "转发微博"}`,
    `"user_id": 5105105105105100`,
    `https://weibo.com/1234567890/${visa}`,
    `uid=${visa}&from=share`,
    `build ${visa} 已上线`,
    `设备号 ${visa}`,
    `总价 ${visa} 元`,
    `报价 ¥${visa}`,
    '时间戳 1717171717171 毫秒',
    'created_at: 1717171717',
    '20240105123045 生成的报表',
    '日志 20240105123045123 写入',
    '1717171717171717 微秒',
  ])('%s', (text) => {
    expect(scan(text)).toEqual([]);
  });

  it('leaves resident IDs to the ID detector, even a Gansu (62) ID whose digits pass Luhn', () => {
    const gansu = '620102199003071109';
    expect(luhnValid(gansu)).toBe(true);
    expect(scan(`${gansu} 这个号帮我看看`)).toEqual([['ID', 'high', gansu]]);
    expect(scan(`身份证 ${gansu}`)).toEqual([['ID', 'high', gansu]]);
    expect(scan(`卡号 ${gansu}`)).toEqual([['BANK', 'high', gansu]]); // a banking word nearer still wins, as before
    const typo = '620102199003075001'; // region and birth date fit, check character does not, Luhn does
    expect(luhnValid(typo)).toBe(true);
    expect(scan(`写错的一串 ${typo}`)).toEqual([]);
    const old = withLuhn('34010285031510'); // the old 15-digit form from Anhui (34), a real date
    expect(scan(`旧档案里的 ${old}`)).toEqual([]);
  });

  it('leaves phone numbers, QQ numbers and tracking numbers alone', () => {
    expect(scan('电话13800138000')).toEqual([['PHONE', 'high', '13800138000']]);
    expect(scan('+86 13912345678')).toEqual([['PHONE', 'high', '+86 13912345678']]);
    expect(scan('QQ 4111111111 找我')).toEqual([['CONTACT', 'high', '4111111111']]);
    expect(scan('快递单号 75312345678901 到哪了')).toEqual([]);
  });

  it('reports a random 16-digit number labelled 订单号 at no confidence; unlabelled, about 1 in 45 reads as a card', () => {
    let seed = 13;
    const digit = () => Math.floor(((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 10);
    let medium = 0;
    const N = 4000;
    for (let k = 0; k < N; k++) {
      let n = String(1 + (digit() % 9));
      while (n.length < 16) n += digit();
      expect(scanText(`订单号 ${n}`, { now: NOW })).toEqual([]);
      expect(scanText(`${n} 是订单号`, { now: NOW })).toEqual([]);
      if (scanText(`结果 ${n}`, { now: NOW, minConfidence: 'medium' }).length) medium++;
    }
    // Prefixes 4, 51-55, 2221-2720, 3528-3589, 62 cover about 22 % of leading digits; Luhn passes one in ten.
    expect(medium / N).toBeGreaterThan(0.012);
    expect(medium / N).toBeLessThan(0.035);
  });
});

describe('IMEIs', () => {
  it('reports a Luhn-valid 15-digit number with a plausible TAC at low confidence without a device word', () => {
    for (const n of ['356938035643809', '864727031234563', '013263000767151', '990008624830423']) {
      expect(scan(`旧手机 ${n} 卖了`)).toEqual([['DEVICE', 'low', n]]);
      expect(scanText(n, { minConfidence: 'medium' })).toEqual([]);
    }
    expect(scan('保修卡上写 35391110-932569-7')).toEqual([['DEVICE', 'low', '35391110-932569-7']]);
  });

  it('keeps the confidence it had with a device word or the AA-BBBBBB-CCCCCC-D layout', () => {
    expect(scan('IMEI号 864727031234563')).toEqual([['DEVICE', 'high', '864727031234563']]);
    expect(scan('串号：352099001761481，帮查激活时间')).toEqual([['DEVICE', 'high', '352099001761481']]);
    expect(scan('手机IMEI：490154203237518')).toEqual([['DEVICE', 'high', '490154203237518']]); // any TAC with the word
    expect(scan('35-209900-176148-1')).toEqual([['DEVICE', 'medium', '35-209900-176148-1']]);
  });

  it('reports a Luhn-valid 15-digit number standing alone (a bio of just the IMEI) at low, whatever its TAC', () => {
    // 490154203237518: RBI 49 (Germany) is real but not among the common four, so only standing alone says IMEI
    for (const text of ['490154203237518', ' 490154203237518\n', '490154203237518。', '(490154203237518)'])
      expect(scan(text), text).toEqual([['DEVICE', 'low', '490154203237518']]);
    expect(scanText('490154203237518', { minConfidence: 'medium' })).toEqual([]);
    expect(scan('490154203237519')).toEqual([]); // Luhn fails
    expect(scan('378282246310005')).toEqual([['BANK', 'medium', '378282246310005']]); // Amex stays a card
  });

  // Reporting-body identifiers GSMA has allocated TACs under (TS.06), each with seeded serial numbers, and the public
  // example IMEIs; some also read as an old 15-digit resident ID (a region code and a birth date), which without an ID
  // word nothing confirms: a bio of just such a number is still reported, as a device at low.
  const RBIS = ['01', '10', '30', '33', '35', '44', '45', '49', '50', '51', '52', '53', '54', '86', '91', '98', '99'];
  const PUBLIC_IMEIS = ['490154203237518', '356938035643809', '352099001761481', '013263000767151', '990008624830423'];
  function generatedImeis(): string[] {
    let seed = 43;
    const digit = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) >>> 16) % 10;
    const out: string[] = [];
    for (const rbi of RBIS) {
      for (let k = 0; k < 12; k++) out.push(withLuhn(rbi + Array.from({ length: 12 }, digit).join('')));
    }
    // old-ID readings: region 520101 (Guiyang) or 340102 (Hefei), a birth date, a sequence number
    out.push(withLuhn('52010119900101'), withLuhn('34010285031510'), withLuhn('35020319770707'));
    return out;
  }

  it('reports every Luhn-valid 15-digit number that is a whole bio as a device, low at least', () => {
    const imeis = [...PUBLIC_IMEIS, ...generatedImeis()].filter((n) => !/^3[47]/.test(n)); // 34/37: American Express
    expect(imeis.length).toBeGreaterThan(150);
    for (const n of imeis) {
      expect(luhnValid(n), n).toBe(true);
      for (const bio of [n, ` ${n}\n`, `${n}。`]) {
        const found = scanText(bio, { now: NOW }).filter((f) => f.category === 'DEVICE');
        expect(
          found.map((f) => f.text),
          bio,
        ).toEqual([n]);
      }
      const bad = broken(n);
      expect(luhnValid(bad)).toBe(false);
      expect(
        scanText(bad, { now: NOW }).filter((f) => f.category === 'DEVICE'),
        bad,
      ).toEqual([]);
    }
  });

  it('says an old-ID reading of a number alone is possible, and keeps it ID with an ID word', () => {
    const n = withLuhn('34010285031510'); // reads as an old resident ID (Anhui, 1985-03-15)
    const [f] = scanText(n, { now: NOW });
    expect([f.category, f.confidence]).toEqual(['DEVICE', 'low']);
    expect(f.reason).toMatch(/old 15-digit resident ID/);
    expect(scan(`身份证 ${n.slice(0, 6)} ${n.slice(6, 12)} ${n.slice(12)}`)).toEqual([
      ['ID', 'medium', `${n.slice(0, 6)} ${n.slice(6, 12)} ${n.slice(12)}`],
    ]);
  });

  it('stays quiet on other TACs, Luhn failures, order numbers and bank contexts', () => {
    expect(scan('编码 490154203237518')).toEqual([]); // RBI 49
    expect(scan('另一个 352099001761484')).toEqual([]);
    expect(scan('订单号 864727031234563')).toEqual([]);
    expect(scan('银行卡 864727031234563')).toEqual([['BANK', 'high', '864727031234563']]);
  });
});
