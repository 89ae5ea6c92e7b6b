import { describe, expect, it } from 'vitest';
import {
  checkResidentId,
  hkidValid,
  isValidResidentId,
  luhnValid,
  parseIpv6,
  residentIdCheckChar,
} from '../../src/core/pi/checks';
import { maskText, scanPrompt, isLoopbackEndpoint } from '../../src/core/pi/mask';
import { normalize, toOriginal } from '../../src/core/pi/normalize';
import {
  countPlaceholders,
  findPlaceholders,
  hasPlaceholder,
  PI_CATEGORIES,
  placeholderOf,
} from '../../src/core/pi/placeholders';
import { scanText } from '../../src/core/pi/scanner';

const found = (text: string) => scanText(text).map((f) => [f.category, f.text]);
const cats = (text: string) => scanText(text).map((f) => f.category);

describe('checksums', () => {
  it('validates the resident ID check character (ISO 7064 MOD 11-2)', () => {
    expect(residentIdCheckChar('11010519880512213')).toBe('6');
    expect(isValidResidentId('110105198805122136')).toBe(true);
    expect(isValidResidentId('110105198805122135')).toBe(false);
    expect(checkResidentId('110105198805122135')).toBe('bad-checksum');
    expect(checkResidentId('33010619920611091X')).toBe('valid');
    expect(checkResidentId('33010619920611091x')).toBe('valid');
  });

  it('rejects impossible birth dates, regions and shapes even when the checksum fits', () => {
    const withCheck = (s17: string) => s17 + residentIdCheckChar(s17);
    expect(checkResidentId(withCheck('11010519881312213'))).toBe('bad-date'); // month 13
    expect(checkResidentId(withCheck('51010720010229151'))).toBe('bad-date'); // 2001-02-29
    expect(checkResidentId(withCheck('11010530010101213'))).toBe('bad-date'); // year 3001: in the future
    expect(checkResidentId(withCheck('99010519880512213'))).toBe('bad-region');
    expect(checkResidentId('1101051988051221')).toBe('bad-format');
    expect(checkResidentId(withCheck('11010520000229151'))).toBe('valid'); // 2000 is a leap year
  });

  it('computes Luhn', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('6222020200123456788')).toBe(true);
    expect(luhnValid('490154203237518')).toBe(true);
    expect(luhnValid('12a4')).toBe(false);
    expect(luhnValid('')).toBe(false);
  });

  it('checks HKID and parses IPv6', () => {
    expect(hkidValid('A', '123456', '3')).toBe(true);
    expect(hkidValid('A', '123456', '7')).toBe(false);
    expect(hkidValid('Z', '683365', 'A')).toBe(true);
    expect(parseIpv6('2001:db8::1')).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6('::ffff:192.0.2.1')?.slice(5)).toEqual([0xffff, 0xc000, 0x0201]);
    expect(parseIpv6('12:30:45')).toBeNull();
    expect(parseIpv6('1::2::3')).toBeNull();
  });
});

describe('scanner: hits per category', () => {
  it.each([
    ['有意的直接打我电话13800138000。', 'PHONE', '13800138000'],
    ['店里电话0755-86013388，欢迎来电', 'PHONE', '0755-86013388'],
    ['深圳 0755 8601 3388 总机', 'PHONE', '0755 8601 3388'],
    ['美国客服 +1 415-555-0132 有时差', 'PHONE', '+1 415-555-0132'],
    ['身份证号110105198805122136录错了', 'ID', '110105198805122136'],
    ['护照号 E12345678，下周出发', 'ID', 'E12345678'],
    ['银行卡号 6222 0202 0012 3456 788，谢谢', 'BANK', '6222 0202 0012 3456 788'],
    ['约稿请发邮件 huamao.studio@example.com', 'EMAIL', 'huamao.studio@example.com'],
    ['加我微信：abc_12345', 'CONTACT', 'abc_12345'],
    ['扣扣 987654321 找我', 'CONTACT', '987654321'],
    ['新车牌沪AD12345，绿牌', 'PLATE', '沪AD12345'],
    ['京A·3M7Q2的车主能不能挪一下', 'PLATE', '京A·3M7Q2'],
    ['服务器地址203.0.113.57，默认端口', 'IP', '203.0.113.57'],
    ['IPv6 地址 2001:db8:85a3::8a2e:370:7334', 'IP', '2001:db8:85a3::8a2e:370:7334'],
    ['31.2304°N, 121.4737°E 是外滩附近', 'GEO', '31.2304°N, 121.4737°E'],
    ['路由器里看到 MAC 00:1A:2B:3C:4D:5E 的设备', 'DEVICE', '00:1A:2B:3C:4D:5E'],
    ['手机IMEI：490154203237518', 'DEVICE', '490154203237518'],
    ['大家好，我叫张伟，今年25岁', 'SELF', '张伟'],
  ])('%s', (text, category, value) => {
    expect(found(text)).toEqual([[category, value]]);
  });

  it('marks SELF as low confidence and a checksum-valid ID as high', () => {
    expect(scanText('我叫张伟，今年25岁')[0].confidence).toBe('low');
    expect(scanText('110105198805122136')[0]).toMatchObject({ category: 'ID', confidence: 'high' });
  });

  it('reports only checksum-valid IDs without an ID word, and a failing one next to 身份证 as low', () => {
    expect(found('随便一串 110105198805122135 的数字')).toEqual([]);
    expect(scanText('身份证号110105198805122135')).toMatchObject([{ category: 'ID', confidence: 'low' }]);
  });

  it('reports a Luhn-valid card with an issuer prefix at medium alone, high next to a banking word', () => {
    expect(found('随便的数字 6228480012345674 没有上下文')).toEqual([]); // Luhn fails
    expect(scanText('随便的数字 6228480012345671 没有上下文')).toMatchObject([
      { category: 'BANK', confidence: 'medium' },
    ]);
    expect(scanText('4111 1111 1111 1111')).toMatchObject([{ category: 'BANK', confidence: 'medium' }]);
    expect(scanText('6013 8212 3456 7890')).toMatchObject([{ category: 'BANK', confidence: 'low' }]); // 60: grouped only
    expect(scanText('卡号 4111111111111111')).toMatchObject([{ category: 'BANK', confidence: 'high' }]);
    expect(found('卡号 4111111111111112')).toEqual([]); // Luhn fails
    expect(found('订单号 6228480012345671')).toEqual([]);
  });
});

describe('scanner: normalisation', () => {
  it('reads full-width digits and letters, with spans in the original text', () => {
    const text = '我的号码１３５１２３４５６７８，别外传';
    const [f] = scanText(text);
    expect(f).toMatchObject({ category: 'PHONE', text: '１３５１２３４５６７８' });
    expect(text.slice(f.start, f.end)).toBe('１３５１２３４５６７８');
    expect(found('邮箱：ｌｉｓｉ＠ｅｘａｍｐｌｅ．ｃｏｍ')).toEqual([['EMAIL', 'ｌｉｓｉ＠ｅｘａｍｐｌｅ．ｃｏｍ']]);
  });

  it('joins spaced and dashed numbers only in the groupings people use', () => {
    expect(found('找我 138 0013 8000')).toEqual([['PHONE', '138 0013 8000']]);
    expect(found('手机 186-2345-6789')).toEqual([['PHONE', '186-2345-6789']]);
    expect(found('打这个：１３８　００１３　８０００')).toEqual([['PHONE', '１３８　００１３　８０００']]);
    expect(found('1 3 8 0 0 1 3 8 0 0 0 是手机号')).toEqual([['PHONE', '1 3 8 0 0 1 3 8 0 0 0']]);
    expect(found('1380 0138 000 不是常见分组')).toEqual([]);
    expect(found('两个号：13800138000 13900139000')).toEqual([
      ['PHONE', '13800138000'],
      ['PHONE', '13900139000'],
    ]);
  });

  it('maps spans across removed zero-width characters', () => {
    const text = 'a\u200b手机号码是1358\u200b8886666，防爬';
    const [f] = scanText(text);
    expect(f.text).toBe('1358\u200b8886666');
    expect(text.slice(f.start, f.end)).toBe(f.text);
    const n = normalize(text);
    expect(n.text.length).toBe(text.length - 2);
    expect(toOriginal(n, 0, n.text.length)).toEqual({ start: 0, end: text.length });
  });
});

describe('scanner: placeholders', () => {
  const all = PI_CATEGORIES.map(placeholderOf).join(' ');

  it('never reports a placeholder or anything inside one', () => {
    expect(scanText(all)).toEqual([]);
    expect(scanText('电话：<PHONE>，邮箱：<EMAIL>，微信：<CONTACT>，车牌<PLATE>，我叫<SELF>，')).toEqual([]);
    expect(scanText('<PHONE><PHONE><ID><IP>')).toEqual([]);
  });

  it('still finds a value right next to a placeholder', () => {
    expect(found('<PHONE>13800138000')).toEqual([['PHONE', '13800138000']]);
    expect(found('微信：<CONTACT>，QQ：55667788')).toEqual([['CONTACT', '55667788']]);
  });

  it('locates and counts placeholders', () => {
    expect(findPlaceholders('a<PHONE>b<SELF>')).toEqual([
      { category: 'PHONE', start: 1, end: 8 },
      { category: 'SELF', start: 9, end: 15 },
    ]);
    expect(hasPlaceholder('x<IP>y')).toBe(true);
    expect(hasPlaceholder('<ip> <PHONE_1>')).toBe(false);
    const counts = countPlaceholders(all + ' <PHONE> <phone> <PHONE_1>');
    expect(counts.PHONE).toBe(2);
    expect(counts.SELF).toBe(1);
  });
});

describe('scanner: false positives it must not report', () => {
  it.each([
    '日期 2024-01-05，20240105 打卡',
    '价格¥1380.00，包邮',
    '这台相机卖13800元',
    '2023年营收13800138000元',
    '订单号13800138000已发货',
    '订单编号 110105198813122136 已完成',
    '快递单号 75312345678901 到哪了',
    '版本号 v1.2.3.4 已发布',
    '固件升级到 2.10.3.4',
    '第1.2.3.4节讲的是定义',
    '[12] Content: 第12条动态\nTags: #13周年庆# #520表白日#',
    '用户 we_16d82b9a92 和 U_1a2b3c4d 的互动',
    'xi_f6949b52d0 给 zh_dc9b245a3c 点了赞',
    '客服热线400-820-8820',
    'DNS 用 8.8.8.8 或 114.114.114.114，本机 127.0.0.1',
    '时间 12:30:45，比例 1:2:3:4，std::vector',
    'π≈3.14159，e≈2.71828；(3.1416, 2.7183)',
    '图标文件 logo@2x.png，感谢 @张三 的分享',
    'QQ群 123456789 欢迎加入，关注微信公众号：科技早知道',
    '京A级景区、粤港澳大湾区、新A轮融资、京ICP备12345678号-1',
    '我叫了外卖，我叫车回家。本人高度近视',
    'MAC 地址 FF:FF:FF:FF:FF:FF 是广播',
    '分辨率1920x1080，ISBN 978-7-111-54742-6',
  ])('%s', (text) => {
    expect(scanText(text)).toEqual([]);
  });
});

describe('scanner: bad input', () => {
  it('never throws', () => {
    const junk: unknown[] = [
      undefined,
      null,
      42,
      {},
      [],
      '',
      '\u0000\uffff\ud800',
      '<'.repeat(1000),
      '1'.repeat(100_000),
    ];
    for (const j of junk) expect(() => scanText(j as string)).not.toThrow();
    expect(scanText(null as unknown as string)).toEqual([]);
    expect(scanText('1'.repeat(100_000))).toEqual([]);
  });

  it('survives random text built from the characters detectors care about', () => {
    const alphabet = '0123456789１３８ -.:@#<>PHONE微信QQ京A·°N,E身份证卡号我叫张伟\u200b';
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let k = 0; k < 300; k++) {
      let s = '';
      for (let i = 0; i < 80; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
      const fs = scanText(s);
      for (const f of fs) {
        expect(s.slice(f.start, f.end)).toBe(f.text);
        expect(hasPlaceholder(f.text)).toBe(false);
      }
      for (let i = 1; i < fs.length; i++) expect(fs[i].start).toBeGreaterThanOrEqual(fs[i - 1].end);
    }
  });
});

describe('masking and the guard helpers', () => {
  it('replaces each finding by its placeholder', () => {
    const text = '电话13800138000，邮箱 a.b@example.com，微信：<CONTACT>';
    expect(maskText(text, scanText(text))).toBe('电话<PHONE>，邮箱 <EMAIL>，微信：<CONTACT>');
    const p = scanPrompt(text);
    expect(p.findings.map((f) => f.category)).toEqual(['PHONE', 'EMAIL']);
    expect(p.masked).toBe('电话<PHONE>，邮箱 <EMAIL>，微信：<CONTACT>');
    expect(scanPrompt(p.masked).findings).toEqual([]);
  });

  it('skips findings that do not match the text or overlap', () => {
    const text = '电话13800138000';
    expect(maskText(text, [{ category: 'PHONE', start: 2, end: 13, text: 'nope' }])).toBe(text);
    expect(maskText(text, [{ category: 'PHONE', start: 50, end: 60, text: '' }])).toBe(text);
    const f = scanText(text);
    expect(maskText(text, [...f, { ...f[0], start: 3, text: text.slice(3, 13) }])).toBe('电话<PHONE>');
  });

  it('honours minConfidence', () => {
    expect(cats('我叫张伟，电话13800138000')).toEqual(['SELF', 'PHONE']);
    expect(scanPrompt('我叫张伟，电话13800138000', { minConfidence: 'medium' }).masked).toBe('我叫张伟，电话<PHONE>');
  });

  it('recognises loopback endpoints', () => {
    expect(isLoopbackEndpoint('http://127.0.0.1:8080/v1')).toBe(true);
    expect(isLoopbackEndpoint('http://localhost:11434/v1')).toBe(true);
    expect(isLoopbackEndpoint('http://[::1]:8000/v1')).toBe(true);
    expect(isLoopbackEndpoint('https://api.example.com/v1')).toBe(false);
    expect(isLoopbackEndpoint('http://10.0.0.5/v1')).toBe(false);
    expect(isLoopbackEndpoint('http://127.example.com/')).toBe(false);
    expect(isLoopbackEndpoint('not a url')).toBe(false);
  });
});
